package dev.kernellab.lowlat;

import dev.kernellab.hw.Models;

/**
 * What the low-latency patch inserts at a site (include/linux/low-latency.h, Morton's 2.4
 * patch; docs/lowlatency-sites.md, Mechanism).
 */
@Models(file = "include/linux/low-latency.h", function = "conditional_schedule",
    version = LowLatencyPatch.VERSION)
@Models(file = "include/linux/low-latency.h", function = "unconditional_schedule",
    version = LowLatencyPatch.VERSION)
public enum Technique {
  /**
   * {@code conditional_schedule()}: if {@code current->need_resched}, set TASK_RUNNING and
   * {@code schedule()}. Used where no spinlock is held between iterations.
   */
  CONDITIONAL_SCHEDULE("conditional_schedule"),
  /**
   * A lock break: if a reschedule is due, pin the current object, drop the lock,
   * {@code unconditional_schedule()}, retake the lock and revalidate (drop the pin and go on,
   * or restart the walk). Used where a spinlock is held across the loop.
   */
  LOCK_BREAK("lock break");

  private final String kernelName;

  Technique(String kernelName) {
    this.kernelName = kernelName;
  }

  /** How the patch's source names it. */
  public String kernelName() {
    return kernelName;
  }
}
