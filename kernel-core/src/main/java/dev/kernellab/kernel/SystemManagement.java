package dev.kernellab.kernel;

import dev.kernellab.hw.Smi;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.Simulation;

/**
 * The machine's periodic SMI as the kernel lives through it: every CPU stops what it runs, keeps
 * interrupts off for the SMM stretch, and resumes where it stopped, as if nothing had happened
 * (no interrupt entry, no preemption decision: RSM returns to the interrupted instruction). The
 * stretch is a context of its own on the CPU so that a latency analysis sees where the time
 * went and names it ({@link SmiCause}).
 */
final class SystemManagement {

  private final Kernel k;
  private final Simulation sim;
  private final Smi smi;
  private final KernelPath smm;
  private final Event event;

  SystemManagement(Kernel k, Simulation sim, Smi smi) {
    this.k = k;
    this.sim = sim;
    this.smi = smi;
    this.smm = KernelPath.of("(firmware)", "SMM", new SmiCause(smi.periodNs(), smi.lengthNs()), new Smm(smi.lengthNs()));
    this.event = new Event("smi", now -> fire());
  }

  void start() {
    sim.scheduleAfter(event, smi.periodNs());
  }

  private void fire() {
    for (int i = 0; i < k.cpuCount(); i++) {
      k.interpreter.systemManagement(k.cpu(i), smm);
    }
    sim.scheduleAfter(event, smi.periodNs());
  }

  /** SMI# to RSM: interrupts off, the BIOS's time, the interrupt flag as it was. */
  static final class Smm extends Op {
    final long lengthNs;

    Smm(long lengthNs) {
      this.lengthNs = lengthNs;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        ctx.saveIrqFlag(c.cpu.interruptsEnabled());
        c.irqDisable(ctx);
        f.phase = 1;
        c.compute(f, lengthNs, false);
        return;
      }
      boolean was = ctx.popIrqFlag();
      f.advance();
      if (was) {
        c.irqEnable(ctx); // with the SMM frame still on the CPU: the stretch is the SMI's
      }
      k.interrupts.leaveSystemManagement(c, f.path);
    }

    @Override
    String describe() {
      return "SMI#: System Management Mode; RSM";
    }
  }
}
