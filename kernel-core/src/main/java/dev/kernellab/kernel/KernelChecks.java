package dev.kernellab.kernel;

/**
 * The kernel's own debug checks, as 2.5's {@code schedule()} ("scheduling while atomic",
 * "Scheduling in interrupt"), the preempt patch's exit and system-call-exit checks and
 * kernel/softirq.c's sanity checks report them: each raises a {@link KernelBug} naming the
 * task, the CPU and the path, like an oops.
 */
final class KernelChecks {

  private final Kernel k;
  private final DebugChecks debug;

  KernelChecks(Kernel k, DebugChecks debug) {
    this.k = k;
    this.debug = debug;
  }

  void checkExit(KernelCpu c) {
    Task t = c.current;
    if (debug.preemptCount() && PreemptCount.inAtomic(t.preemptCount)) {
      throw k.bug(c, "exit with preempt_count", t + " exited with " + PreemptCount.describe(t.preemptCount));
    }
  }

  void checkSoftirqReturn(KernelCpu c, ExecContext ctx) {
    if (debug.preemptCount() && !c.cpu.interruptsEnabled()) {
      throw k.bug(c, "softirq with interrupts off",
          "a softirq handler left interrupts disabled (" + ctx.currentPath() + ")");
    }
  }

  void checkUserReturn(KernelCpu c) {
    Task t = c.current;
    if (debug.preemptCount() && t.preemptCount != 0) {
      throw k.bug(c, "return to user with preempt_count",
          t + " leaves " + callerOf(t.context) + " with " + PreemptCount.describe(t.preemptCount)
              + heldLocks(c));
    }
  }

  void scheduleEntryChecks(KernelCpu c, ExecContext ctx) {
    Task t = c.current;
    if (!debug.atomicSchedule()) {
      return;
    }
    if (PreemptCount.inInterrupt(t.preemptCount)) {
      throw k.bug(c, "Scheduling in interrupt", t + " " + PreemptCount.describe(t.preemptCount));
    }
    if (PreemptCount.inAtomic(t.preemptCount)) {
      throw k.bug(c, "scheduling while atomic",
          t + " " + PreemptCount.describe(t.preemptCount) + heldLocks(c) + ", called from "
              + callerOf(ctx));
    }
    if (t.state().isSleeping() && !c.cpu.interruptsEnabled()) {
      throw k.bug(c, "sleeping with interrupts off", t + " in " + callerOf(ctx));
    }
  }

  private String heldLocks(KernelCpu c) {
    if (c.heldCount == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(", holding");
    for (int i = 0; i < c.heldCount; i++) {
      sb.append(' ').append(c.held[i]);
    }
    return sb.toString();
  }

  private static KernelPath callerOf(ExecContext ctx) {
    return ctx.depth >= 2 ? ctx.frame(ctx.depth - 2).path : ctx.currentPath();
  }
}
