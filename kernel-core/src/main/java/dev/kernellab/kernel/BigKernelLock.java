package dev.kernellab.kernel;

import dev.kernellab.hw.Models;

/**
 * The big kernel lock as 2.4 has it: {@code lock_kernel()} and {@code unlock_kernel()} nest on
 * the task's {@code lock_depth} and take or drop {@code kernel_flag} only at the outermost
 * level, and {@code schedule()} drops {@code kernel_flag} for a task that holds it and takes
 * it back when the task runs again, so a holder may sleep or call {@code schedule()} and loses
 * the lock while it is switched out.
 *
 * <p>Models include/linux/smp_lock.h and include/asm-i386/smplock.h of 2.4.17, with the
 * hunks preempt-kernel-rml-2.4.17-1 adds to both; the calls in kernel/sched.c
 * {@code schedule()} are {@link SchedOps}'.
 */
@Models(file = "include/linux/smp_lock.h", function = "lock_kernel", version = "2.4.17")
@Models(file = "include/asm-i386/smplock.h", function = "lock_kernel",
    version = "preempt-kernel-rml-2.4.17-1")
@Models(file = "include/asm-i386/smplock.h", function = "unlock_kernel", version = "2.4.17")
@Models(file = "include/asm-i386/smplock.h", function = "release_kernel_lock", version = "2.4.17")
@Models(file = "include/asm-i386/smplock.h", function = "reacquire_kernel_lock", version = "2.4.17")
@Models(file = "lib/kernel_lock.c", function = "lock_kernel", version = "2.6.12")
@Models(file = "lib/kernel_lock.c", function = "unlock_kernel", version = "2.6.12")
@Models(file = "lib/kernel_lock.c", function = "__release_kernel_lock", version = "2.6.12")
final class BigKernelLock {

  /*
   * Implementation overview
   *
   * Whether kernel_flag exists at all is a build option of the kernel [1][2]:
   *
   *   kernel                 kernel_flag                          lock_kernel() is
   *   UP                     compiled out (linux/smp_lock.h)      nothing
   *   UP + CONFIG_PREEMPT    a spinlock (the patch's smp_lock.h)  preempt_disable + the lock
   *   SMP                    a spinlock (asm-i386/smplock.h)      the lock, spinning if held
   *
   * lock_depth is kept in every kernel, as task_struct has it; only the lock itself goes. The
   * model takes CONFIG_PREEMPT to be on when the preemption model preempts kernel code: that
   * is what the patch's CONFIG_PREEMPT changes and what PreemptionModel.preemptsKernelCode says.
   *
   * lock_kernel() under CONFIG_PREEMPT takes the lock before it counts the depth
   * (`if (lock_depth == -1) spin_lock(&kernel_flag); ++lock_depth;`), without it after
   * (`if (!++lock_depth) spin_lock(...)`); no preemption can fall between the two here, so both
   * are one order in the model. unlock_kernel() is `if (--lock_depth < 0) spin_unlock(...)`,
   * a preemption point under CONFIG_PREEMPT like any spin_unlock.
   *
   * schedule() calls release_kernel_lock(prev, cpu) first thing (after its own
   * preempt_disable() in the patched kernel [2], so the spin_unlock inside cannot preempt) and
   * reacquire_kernel_lock(current) last, once the task runs again: `if (lock_depth >= 0)
   * spin_unlock / spin_lock(&kernel_flag)`. A holder that sleeps leaves the lock free for any
   * other task and spins for it on its way back (SMP). The 2.4.17 macro also ends in __sti();
   * 2.5's does not, and the model leaves it out (see SchedOps.ScheduleEntry).
   *
   * A kernel has one big kernel lock, the catalog's SpinLock.bigKernelLock(); the first
   * lock_kernel() binds it here, and schedule() releases that one.
   *
   * Where a patch makes spinlocks sleep (Kernel.sleeps), kernel_flag sleeps too, as
   * CONFIG_PREEMPT_BKL made it a semaphore, kernel_sem [3], and the realtime-preempt patches a
   * priority-inheriting one: the model takes the flag's RtMutex, as for any sleeping spinlock.
   *
   *   operation                    spinning kernel_flag             sleeping kernel_flag [3]
   *   lock_kernel at depth -1      preempt count + spin_lock        rt_mutex_lock, no count;
   *                                                                 depth set once it is had
   *   unlock_kernel to depth -1    spin_unlock, preemption point    rt_mutex_unlock, preemption point
   *   schedule(), depth >= 0       release, spin for it on return   release (up), then
   *                                                                 __reacquire_kernel_lock: depth
   *                                                                 saved and set -1, schedule()'s
   *                                                                 count dropped, rt_mutex_lock
   *                                                                 (may sleep), both restored
   *   preempt_schedule()           cannot happen (count held)       keeps the lock: depth hidden
   *                                                                 (-1) over its schedule() [4]
   *
   * So a holder that sleeps or calls schedule() loses the lock and may find it taken on its way
   * back; it then queues on it (lending its priority to the new owner) before it goes on. A
   * holder that is preempted keeps it, and a real-time task that wants it then boosts it.
   *
   * [1] include/linux/smp_lock.h, include/asm-i386/smplock.h, Linux 2.4.17.
   * [2] preempt-kernel-rml-2.4.17-1.patch: its include/linux/smp_lock.h, include/asm-i386/
   *     smplock.h and kernel/sched.c hunks.
   * [3] lib/kernel_lock.c, CONFIG_PREEMPT_BKL branch, Linux 2.6.12: lock_kernel,
   *     unlock_kernel, __release_kernel_lock, __reacquire_kernel_lock; Ingo Molnar, "Re: [patch]
   *     remove the BKL (Big Kernel Lock), this time for real", LKML, 17 Sep 2004,
   *     <20040917103945.GA19861@elte.hu>, where it first came.
   * [4] kernel/sched.c preempt_schedule, Linux 2.6.12 (CONFIG_PREEMPT_BKL: "we keep the big
   *     kernel semaphore locked, but we clear ->lock_depth so that schedule() doesnt
   *     auto-release the semaphore").
   */

  private final Kernel k;
  private final boolean spinlock; // kernel_flag exists: SMP, or CONFIG_PREEMPT
  private SpinLock flag; // kernel_flag, bound by the first lock_kernel()

  BigKernelLock(Kernel k, boolean spinlock) {
    this.k = k;
    this.spinlock = spinlock;
  }

  /** True if {@code kernel_flag} is a real lock in this kernel (SMP or CONFIG_PREEMPT). */
  boolean isSpinlock() {
    return spinlock;
  }

  /**
   * True if {@code kernel_flag} sleeps in this kernel (see the overview); false before any
   * lock_kernel() bound it, when no task can hold it.
   */
  boolean sleeps() {
    return spinlock && flag != null && k.sleeps(flag);
  }

  /**
   * True if {@code current}, running outside {@code schedule()}, holds a spinning
   * {@code kernel_flag}, and so one preempt count for it: {@code lock_depth >= 0} where the lock
   * exists and spins. A sleeping one holds no count.
   */
  boolean heldBy(Task current) {
    return spinlock && current.lockDepth >= 0 && !sleeps();
  }

  /**
   * True if {@code current}, back in {@code schedule()}'s tail, must retake a sleeping
   * {@code kernel_flag} that schedule() released for it ({@code __reacquire_kernel_lock}).
   */
  boolean retakesSleeping(Task current) {
    return current.lockDepth >= 0 && sleeps();
  }

  /** The kernel's {@code kernel_flag} once a path took it, else null. */
  SpinLock flag() {
    return flag;
  }

  /**
   * {@code lock_kernel()}: true once done, false while the CPU spins for the lock (SMP) or the
   * task sleeps on it (a sleeping kernel_flag).
   */
  boolean lock(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    bind(c, lock);
    Task t = c.current;
    if (sleeps()) {
      if (f.phase == 0 && t.lockDepth >= 0) {
        t.lockDepth++;
        return true;
      }
      // lock_depth stays -1 while it sleeps on the lock, so the schedule() of that sleep has
      // nothing to release ("we set up lock_depth _after_", 2.6.12)
      if (!takeSleeping(c, ctx, f)) {
        return false;
      }
      t.lockDepth = 0;
      return true;
    }
    if (f.phase == 0) {
      if (t.lockDepth >= 0 || !spinlock) {
        t.lockDepth++;
        return true;
      }
      c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
      f.phase = 1;
    }
    if (!take(c, ctx, f)) {
      return false;
    }
    t.lockDepth = 0;
    return true;
  }

  /**
   * {@code unlock_kernel()}: true once done, when the caller runs the preemption check of the
   * unlock; false while a sleeping kernel_flag's unlock pays for waking its waiter.
   */
  boolean unlock(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    if (f.phase != 0) {
      return RtMutexOps.unlock(k, c, ctx, f, flag.sleeper); // only a sleeping unlock gets here
    }
    bind(c, lock);
    Task t = c.current;
    if (t.lockDepth < 0) {
      throw k.bug(c, "unlock_kernel without lock_kernel",
          t + " calls unlock_kernel() in " + ctx.currentPath() + " with lock_depth -1");
    }
    if (--t.lockDepth >= 0 || !spinlock) {
      return true;
    }
    if (sleeps()) {
      return releaseSleeping(c, ctx, f);
    }
    k.locks.release(c, ctx, flag, false);
    c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
    return true;
  }

  /**
   * {@code release_kernel_lock(prev, cpu)} at the top of {@code schedule()}, whose own
   * preempt_disable() keeps the unlock from preempting: true once done, false while the release
   * of a sleeping kernel_flag pays for waking its waiter (phase 1 of {@code f} then follows).
   */
  boolean release(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    if (retakesSleeping(c.current)) {
      return releaseSleeping(c, ctx, f); // __release_kernel_lock's up(), the depth kept
    }
    if (!heldBy(c.current)) {
      return true;
    }
    k.locks.release(c, ctx, flag, false);
    c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
    return true;
  }

  /**
   * {@code __reacquire_kernel_lock()} of a sleeping kernel_flag, in its own frame {@code f}
   * pushed by schedule()'s tail with schedule()'s preempt count held: the depth saved in the
   * frame and set -1 and the count dropped, so that the schedule() of a sleep on the lock
   * releases nothing and is not atomic, then the lock taken as lock_kernel() takes it, and both
   * restored. True once it is had.
   */
  boolean reacquireSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    Task t = c.current;
    if (f.phase == 0) {
      if (t.lockDepth < 0) {
        throw k.bug(c, "reacquire_kernel_lock without the lock",
            t + " retakes the big kernel lock in " + ctx.currentPath() + " with lock_depth " + t.lockDepth);
      }
      f.scratch = t.lockDepth;
      t.lockDepth = -1;
      c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx); // preempt_enable_no_resched()
    }
    if (!takeSleeping(c, ctx, f)) {
      return false;
    }
    c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
    t.lockDepth = (int) f.scratch;
    return true;
  }

  /** The flag's rt_mutex taken as a sleeping spinlock takes it ({@link SpinLocks#takeSleeping}). */
  private boolean takeSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    if (f.phase == 0 && ctx.kind != ExecContext.Kind.TASK) {
      throw k.bug(c, "sleeping big kernel lock in atomic context", "lock_kernel() of " + flag + ", which sleeps"
          + " here, in " + ctx.kind + " context in " + ctx.currentPath());
    }
    return k.locks.takeSleeping(c, ctx, f, flag);
  }

  private boolean releaseSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    return k.locks.releaseSleeping(c, ctx, f, flag);
  }

  /**
   * {@code reacquire_kernel_lock(current)}'s spin_lock, for a task that {@link #heldBy} says
   * holds the lock, after the preempt count it adds: true once taken, false while the CPU spins
   * (SMP).
   */
  boolean reacquire(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    return take(c, ctx, f);
  }

  private boolean take(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    if (!k.locks.tryAcquire(c, ctx, f, flag, false)) {
      return false;
    }
    if (flag.nested == 0) {
      flag.heldForm = LockOps.Form.PLAIN;
    }
    return true;
  }

  private void bind(KernelCpu c, SpinLock lock) {
    if (flag == lock) {
      return;
    }
    if (flag != null) {
      throw k.bug(c, "two big kernel locks",
          "lock_kernel() of " + lock + " in a kernel whose kernel_flag is another lock of that name: a"
              + " kernel has one big kernel lock (paths of two catalogs in one kernel?)");
    }
    flag = lock;
  }
}
