package dev.kernellab.workloads;

import java.util.List;

/**
 * What one probe measured.
 *
 * @param name the probe ({@code realfeel}, {@code cyclictest}, {@code latencytest})
 * @param latency the true latency: from the interrupt's assertion (or the timer's programmed
 *     expiry) to the instant the probe is back in user mode
 * @param worst the worst samples of {@code latency}, worst first, with their time and CPU
 * @param periodError realfeel's own measure (inter-wakeup period minus the ideal, clamped at 0),
 *     or null for probes that have none
 * @param realfeelBins realfeel's 0.1 ms histogram of {@code periodError}, or null
 * @param phases per-phase latency of a phased workload, in phase order (empty if none)
 * @param distribution the whole distribution of {@code latency}: its histogram and timeline
 */
public record ProbeResult(
    String name,
    LatencySummary latency,
    List<LatencyRecorder.Sample> worst,
    LatencySummary periodError,
    RealfeelHistogram realfeelBins,
    List<PhaseResult> phases,
    LatencyDistribution distribution) {

  /** One phase's figures. */
  public record PhaseResult(String phase, LatencySummary latency, long overruns) {}
}
