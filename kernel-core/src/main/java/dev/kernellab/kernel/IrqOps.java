package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.Softirq;

/**
 * Interrupt-flag, preempt-count and bottom-half operations, and the interrupt entry and exit
 * path.
 *
 * <p>Models include/asm-i386/system.h ({@code __cli}, {@code __sti}, save/restore flags),
 * include/linux/spinlock.h of the preempt patch ({@code preempt_disable/enable}),
 * kernel/softirq.c ({@code do_softirq}, {@code local_bh_enable}) and arch/i386/kernel/irq.c
 * ({@code do_IRQ}, {@code handle_IRQ_event}) with entry.S ({@code ret_from_intr}), 2.4.17.
 */
final class IrqOps {

  private IrqOps() {}

  /** {@code local_irq_disable()}. */
  @Models(file = "include/asm-i386/system.h", function = "local_irq_disable", version = "2.4.17")
  static final class IrqDisable extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.irqDisable(ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "local_irq_disable()";
    }
  }

  /** {@code local_irq_enable()}. */
  @Models(file = "include/asm-i386/system.h", function = "local_irq_enable", version = "2.4.17")
  static final class IrqEnable extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.irqEnable(ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "local_irq_enable()";
    }
  }

  /** {@code local_irq_save(flags)}. */
  @Models(file = "include/asm-i386/system.h", function = "local_irq_save", version = "2.4.17")
  static final class IrqSave extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      ctx.saveIrqFlag(c.cpu.interruptsEnabled());
      c.irqDisable(ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "local_irq_save(flags)";
    }
  }

  /** {@code local_irq_restore(flags)}. */
  @Models(file = "include/asm-i386/system.h", function = "local_irq_restore", version = "2.4.17")
  static final class IrqRestore extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.irqRestoreSaved(ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "local_irq_restore(flags)";
    }
  }

  /** {@code preempt_disable()}. */
  @Models(file = "include/linux/spinlock.h", function = "preempt_disable",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class PreemptDisable extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "preempt_disable()";
    }
  }

  /** {@code preempt_enable()} or {@code preempt_enable_no_resched()}. */
  @Models(file = "include/linux/spinlock.h", function = "preempt_enable",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "include/linux/spinlock.h", function = "preempt_enable_no_resched",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class PreemptEnable extends Op {
    final boolean resched;

    PreemptEnable(boolean resched) {
      this.resched = resched;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
      f.advance();
      if (resched) {
        c.preemptCheck(ctx);
      }
    }

    @Override
    String describe() {
      return resched ? "preempt_enable()" : "preempt_enable_no_resched()";
    }
  }

  /** {@code local_bh_disable()}. */
  @Models(file = "include/asm-i386/softirq.h", function = "local_bh_disable", version = "2.4.17")
  static final class BhDisable extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.addPreemptCount(PreemptCount.SOFTIRQ_OFFSET, ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "local_bh_disable()";
    }
  }

  /**
   * {@code local_bh_enable()}: pending softirqs run when the count reaches zero; the preempt
   * patch's version then ends in {@code preempt_enable()}, a preemption point.
   */
  @Models(file = "include/asm-i386/softirq.h", function = "local_bh_enable", version = "2.4.17")
  @Models(file = "include/asm-i386/softirq.h", function = "local_bh_enable",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class BhEnable extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        f.phase = 1;
        c.bhEnable(ctx);
        return;
      }
      f.advance();
      c.preemptCheck(ctx);
    }

    @Override
    String describe() {
      return "local_bh_enable()";
    }
  }

  /** {@code raise_softirq(nr)}. */
  @Models(file = "kernel/softirq.c", function = "raise_softirq", version = "2.4.17")
  static final class RaiseSoftirq extends Op {
    final Softirq softirq;

    RaiseSoftirq(Softirq softirq) {
      this.softirq = softirq;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.raiseSoftirq(softirq);
      f.advance();
    }

    @Override
    String describe() {
      return "raise_softirq(" + softirq + "_SOFTIRQ)";
    }
  }

  /**
   * {@code desc->handler->ack(irq)} of {@code do_IRQ}: the 8259A's {@code mask_and_ack_8259A}
   * (its port I/O on the ISA bus), or the local APIC's EOI write ({@link InterruptController}).
   */
  @Models(file = "arch/i386/kernel/irq.c", function = "do_IRQ", version = "2.4.17")
  static final class IrqAck extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 1) {
        f.advance();
        return;
      }
      KernelPath ack = k.controller.ackPath(ctx.vector);
      if (ack == null) {
        c.compute(f, k.costs().apicAckNs(), true);
        return;
      }
      f.phase = 1;
      ctx.push(ack, false);
    }

    @Override
    String describe() {
      return "desc->handler->ack(irq)";
    }
  }

  /** {@code desc->handler->end(irq)} of {@code do_IRQ}: the 8259A's {@code enable_8259A_irq}. */
  @Models(file = "arch/i386/kernel/irq.c", function = "do_IRQ", version = "2.4.17")
  static final class IrqEnd extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      KernelPath end = f.phase == 0 ? k.controller.endPath(ctx.vector) : null;
      if (end == null) {
        f.advance();
        return;
      }
      f.phase = 1;
      ctx.push(end, false);
    }

    @Override
    String describe() {
      return "desc->handler->end(irq)";
    }
  }

  /**
   * {@code do_IRQ} entry: {@code desc->handler->ack(irq)} (the APIC EOI of an edge-triggered
   * line, {@code ack_edge_ioapic_irq}; system vectors ack first too), then
   * {@code irq_enter()}: the hardirq count goes up. Acking first is what lets a handler that
   * re-enables interrupts ({@code hdparm -u1} for IDE) be interrupted by any vector.
   */
  @Models(file = "arch/i386/kernel/irq.c", function = "do_IRQ", version = "2.4.17")
  @Models(file = "include/asm-i386/hardirq.h", function = "irq_enter", version = "2.4.17")
  static final class IrqEnter extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.cpu.eoi();
      c.addPreemptCount(PreemptCount.HARDIRQ_OFFSET, ctx);
      k.interrupts.traceIrqEntry(c, ctx.vector);
      f.advance();
    }

    @Override
    String describe() {
      return "ack; irq_enter()";
    }
  }

  /**
   * The handler proper, run as {@code do_IRQ} and {@code handle_IRQ_event} do: with interrupts
   * enabled for the duration unless the action is SA_INTERRUPT; and never twice at once for
   * one line: an edge that arrives while its handler runs (on any CPU) only sets IRQ_PENDING,
   * and the running instance loops once more ({@code IRQ_INPROGRESS}, arch/i386/kernel/irq.c).
   */
  @Models(file = "arch/i386/kernel/irq.c", function = "handle_IRQ_event", version = "2.4.17")
  @Models(file = "arch/i386/kernel/irq.c", function = "do_IRQ", version = "2.4.17")
  static final class HandleIrqEvent extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      int v = ctx.vector;
      Kernel.IrqAction action = k.actionFor(v);
      if (f.phase == 0) {
        if (action == null) {
          f.advance();
          return;
        }
        if (k.irqInProgress[v]) {
          k.irqPending[v] = true;
          f.advance();
          return;
        }
        k.irqInProgress[v] = true;
        runHandler(k, c, ctx, f, action);
        return;
      }
      k.checks.checkHandlerReturn(c, ctx, action);
      c.cpu.cli();
      if (k.irqPending[v]) {
        k.irqPending[v] = false;
        runHandler(k, c, ctx, f, action);
        return;
      }
      k.irqInProgress[v] = false;
      f.advance();
    }

    private static void runHandler(
        Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f, Kernel.IrqAction action) {
      f.phase = 1;
      ctx.heldAtHandler = c.heldCount;
      ctx.preemptAtHandler = c.current.preemptCount;
      if (!action.saInterrupt()) {
        c.cpu.sti();
      }
      ctx.push(action.handler(), false);
    }

    @Override
    String describe() {
      return "handle_IRQ_event()";
    }
  }

  /**
   * {@code irq_exit()} and the softirq check of {@code do_IRQ}: hardirq count down, and
   * pending softirqs run if this was the outermost interrupt.
   */
  @Models(file = "include/asm-i386/hardirq.h", function = "irq_exit", version = "2.4.17")
  @Models(file = "arch/i386/kernel/irq.c", function = "do_IRQ", version = "2.4.17")
  static final class IrqExit extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.addPreemptCount(-PreemptCount.HARDIRQ_OFFSET, ctx);
      k.interrupts.traceIrqExit(c, ctx.vector);
      f.advance();
      if (!c.inInterrupt() && c.softirqPending != 0) {
        if (k.threadsSoftirqs) {
          k.deferSoftirqs(c);
        } else {
          k.interrupts.pushSoftirqContext(c);
        }
      }
    }

    @Override
    String describe() {
      return "irq_exit()";
    }
  }

  /** {@code iret} via {@code ret_from_intr}: pops the interrupt context and decides. */
  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_intr", version = "2.4.17")
  static final class Iret extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      k.interrupts.returnFromInterrupt(c);
    }

    @Override
    String describe() {
      return "ret_from_intr";
    }
  }

  /**
   * {@code do_softirq()} of 2.4.17: run every pending softirq with interrupts on, restart while
   * new ones (not yet run this time) are raised, and leave the rest to ksoftirqd. It ends in
   * {@code __local_bh_enable()}, which the preempt patch ends in {@code preempt_enable()}: a
   * preemption point where a task called do_softirq() with nothing held, taken when the
   * softirq context is left (Interrupts.pushSoftirqContext).
   */
  @Models(file = "kernel/softirq.c", function = "do_softirq", version = "2.4.17")
  @Models(file = "include/asm-i386/softirq.h", function = "__local_bh_enable",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class DoSoftirq extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        int pending = c.softirqPending;
        c.addPreemptCount(PreemptCount.SOFTIRQ_OFFSET, ctx);
        k.interrupts.traceSoftirqEntry(c, pending);
        f.iterationsLeft = ~pending & 0xffff; // mask: softirqs not yet run this time
        f.scratch = pending;
        c.softirqPending = 0;
        c.cpu.sti();
        f.phase = 1;
      } else {
        // Back from a handler: softirq handlers run with interrupts on and must leave them so.
        k.checks.checkSoftirqReturn(c, ctx);
      }
      if (f.scratch != 0) {
        int nr = Long.numberOfTrailingZeros(f.scratch);
        f.scratch &= f.scratch - 1;
        KernelPath handler = k.softirqHandler(nr);
        if (handler != null) {
          ctx.push(handler, false);
        }
        return;
      }
      c.cpu.cli();
      int pending = c.softirqPending;
      if ((pending & f.iterationsLeft) != 0) {
        f.iterationsLeft &= ~pending;
        f.scratch = pending;
        c.softirqPending = 0;
        c.cpu.sti();
        return;
      }
      c.addPreemptCount(-PreemptCount.SOFTIRQ_OFFSET, ctx);
      k.interrupts.traceSoftirqExit(c);
      if (pending != 0) {
        k.wakeKsoftirqd(c);
      }
      f.advance();
    }

    @Override
    String describe() {
      return "do_softirq()";
    }
  }
}
