package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.PreemptionModel;

/**
 * {@code spin_lock} and {@code spin_unlock} in all their forms, the rwlock operations, and
 * {@code lock_kernel} / {@code unlock_kernel}.
 *
 * <p>Models include/linux/spinlock.h of 2.4.17 with the preempt-kernel patch's layering
 * (preempt-kernel-rml-2.4.17-1 and preempt-kernel-O1-rml-2.4.18-2 alike): the generic lock is
 * {@code preempt_disable(); _raw_spin_lock(l);}, the unlock
 * {@code _raw_spin_unlock(l); preempt_enable();}. The {@code _irq} and {@code _irqsave} forms
 * disable interrupts before the lock; their unlocks are {@code spin_unlock(l)} <em>then</em>
 * {@code local_irq_enable()} / {@code local_irq_restore(flags)}, so the {@code preempt_enable()}
 * inside, which tests no interrupt flag, may call {@code preempt_schedule()} while interrupts
 * are still off. The {@code _bh} forms disable bottom halves first and re-enable them last.
 * Without CONFIG_PREEMPT the count changes are still tracked (see {@link PreemptCount}) but the
 * {@link PreemptionModel} never acts on them.
 */
final class LockOps {

  private LockOps() {}

  /** The variant of the lock call. */
  enum Form {
    PLAIN(""),
    IRQ("_irq"),
    IRQSAVE("_irqsave"),
    BH("_bh");

    final String suffix;

    Form(String suffix) {
      this.suffix = suffix;
    }
  }

  /** {@code spin_lock*}, {@code read_lock}, {@code write_lock}. */
  @Models(file = "include/linux/spinlock.h", function = "spin_lock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/linux/spinlock.h", function = "spin_lock_irq", version = "2.4.17")
  @Models(file = "include/linux/spinlock.h", function = "spin_lock_irqsave", version = "2.4.17")
  @Models(file = "include/linux/spinlock.h", function = "spin_lock_bh", version = "2.4.17")
  @Models(file = "include/linux/spinlock.h", function = "read_lock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/linux/spinlock.h", function = "write_lock",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class Acquire extends Op {
    final SpinLock lock;
    final Form form;
    final boolean read;

    Acquire(SpinLock lock, Form form, boolean read) {
      this.lock = lock;
      this.form = form;
      this.read = read;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (k.sleeps(lock)) {
        takeSleeping(k, c, ctx, f);
        return;
      }
      if (f.phase == 0) {
        switch (form) {
          case IRQ -> c.irqDisable(ctx);
          case IRQSAVE -> {
            ctx.saveIrqFlag(c.cpu.interruptsEnabled());
            c.irqDisable(ctx);
          }
          case BH -> c.addPreemptCount(PreemptCount.SOFTIRQ_OFFSET, ctx);
          case PLAIN -> {}
        }
        c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
        f.phase = 1;
      }
      if (k.locks.tryAcquire(c, ctx, f, lock, read)) {
        if (!read && lock.nested == 0) {
          lock.heldForm = form; // the holder's, not a nested UP re-take's
        }
        f.advance();
      }
    }

    /**
     * {@code rt_spin_lock}, where the lock sleeps: no interrupt flag, no preempt count (not even
     * the {@code _bh} form's, whose local_bh_disable() is a per-CPU lock under PREEMPT_RT), the
     * lock's {@code rt_mutex} taken ({@link SpinLocks#takeSleeping}); for an rwlock,
     * {@code rt_read_lock} or {@code rt_write_lock} ({@link SpinLocks#readLockSleeping},
     * {@link SpinLocks#writeLockSleeping}). Only a task may take it: a hard interrupt that does
     * is a catalog's lock that should be raw. A softirq run by a thread (ktimers, ksoftirqd, a handler thread's
     * local_bh_enable) still runs in the model's softirq context, which cannot sleep, so it is
     * refused there too; no softirq of the catalog takes a sleeping lock, and one that did would
     * need the softirq's context to be its thread's, as PREEMPT_RT has it.
     */
    @Models(file = "kernel/locking/spinlock_rt.c", function = "rt_spin_lock", version = "6.12")
    @Models(file = "kernel/locking/spinlock_rt.c", function = "rt_read_lock", version = "6.12")
    @Models(file = "kernel/locking/spinlock_rt.c", function = "rt_write_lock", version = "6.12")
    private void takeSleeping(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0 && ctx.kind != ExecContext.Kind.TASK) {
        throw k.bug(c, "sleeping spinlock in atomic context", lock.isReaderWriter()
            ? lock + " is an rwlock_t, which sleeps here, taken in " + ctx.kind + " context in "
                + ctx.currentPath() + ": only a task may take it"
            : lock + " is a spinlock_t, which sleeps here, taken in " + ctx.kind + " context in "
                + ctx.currentPath() + ": make it a raw spinlock (SpinLock.raw)");
      }
      boolean had = !lock.isReaderWriter() ? k.locks.takeSleeping(c, ctx, f, lock)
          : read ? k.locks.readLockSleeping(c, ctx, f, lock)
          : k.locks.writeLockSleeping(c, ctx, f, lock);
      if (had) {
        boolean throughMutex = read && lock.isReaderWriter() && f.phase == SpinLocks.RW_LET_GO;
        f.advance();
        if (throughMutex) {
          c.preemptCheck(ctx); // rt_mutex_postunlock's preempt_enable: who it woke may run now
        }
      }
    }

    /**
     * True if the lock is free for this taker, so that the operation takes it in one step
     * without spinning, nesting or sleeping (for {@link FastForward}).
     */
    boolean takesAtOnce() {
      boolean free = read ? lock.writerCpu < 0 : lock.writerCpu < 0 && lock.readers == 0;
      return free && lock.sleeper.owner == null && lock.sleeper.waiterCount == 0;
    }

    @Override
    String describe() {
      String verb = lock.isReaderWriter() ? (read ? "read_lock" : "write_lock") : "spin_lock";
      return verb + form.suffix + "(&" + lock.name() + ")";
    }
  }

  /** {@code spin_unlock*}, {@code read_unlock}, {@code write_unlock}. */
  @Models(file = "include/linux/spinlock.h", function = "spin_unlock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/linux/spinlock.h", function = "spin_unlock_irq", version = "2.4.17")
  @Models(file = "include/linux/spinlock.h", function = "spin_unlock_irqrestore",
      version = "2.4.17")
  @Models(file = "include/linux/spinlock.h", function = "spin_unlock_bh", version = "2.4.17")
  @Models(file = "include/linux/spinlock.h", function = "read_unlock",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/linux/spinlock.h", function = "write_unlock",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class Release extends Op {
    final SpinLock lock;
    final Form form;
    final boolean read;

    Release(SpinLock lock, Form form, boolean read) {
      this.lock = lock;
      this.form = form;
      this.read = read;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (k.sleeps(lock)) {
        // rt_spin_unlock: the rt_mutex let go, its first waiter woken, the loans taken back;
        // rt_read_unlock, rt_write_unlock (kernel/locking/spinlock_rt.c, 6.12) for an rwlock
        boolean done = !lock.isReaderWriter() ? k.locks.releaseSleeping(c, ctx, f, lock)
            : read ? k.locks.readUnlockSleeping(c, ctx, f, lock)
            : k.locks.writeUnlockSleeping(c, ctx, f, lock);
        if (done) {
          f.advance();
          c.preemptCheck(ctx);
        }
        return;
      }
      switch (f.phase) {
        case 0 -> {
          // spin_unlock(): _raw_spin_unlock(l); preempt_enable(), which may preempt here.
          if (form == Form.PLAIN && !read
              && (lock.heldForm == Form.IRQ || lock.heldForm == Form.IRQSAVE)) {
            c.noteIrqsLeftOff(lock, ctx);
          }
          k.locks.release(c, ctx, lock, read);
          c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
          f.phase = 1;
          c.preemptCheck(ctx);
          if (form == Form.PLAIN && ctx.top() == f) {
            // Nothing else to do and nothing pushed: done in this one step. (The interrupt flag
            // did not change, so no interrupt can have become deliverable in between.)
            f.advance();
          }
        }
        case 1 -> {
          // Then the interrupt flag; an interrupt pending since the lock is taken right here.
          f.phase = 2;
          switch (form) {
            case IRQ -> c.irqEnable(ctx);
            case IRQSAVE -> c.irqRestoreSaved(ctx);
            case BH -> c.bhEnable(ctx);
            case PLAIN -> {}
          }
        }
        default -> {
          f.advance();
          if (form == Form.BH) {
            c.preemptCheck(ctx); // the patch's local_bh_enable() ends in preempt_enable()
          }
        }
      }
    }

    @Override
    String describe() {
      String verb = lock.isReaderWriter() ? (read ? "read_unlock" : "write_unlock") : "spin_unlock";
      String suffix = form == Form.IRQSAVE ? "_irqrestore" : form.suffix;
      return verb + suffix + "(&" + lock.name() + ")";
    }
  }
  /**
   * {@code lock_kernel()}: the big kernel lock, nested on the task's {@code lock_depth}; the
   * lock itself only where it exists (SMP, CONFIG_PREEMPT), see {@link BigKernelLock}.
   */
  @Models(file = "include/asm-i386/smplock.h", function = "lock_kernel",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/linux/smp_lock.h", function = "lock_kernel", version = "2.4.17")
  static final class LockKernel extends Op {
    final SpinLock lock;

    LockKernel(SpinLock lock) {
      this.lock = lock;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (k.bkl.lock(c, ctx, f, lock)) {
        f.advance();
      }
    }

    @Override
    String describe() {
      return "lock_kernel()";
    }
  }

  /**
   * {@code unlock_kernel()}: the outermost one drops {@code kernel_flag} with a
   * {@code spin_unlock}, a preemption point under CONFIG_PREEMPT.
   */
  @Models(file = "include/asm-i386/smplock.h", function = "unlock_kernel", version = "2.4.17")
  @Models(file = "include/linux/smp_lock.h", function = "unlock_kernel", version = "2.4.17")
  static final class UnlockKernel extends Op {
    final SpinLock lock;

    UnlockKernel(SpinLock lock) {
      this.lock = lock;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (k.bkl.unlock(c, ctx, f, lock)) {
        f.advance();
        c.preemptCheck(ctx);
      }
    }

    @Override
    String describe() {
      return "unlock_kernel()";
    }
  }

  /**
   * {@code __reacquire_kernel_lock()} of a sleeping big kernel lock, the one operation of the
   * path schedule()'s tail pushes for a task that held the lock when it left the CPU: the lock
   * taken again, sleeping on it (with priority inheritance) if another task took it meanwhile;
   * see {@link BigKernelLock}.
   */
  @Models(file = "lib/kernel_lock.c", function = "__reacquire_kernel_lock", version = "2.6.12")
  static final class ReacquireKernelLock extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (k.bkl.reacquireSleeping(c, ctx, f)) {
        f.advance();
      }
    }

    @Override
    String describe() {
      return "__reacquire_kernel_lock()";
    }
  }
}
