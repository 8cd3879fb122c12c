/**
 * Andrew Morton's low-latency patch for Linux 2.4, registered as {@code lowlat}:
 * {@code LowLatencyPatch} runs a conditional reschedule or a lock break between the iterations
 * of each loop site the patch touches. {@code LowLatencySites} is the per-hunk table of those
 * sites among the ones kernel-paths declares, each a {@code PatchedSite} with its
 * {@code Technique} and {@code Cadence}. The sysctl {@code /proc/sys/kernel/lowlatency} gates
 * only the counted tests; every other hunk acts with it at 0.
 *
 * <p>Models the patch as applied to 2.4.32, since no 2.4.17 copy is available to the project
 * (docs/lowlatency-sites.md): include/linux/low-latency.h ({@code conditional_schedule()},
 * {@code TEST_RESCHED_COUNT}) and its hunks in mm/, fs/, kernel/exit.c, drivers/ and
 * net/core/iovec.c.
 *
 * <p>Start reading with {@code LowLatencySites}, then {@code LowLatencyPatch}.
 */
package dev.kernellab.lowlat;
