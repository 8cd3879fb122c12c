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

  /**
   * do_exit() takes the big kernel lock and never drops it: its last schedule() does
   * (kernel/exit.c 2.4.17), so that lock's count is no leak.
   */
  void checkExit(KernelCpu c) {
    Task t = c.current;
    if (debug.preemptCount() && atomicBeyondBkl(t, t.preemptCount)) {
      throw k.bug(c, "exit with preempt_count", t + " exited with " + PreemptCount.describe(t.preemptCount));
    }
  }

  void checkSoftirqReturn(KernelCpu c, ExecContext ctx) {
    if (debug.preemptCount() && !c.cpu.interruptsEnabled()) {
      throw k.bug(c, "softirq with interrupts off",
          "a softirq handler left interrupts disabled (" + ctx.currentPath() + ")");
    }
  }

  /**
   * An interrupt handler must give back what it took: a lock still held or a
   * {@code preempt_disable()} not undone would be carried into whatever it interrupted, and a
   * task would leave for user mode with them (2.4 has no such check; the preempt patch's
   * system-call exit would find the count only later, far from its cause).
   */
  void checkHandlerReturn(KernelCpu c, ExecContext irq, Kernel.IrqAction action) {
    if (debug.lockOwnership() && c.heldCount != irq.heldAtHandler) {
      throw k.bug(c, "interrupt handler returned holding a lock",
          action.name() + " (" + action.handler() + ") was called with " + irq.heldAtHandler
              + " lock(s) held and returned with " + c.heldCount + heldLocks(c));
    }
    if (debug.preemptCount() && c.current.preemptCount != irq.preemptAtHandler) {
      throw k.bug(c, "interrupt handler returned with preempt_count",
          action.name() + " (" + action.handler() + ") was called with "
              + PreemptCount.describe(irq.preemptAtHandler) + " and returned with "
              + PreemptCount.describe(c.current.preemptCount));
    }
  }

  void checkUserReturn(KernelCpu c) {
    Task t = c.current;
    if (debug.preemptCount() && t.preemptCount != 0) {
      throw k.bug(c, "return to user with preempt_count",
          t + " leaves " + callerOf(t.context) + " with " + PreemptCount.describe(t.preemptCount)
              + heldLocks(c));
    }
    if (debug.lockOwnership() && t.lockDepth >= 0) {
      // 2.4 checks nothing here; without SMP or CONFIG_PREEMPT a leaked lock_kernel() holds no
      // lock and no count, so only lock_depth shows it.
      throw k.bug(c, "return to user holding the big kernel lock",
          t + " leaves " + callerOf(t.context) + " with lock_depth " + t.lockDepth
              + ": a lock_kernel() without its unlock_kernel()");
    }
  }

  /**
   * The interrupt state a return to user mode finds, before the entry code's own {@code cli}:
   * interrupts on, and no saved flags left but the {@code entryFlags} the way back restores
   * itself (an exception's {@code iret} frame).
   */
  void checkUserReturnIrqState(KernelCpu c, int entryFlags) {
    Task t = c.current;
    if (debug.irqState()) {
      int left = t.context.irqFlagsDepth - entryFlags;
      if (left > 0) {
        throw k.bug(c, "return to user with saved irq flags",
            t + " leaves " + callerOf(t.context) + " with " + left
                + " local_irq_save / spin_lock_irqsave not restored");
      }
      if (!c.cpu.interruptsEnabled()) {
        String why = c.irqsLeftOffBy == null ? ""
            : "; " + c.irqsLeftOffBy + " was taken with spin_lock_irq(save) and released with a plain"
                + " spin_unlock in " + c.irqsLeftOffIn;
        throw k.bug(c, "return to user with interrupts disabled",
            t + " leaves " + callerOf(t.context) + " with interrupts off" + why);
      }
    }
    c.irqsLeftOffBy = null;
    c.irqsLeftOffIn = null;
  }

  void scheduleEntryChecks(KernelCpu c, ExecContext ctx) {
    Task t = c.current;
    if (!debug.atomicSchedule()) {
      return;
    }
    if (PreemptCount.inInterrupt(t.preemptCount)) {
      throw k.bug(c, "Scheduling in interrupt", t + " " + PreemptCount.describe(t.preemptCount));
    }
    int count = t.preemptCount;
    if ((count & PreemptCount.PREEMPT_ACTIVE) != 0) {
      count -= PreemptCount.PREEMPT_OFFSET; // preempt_schedule()'s own "+ 1" (2.4.17-1)
    }
    if (atomicBeyondBkl(t, count)) {
      throw k.bug(c, "scheduling while atomic",
          t + " " + PreemptCount.describe(t.preemptCount) + heldLocks(c) + ", called from "
              + callerOf(ctx));
    }
    // No check of the interrupt flag: 2.4's sleep_on() calls schedule() with interrupts off
    // (SLEEP_ON_HEAD ends in wq_write_unlock without the restore), and schedule() takes
    // runqueue_lock with spin_lock_irq and leaves with spin_unlock_irq whatever it was given
    // (kernel/sched.c 2.4.17). The 2.4 preempt patches add no such check either.
  }

  /**
   * in_atomic() of {@code count}, less the count of the big kernel lock {@code t} holds: a BKL
   * holder may sleep (schedule() releases the lock), a holder of any other lock may not.
   */
  private boolean atomicBeyondBkl(Task t, int count) {
    int held = count & ~PreemptCount.PREEMPT_ACTIVE;
    if (k.bkl.heldBy(t)) {
      held -= PreemptCount.PREEMPT_OFFSET;
    }
    return held != 0;
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
