package dev.kernellab.kernel;

/**
 * {@code spin_lock} and {@code spin_unlock} in all their forms, and the rwlock operations.
 *
 * <p>Models include/linux/spinlock.h of 2.4.17 with the preempt-kernel patch's layering: the
 * generic lock is {@code preempt_disable(); _raw_spin_lock(l);}, the unlock
 * {@code _raw_spin_unlock(l); preempt_enable();}; the {@code _irq} and {@code _irqsave} forms
 * disable interrupts before the lock and re-enable them after the raw unlock, the {@code _bh}
 * forms disable bottom halves first and re-enable them after. Without CONFIG_PREEMPT the count
 * changes are still tracked (see {@link PreemptCount}) but the {@link PreemptionModel} never
 * acts on them.
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
        f.advance();
      }
    }

    @Override
    String describe() {
      String verb = lock.isReaderWriter() ? (read ? "read_lock" : "write_lock") : "spin_lock";
      return verb + form.suffix + "(&" + lock.name() + ")";
    }
  }

  /** {@code spin_unlock*}, {@code read_unlock}, {@code write_unlock}. */
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
      switch (f.phase) {
        case 0 -> {
          k.locks.release(c, ctx, lock, read);
          switch (form) {
            case IRQ -> c.irqEnable(ctx);
            case IRQSAVE -> c.irqRestoreSaved(ctx);
            case PLAIN, BH -> {}
          }
          // Pending interrupts are taken here, before preempt_enable, as after the real sti.
          f.phase = 1;
        }
        case 1 -> {
          c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
          f.phase = 2;
          if (form == Form.BH) {
            c.bhEnable(ctx);
          }
        }
        default -> {
          f.advance();
          c.preemptCheck(ctx);
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
}
