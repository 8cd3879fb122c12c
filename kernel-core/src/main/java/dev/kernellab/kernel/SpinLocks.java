package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Simulation;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.Tracer;

/**
 * The raw spinlock and rwlock operations beneath {@code spin_lock} and {@code spin_unlock}
 * ({@code _raw_spin_lock}, {@code _raw_read_lock}... include/asm-i386/spinlock.h, 2.4.17):
 * taking a free lock, spinning on a held one (SMP), releasing with ownership checks and hold
 * statistics, the per-CPU list of held locks, and the lock-order validator.
 *
 * <p>On UP the 2.4 lock compiles to nothing: taking it never waits, and a nested taker on the
 * same CPU (an interrupt handler taking a lock its interrupted task holds, a real SMP bug) is
 * only counted. A release makes every CPU spinning on the lock retry at that instant, in the
 * order they started to spin; the first to run takes it. Real 2.4 x86 locks are test-and-set
 * and unfair, and who wins depends on cache-line timing; spin order is the deterministic
 * stand-in.
 */
final class SpinLocks {

  private final Kernel k;
  private final KernelCpu[] cpus;
  private final Simulation sim;
  private final Tracer tracer;
  private final DebugChecks debug;
  private final LockOrder lockOrder = new LockOrder();

  SpinLocks(Kernel k, KernelCpu[] cpus, Simulation sim, Tracer tracer, DebugChecks debug) {
    this.k = k;
    this.cpus = cpus;
    this.sim = sim;
    this.tracer = tracer;
    this.debug = debug;
  }

  /** The raw lock: true if taken now; otherwise the CPU spins and the operation retries. */
  @Models(file = "include/asm-i386/spinlock.h", function = "_raw_spin_lock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/asm-i386/spinlock.h", function = "_raw_read_lock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/asm-i386/spinlock.h", function = "_raw_write_lock",
      version = "preempt-kernel-rml-2.4.17-1")
  boolean tryAcquire(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock, boolean read) {
    if (lock.kernel != k) {
      claim(c, lock);
    }
    if (debug.lockOrder() && !f.spinning) {
      checkOrder(c, ctx, lock);
    }
    boolean smp = cpus.length > 1;
    boolean free = read ? lock.writerCpu < 0 : lock.writerCpu < 0 && lock.readers == 0;
    if (smp && !free) {
      if (debug.lockOwnership() && lock.writerCpu == c.id) {
        throw k.bug(c, "spinlock recursion", lock + " already held by this CPU, taken again by " + ctx.currentPath());
      }
      if (!f.spinning) {
        f.spinning = true;
        f.scratch = k.now(); // when the spin started
        lock.recordContention();
        if (c.lockTracers != 0) {
          tracer.lockContend(k.now(), c.id, lock, ctx.currentPath());
        }
      }
      lock.addSpinner(c.id);
      c.cpu.startSpin();
      return false;
    }
    long spun = f.spinning ? k.now() - f.scratch : 0;
    f.spinning = false;
    f.scratch = 0;
    lock.removeSpinner(c.id);
    if (read) {
      if (lock.readers == 0) {
        lock.recordAcquire(k.now(), ctx.currentPath());
      }
      lock.readers++;
      held(c, lock);
    } else if (lock.writerCpu < 0) {
      takeFree(c, lock, ctx.currentPath());
    } else {
      // UP: the lock compiles away, so a second taker on the one CPU does not wait; the lab's
      // lock debugging reports it as SMP would, since on SMP it would spin for ever.
      if (debug.lockOwnership()) {
        throw k.bug(c, "spinlock recursion",
            lock + " already held (taken by " + lock.acquiredBy + "), taken again by " + ctx.currentPath());
      }
      lock.nested++;
      held(c, lock);
    }
    if (c.lockTracers != 0) {
      tracer.lockAcquire(k.now(), c.id, lock, ctx.currentPath(), spun);
    }
    return true;
  }

  /**
   * A free lock (no writer, no reader) taken for writing by {@code c}, in {@code path}: its
   * holder, its statistics, the CPU's held list. What {@link #tryAcquire} does for it, less the
   * checks that pass and the tracer no one asked; FastForward's script calls it directly.
   */
  void takeFree(KernelCpu c, SpinLock lock, KernelPath path) {
    lock.writerCpu = c.id;
    lock.recordAcquire(k.now(), path);
    held(c, lock);
  }

  private static void held(KernelCpu c, SpinLock lock) {
    if (c.heldCount < c.held.length) {
      c.held[c.heldCount++] = lock;
    }
  }

  /**
   * A lock another kernel holds or spins on is that kernel's: its holder CPU numbers and
   * spinners mean nothing here. One left free may pass to this kernel (a test's paths built
   * once and run on several kernels in turn); its statistics then add up.
   */
  private void claim(KernelCpu c, SpinLock lock) {
    if (lock.kernel != null && (lock.writerCpu >= 0 || lock.readers > 0 || lock.writeLocked || lock.hasSpinners())) {
      throw k.bug(c, "spinlock of another kernel",
          lock + " belongs to another kernel, which holds it: give each kernel its own");
    }
    lock.kernel = k;
  }

  /**
   * The order {@code lock} is asked for in, checked before the CPU spins on it, as lockdep
   * does: an AB-BA pair taken on two CPUs at once would otherwise spin both for ever, and no
   * acquisition would ever record the second order.
   */
  private void checkOrder(KernelCpu c, ExecContext ctx, SpinLock lock) {
    for (int i = 0; i < c.heldCount; i++) {
      if (c.held[i] != lock && !lockOrder.record(c.held[i], lock)) {
        throw k.bug(c, "lock order inversion",
            lock + " taken while holding " + c.held[i] + " in " + ctx.currentPath()
                + ", but elsewhere " + c.held[i] + " is taken while holding " + lock);
      }
    }
  }

  /**
   * A sleeping lock's {@code rt_mutex} taken, sleeping with priority inheritance if it is held,
   * with the spinlock's statistics kept (an acquisition once had, a contention when it had to
   * wait); no tracer is told, since the holder keeps no CPU from preempting it. True once had;
   * the caller's operation runs again while its task sleeps. For a spinlock_t where spinlocks
   * sleep, and for the big kernel lock there.
   */
  boolean takeSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    if (takeMutex(c, ctx, f, lock)) {
      lock.recordAcquire(k.now(), ctx.currentPath());
      return true;
    }
    return false;
  }

  /**
   * The lock's {@code rt_mutex} taken ({@link RtMutexOps#lock}), a wait for it counted as the
   * lock's contention: true once had, false while the task sleeps on it.
   */
  private boolean takeMutex(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    long contended = lock.sleeper.contentions();
    if (RtMutexOps.lock(k, c, ctx, f, lock.sleeper, false)) {
      return true;
    }
    if (lock.sleeper.contentions() != contended) {
      lock.recordContention();
    }
    return false;
  }

  /**
   * A sleeping lock's {@code rt_mutex} let go, its first waiter woken and the loans taken back,
   * the hold recorded as the spinlock's; true once done (the wake-up paid), as
   * {@link RtMutexOps#unlock}.
   */
  boolean releaseSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    if (f.phase == 0 && lock.sleeper.owner == c.current) {
      lock.recordRelease(k.now());
    }
    return RtMutexOps.unlock(k, c, ctx, f, lock.sleeper);
  }

  // The phases of the sleeping rwlock operations past the rt_mutex's own (RtMutexOps.lock)
  static final int RW_LET_GO = RtMutexOps.LOCK_PHASES; // a reader let go of the rt_mutex: its wake-up paid
  private static final int RW_DRAIN = RtMutexOps.LOCK_PHASES + 1; // a writer asleep until the readers leave
  private static final int RW_WOKE_WRITER = RtMutexOps.LOCK_PHASES + 2; // the last reader woke the writer

  /**
   * {@code read_lock} where rwlocks sleep ({@code rwbase_read_lock}, kernel/locking/rwbase_rt.c,
   * 6.12): a reader gets in at once unless a writer has the lock for write; then it sleeps on
   * the rt_mutex the writer owns, lending it its priority, and once it has it counts itself in
   * and lets it go again, waking the next in line. A writer still waiting for the readers to
   * leave does not stop new ones (PREEMPT_RT's rwlocks are not writer fair). True once in; at
   * phase {@link #RW_LET_GO} the reader came through the mutex, whose unlock is a preemption
   * point.
   *
   * <p>Readers are counted, not named, so a chain that passes through a writer waiting for
   * them (a reader that write-locks what it reads, or a reader that sleeps on a lock the
   * writer holds) is not reported as a deadlock the way an rt_mutex chain is: both sleep.
   */
  @Models(file = "kernel/locking/rwbase_rt.c", function = "rwbase_read_lock", version = "6.12")
  boolean readLockSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    if (f.phase == RW_LET_GO) {
      return true;
    }
    if (f.phase == 0 && lock.kernel != k) {
      claim(c, lock);
    }
    if (f.phase == 0 && !lock.writeLocked) {
      k.sched.checkTaskContext(c, ctx);
      countReaderIn(lock, ctx);
      return true;
    }
    if (!takeMutex(c, ctx, f, lock)) {
      return false;
    }
    countReaderIn(lock, ctx); // the rt_mutex held: no writer has it
    TaskOps.WakeUp.chargeWakeUps(k, c, f, RtMutexOps.letGo(k, c, ctx, lock.sleeper), RW_LET_GO);
    return false;
  }

  private void countReaderIn(SpinLock lock, ExecContext ctx) {
    if (lock.readers++ == 0) {
      lock.recordAcquire(k.now(), ctx.currentPath());
    }
  }

  /**
   * {@code read_unlock} where rwlocks sleep ({@code rwbase_read_unlock}, 6.12): the last reader
   * out wakes the writer that owns the rt_mutex and waits for the readers to leave. True once
   * done (the wake-up paid); a preemption point follows, as after {@code rt_mutex_wake_up_q}.
   */
  @Models(file = "kernel/locking/rwbase_rt.c", function = "rwbase_read_unlock", version = "6.12")
  boolean readUnlockSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    if (f.phase == RW_WOKE_WRITER) {
      return true;
    }
    if (lock.readers == 0) {
      throw k.bug(c, "unlock of unheld lock", "read_unlock(" + lock + ") with no reader in " + ctx.currentPath());
    }
    if (--lock.readers > 0) {
      return true;
    }
    lock.recordRelease(k.now());
    Task writer = lock.sleeper.owner;
    if (writer == null) {
      return true;
    }
    TaskOps.WakeUp.chargeWakeUps(k, c, f, k.sched.wakeUpTask(c, writer) ? 1 : 0, RW_WOKE_WRITER);
    return false;
  }

  /**
   * {@code write_lock} where rwlocks sleep ({@code rwbase_write_lock}, 6.12): the rt_mutex taken
   * first, sleeping with priority inheritance if another writer (or a reader on its way in) has
   * it, which turns new readers to the slow path; then, while readers are still inside, the
   * writer sleeps until the last one wakes it. It lends them no priority: PREEMPT_RT cannot
   * boost many readers. True once the lock is the writer's.
   */
  @Models(file = "kernel/locking/rwbase_rt.c", function = "rwbase_write_lock", version = "6.12")
  boolean writeLockSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    Task t = c.current;
    if (f.phase == RW_DRAIN) {
      t.setState(TaskState.RUNNING);
    } else {
      if (f.phase == 0 && lock.kernel != k) {
        claim(c, lock);
      }
      boolean atOnce = f.phase == 0; // no sleep on the mutex yet, so no contention counted
      if (!takeMutex(c, ctx, f, lock)) {
        return false;
      }
      if (lock.readers > 0 && atOnce) {
        lock.recordContention(); // one wait, for the readers, in this acquisition
      }
    }
    if (lock.readers == 0) {
      lock.writeLocked = true;
      lock.recordAcquire(k.now(), ctx.currentPath());
      return true;
    }
    t.setState(TaskState.UNINTERRUPTIBLE); // TASK_RTLOCK_WAIT
    f.phase = RW_DRAIN;
    k.sched.callSchedule(c, ctx);
    return false;
  }

  /**
   * {@code write_unlock} where rwlocks sleep ({@code rwbase_write_unlock}, 6.12): the lock open
   * to readers again, the rt_mutex let go to its first waiter, as {@link RtMutexOps#unlock}.
   */
  @Models(file = "kernel/locking/rwbase_rt.c", function = "rwbase_write_unlock", version = "6.12")
  boolean writeUnlockSleeping(KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock lock) {
    if (f.phase == 0) {
      if (!lock.writeLocked || lock.sleeper.owner != c.current) {
        throw k.bug(c, "unlock of unheld lock", "write_unlock(" + lock + ") by " + c.current
            + ", which does not hold it for write, in " + ctx.currentPath());
      }
      lock.writeLocked = false;
      lock.recordRelease(k.now());
    }
    return RtMutexOps.unlock(k, c, ctx, f, lock.sleeper);
  }

  /** The raw unlock, with ownership checks, statistics and a kick to the first spinner. */
  @Models(file = "include/asm-i386/spinlock.h", function = "_raw_spin_unlock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/asm-i386/spinlock.h", function = "_raw_read_unlock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/asm-i386/spinlock.h", function = "_raw_write_unlock",
      version = "preempt-kernel-rml-2.4.17-1")
  void release(KernelCpu c, ExecContext ctx, SpinLock lock, boolean read) {
    if (read) {
      if (lock.readers == 0) {
        throw k.bug(c, "unlock of unheld lock", "read_unlock(" + lock + ") with no reader in " + ctx.currentPath());
      }
      if (--lock.readers == 0) {
        lock.recordRelease(k.now());
      }
    } else if (lock.nested > 0) {
      lock.nested--;
    } else {
      if (debug.lockOwnership() && lock.writerCpu < 0) {
        throw k.bug(c, "unlock of unheld lock", lock + " is not held, unlocked by " + ctx.currentPath());
      }
      if (debug.lockOwnership() && lock.writerCpu != c.id) {
        throw k.bug(c, "unlock by another CPU", lock + " held by cpu" + lock.writerCpu + ", unlocked on cpu" + c.id);
      }
      long held = k.now() - lock.acquiredNs;
      lock.recordRelease(k.now());
      lock.writerCpu = -1;
      if (c.lockTracers != 0) {
        tracer.lockRelease(k.now(), c.id, lock, ctx.currentPath(), held);
      }
    }
    for (int i = c.heldCount - 1; i >= 0; i--) {
      if (c.held[i] == lock) {
        System.arraycopy(c.held, i + 1, c.held, i, c.heldCount - i - 1);
        c.heldCount--;
        break;
      }
    }
    // Every spinner retries at this instant, in the order they started to spin; the first to
    // run takes the lock and the others spin on. (A kick to a CPU that is in an interrupt
    // handler, or no longer spinning, does nothing: it retries when it resumes.)
    for (int i = 0; i < lock.spinnerCount; i++) {
      KernelCpu s = cpus[lock.spinners[i]];
      if (!s.kick.isScheduled()) {
        sim.scheduleAfter(s.kick, 0);
      }
    }
  }
}
