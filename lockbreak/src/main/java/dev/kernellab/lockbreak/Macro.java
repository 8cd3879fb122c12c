package dev.kernellab.lockbreak;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.CondReschedLock.Then;

/** What a hunk of the lock-break patch runs at its site (include/linux/lock_break.h). */
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock", version = LockBreakPatch.VERSION)
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock_and_resched",
    version = LockBreakPatch.VERSION)
@Models(file = "include/linux/lock_break.h", function = "conditional_schedule",
    version = LockBreakPatch.VERSION)
public enum Macro {
  /**
   * {@code break_spin_lock(l)}: {@code spin_unlock(l); spin_lock(l);}. Under CONFIG_PREEMPT the
   * unlock drops preempt_count to zero when {@code l} is the only lock held, and is then itself a
   * preemption point; no explicit schedule.
   */
  BREAK_SPIN_LOCK("break_spin_lock", Then.NOTHING),
  /**
   * {@code break_spin_lock_and_resched(l)}: {@code spin_unlock(l); conditional_schedule();
   * spin_lock(l);}, where another lock (the big kernel lock) stays held across the break, so the
   * unlock alone cannot preempt.
   */
  BREAK_SPIN_LOCK_AND_RESCHED("break_spin_lock_and_resched", Then.COND_RESCHED),
  /**
   * {@code conditional_schedule()} alone: {@code schedule()} if need_resched, with no lock
   * dropped by the hunk. Where the only lock held is the big kernel lock (close_files), the
   * hunk needs no break: schedule() releases and retakes it.
   */
  CONDITIONAL_SCHEDULE("conditional_schedule", Then.COND_RESCHED);

  private final String kernelName;
  private final Then then;

  Macro(String kernelName, Then then) {
    this.kernelName = kernelName;
    this.then = then;
  }

  /** What runs between the unlock and the relock, in kernel-core's lock-break primitive. */
  public Then then() {
    return then;
  }

  /** The macro's name in lock_break.h. */
  public String kernelName() {
    return kernelName;
  }
}
