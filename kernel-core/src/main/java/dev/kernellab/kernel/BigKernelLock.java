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
   * [1] include/linux/smp_lock.h, include/asm-i386/smplock.h, Linux 2.4.17.
   * [2] preempt-kernel-rml-2.4.17-1.patch: its include/linux/smp_lock.h, include/asm-i386/
   *     smplock.h and kernel/sched.c hunks.
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
   * True if {@code current}, running outside {@code schedule()}, holds {@code kernel_flag}
   * itself, and so one preempt count for it: {@code lock_depth >= 0} where the lock exists.
   */
  boolean heldBy(Task current) {
    return spinlock && current.lockDepth >= 0;
  }

  /** The kernel's {@code kernel_flag} once a path took it, else null. */
  SpinLock flag() {
    return flag;
  }

  /** {@code lock_kernel()}: true once done, false while the CPU spins for the lock (SMP). */
  boolean lock(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    bind(c, lock);
    Task t = c.current;
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

  /** {@code unlock_kernel()}; the caller then runs the preemption check of the unlock. */
  void unlock(KernelCpu c, ExecContext ctx, SpinLock lock) {
    bind(c, lock);
    Task t = c.current;
    if (t.lockDepth < 0) {
      throw k.bug(c, "unlock_kernel without lock_kernel",
          t + " calls unlock_kernel() in " + ctx.currentPath() + " with lock_depth -1");
    }
    if (--t.lockDepth >= 0 || !spinlock) {
      return;
    }
    k.locks.release(c, ctx, flag, false);
    c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
  }

  /**
   * {@code release_kernel_lock(prev, cpu)} at the top of {@code schedule()}, whose own
   * preempt_disable() keeps the unlock from preempting.
   */
  void release(KernelCpu c, ExecContext ctx) {
    if (!heldBy(c.current)) {
      return;
    }
    k.locks.release(c, ctx, flag, false);
    c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
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
