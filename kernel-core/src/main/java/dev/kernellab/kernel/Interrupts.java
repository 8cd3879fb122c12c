package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.PreemptionModel;

/**
 * Interrupt and softirq contexts on a CPU: entering a hardirq context for an accepted vector,
 * entering {@code do_softirq}, and the decision taken on the way out.
 *
 * <p>Models arch/i386/kernel/irq.c {@code do_IRQ}, kernel/softirq.c {@code do_softirq} and
 * {@code wakeup_softirqd}, and arch/i386/kernel/entry.S {@code ret_from_intr} (2.4.17, with
 * the preempt patch's kernel-mode branch left to the {@link PreemptionModel}): returning to
 * user mode reschedules if need_resched is set; returning into kernel code asks the model;
 * returning into another interrupt context or into the idle loop decides nothing.
 */
final class Interrupts {

  private final Kernel k;

  Interrupts(Kernel k) {
    this.k = k;
  }

  @Models(file = "arch/i386/kernel/irq.c", function = "do_IRQ", version = "2.4.17")
  void enterInterrupt(KernelCpu c, int vector) {
    ExecContext ctx = pushContext(c, ExecContext.Kind.HARDIRQ);
    ctx.vector = vector;
    ctx.push(k.programs.interruptPath, false);
  }

  /** SMI#: the SMM stretch runs in a context above whatever the CPU ran. */
  void enterSystemManagement(KernelCpu c, KernelPath smm) {
    ExecContext ctx = pushContext(c, ExecContext.Kind.HARDIRQ);
    ctx.push(smm, false);
  }

  /** RSM: back to the interrupted code, deciding nothing (the kernel never knew). */
  void leaveSystemManagement(KernelCpu c, KernelPath smm) {
    c.contextDepth--;
    if (c.tracesPathExit(smm)) {
      k.tracer.pathExit(k.now(), c.id, smm);
    }
  }

  @Models(file = "kernel/softirq.c", function = "do_softirq", version = "2.4.17")
  void pushSoftirqContext(KernelCpu c) {
    pushSoftirqContext(c, false);
  }

  /**
   * {@code do_softirq()}; {@code processContext} when a task calls it with nothing held
   * (ksoftirqd), so that its closing {@code __local_bh_enable()} brings the count to zero: with
   * preempt-kernel-rml-2.4.17-1 that is a {@code preempt_enable()}, a preemption point
   * (include/asm-i386/softirq.h hunk). From an interrupt's exit the patch's entry code holds a
   * count, and from {@code local_bh_enable()} the outer {@code local_bh_disable()}'s, so
   * neither is one there.
   */
  void pushSoftirqContext(KernelCpu c, boolean processContext) {
    if (k.debug.preemptCount() && PreemptCount.inInterrupt(c.current.preemptCount)) {
      throw k.bug(c, "softirq in interrupt",
          "do_softirq with " + PreemptCount.describe(c.current.preemptCount));
    }
    ExecContext ctx = pushContext(c, ExecContext.Kind.SOFTIRQ);
    ctx.processContext = processContext;
    ctx.saveIrqFlag(c.cpu.interruptsEnabled());
    ctx.push(k.programs.softirqPath, false);
  }

  private ExecContext pushContext(KernelCpu c, ExecContext.Kind kind) {
    if (c.contextDepth == KernelCpu.MAX_CONTEXTS) {
      throw k.bug(c, "interrupt nesting", "more than " + KernelCpu.MAX_CONTEXTS + " nested contexts");
    }
    ExecContext ctx = c.contexts[c.contextDepth++];
    ctx.clear();
    ctx.kind = kind;
    return ctx;
  }

  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_intr", version = "2.4.17")
  void returnFromInterrupt(KernelCpu c) {
    c.contextDepth--;
    c.cpu.sti(); // iret: the interrupted context had IF set, or the interrupt would not be here
    if (c.tracesPathExit(k.programs.interruptPath)) {
      // The hardirq context is dropped whole at iret: its path ends here, and what the
      // interrupt interrupted runs again.
      k.tracer.pathExit(k.now(), c.id, k.programs.interruptPath);
    }
    if (c.contextDepth > 0) {
      return;
    }
    Task t = c.current;
    if (t.isIdle()) {
      return; // cpu_idle() looks at need_resched itself
    }
    ExecContext ctx = t.context;
    if (ctx.inUserMode()) {
      if (t.needResched()) {
        ctx.push(k.programs.retFromIntrToUser, false);
      }
      return;
    }
    if (k.preemption.preemptOnIrqReturn(c, t)) {
      ctx.push(k.programs.preemptSchedulePath, false);
    }
  }

  void traceIrqEntry(KernelCpu c, int vector) {
    if (k.tracer != null) {
      k.tracer.irqEntry(k.now(), c.id, vector);
    }
  }

  void traceIrqExit(KernelCpu c, int vector) {
    if (k.tracer != null) {
      k.tracer.irqExit(k.now(), c.id, vector);
    }
  }

  void traceSoftirqEntry(KernelCpu c, int pending) {
    if (k.tracer != null) {
      k.tracer.softirqEntry(k.now(), c.id, pending);
    }
  }

  void traceSoftirqExit(KernelCpu c) {
    if (k.tracer != null) {
      k.tracer.softirqExit(k.now(), c.id);
    }
  }
}
