package dev.kernellab.workloads;

/**
 * The figures of a latency distribution, in ns; percentiles come from the HdrHistogram (three
 * significant digits), count, minimum, average and maximum are exact.
 *
 * @param samples how many samples
 * @param minNs smallest
 * @param avgNs mean
 * @param p50Ns median
 * @param p99Ns 99th percentile
 * @param p999Ns 99.9th percentile
 * @param maxNs largest
 * @param onTimePct percentage of samples at or below {@code deadlineNs}
 * @param deadlineNs the probe's deadline (its period, or 1 ms of slack for latencytest)
 */
public record LatencySummary(
    long samples, long minNs, long avgNs, long p50Ns, long p99Ns, long p999Ns, long maxNs,
    double onTimePct, long deadlineNs) {

  /** No samples. */
  public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** The same with another deadline. */
  public LatencySummary withDeadline(long ns) {
    return new LatencySummary(samples, minNs, avgNs, p50Ns, p99Ns, p999Ns, maxNs, onTimePct, ns);
  }
}
