package dev.kernellab.lowlat;

import dev.kernellab.hw.Models;

/**
 * How often a hunk of the low-latency patch looks, and whether {@code /proc/sys/kernel/lowlatency}
 * gates it (include/linux/low-latency.h, 2.4.32 copy of the patch).
 */
@Models(file = "include/linux/low-latency.h", function = "conditional_schedule_needed",
    version = LowLatencyPatch.VERSION)
@Models(file = "include/linux/low-latency.h", function = "TEST_RESCHED_COUNT",
    version = LowLatencyPatch.VERSION)
@Models(file = "include/linux/low-latency.h", function = "RESET_RESCHED_COUNT",
    version = LowLatencyPatch.VERSION)
public enum Cadence {
  /**
   * Every iteration, {@code if (conditional_schedule_needed())}: in the non-debug build that is
   * {@code current->need_resched} alone, so the sysctl does not gate it.
   */
  EVERY_ITERATION,
  /**
   * {@code TEST_RESCHED_COUNT(n)} = {@code enable_lowlatency && ++resched_count > n}, then
   * {@code RESET_RESCHED_COUNT()}: a look every n + 1 iterations, gated by the sysctl.
   */
  TEST_RESCHED_COUNT,
  /**
   * A chunked walk: the lock is dropped every n iterations whether or not a reschedule is due,
   * then {@code conditional_schedule()} (zap_page_range's MAX_ZAP_BYTES). Not gated.
   */
  CHUNK
}
