package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Simulation;
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
    } else if (lock.writerCpu < 0) {
      lock.writerCpu = c.id;
      lock.recordAcquire(k.now(), ctx.currentPath());
    } else {
      // UP: the lock compiles away, so a second taker on the one CPU does not wait; the lab's
      // lock debugging reports it as SMP would, since on SMP it would spin for ever.
      if (debug.lockOwnership()) {
        throw k.bug(c, "spinlock recursion",
            lock + " already held (taken by " + lock.acquiredBy + "), taken again by " + ctx.currentPath());
      }
      lock.nested++;
    }
    if (c.heldCount < c.held.length) {
      c.held[c.heldCount++] = lock;
    }
    if (c.lockTracers != 0) {
      tracer.lockAcquire(k.now(), c.id, lock, ctx.currentPath(), spun);
    }
    return true;
  }

  /**
   * A lock another kernel holds or spins on is that kernel's: its holder CPU numbers and
   * spinners mean nothing here. One left free may pass to this kernel (a test's paths built
   * once and run on several kernels in turn); its statistics then add up.
   */
  private void claim(KernelCpu c, SpinLock lock) {
    if (lock.kernel != null && (lock.writerCpu >= 0 || lock.readers > 0 || lock.hasSpinners())) {
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
    long contended = lock.sleeper.contentions();
    if (RtMutexOps.lock(k, c, ctx, f, lock.sleeper, false)) {
      lock.recordAcquire(k.now(), ctx.currentPath());
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
