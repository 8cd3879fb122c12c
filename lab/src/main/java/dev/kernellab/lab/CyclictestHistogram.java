package dev.kernellab.lab;

import dev.kernellab.workloads.LatencyDistribution;
import dev.kernellab.workloads.LatencyRecorder;
import dev.kernellab.workloads.LatencySummary;
import java.util.List;
import java.util.Locale;

/**
 * Latency histograms in the layout of cyclictest's {@code -h} output (rt-tests,
 * src/cyclictest/cyclictest.c, print_hist()), one column per configuration where cyclictest has
 * one per thread, so that the plotting scripts written for it read these files unchanged: a
 * {@code # Histogram} line, one line per 1 us bucket ({@code %06d} bucket, then one {@code %06d}
 * count per column, tab-separated), then {@code # Total}, {@code # Min Latencies}, {@code # Avg
 * Latencies}, {@code # Max Latencies}, {@code # Histogram Overflows} and {@code # Histogram
 * Overflow at cycle number} with a {@code # Thread N:} line per column. Latencies in whole
 * microseconds, truncated, as cyclictest prints them.
 */
final class CyclictestHistogram {

  /** The bucket count when none is asked for and the worst sample is beyond it: 100 ms. */
  static final int MAX_AUTO_BUCKETS = 100_000;

  private CyclictestHistogram() {}

  /**
   * Buckets enough for the worst sample of every column, rounded up to a whole millisecond,
   * at most {@link #MAX_AUTO_BUCKETS}.
   */
  static int autoBuckets(List<LatencyDistribution> columns) {
    long maxUs = 0;
    for (LatencyDistribution d : columns) {
      maxUs = Math.max(maxUs, d.summary().maxNs() / 1_000);
    }
    long ms = maxUs / 1_000 + 1;
    return (int) Math.min(MAX_AUTO_BUCKETS, ms * 1_000);
  }

  /** The histogram file of {@code columns}, with {@code buckets} 1 us buckets. */
  static String format(List<LatencyDistribution> columns, int buckets) {
    StringBuilder sb = new StringBuilder();
    long[][] counts = new long[columns.size()][];
    for (int c = 0; c < columns.size(); c++) {
      counts[c] = columns.get(c).microsecondBuckets(buckets);
    }
    sb.append("# Histogram\n");
    for (int i = 0; i < buckets; i++) {
      sb.append(String.format(Locale.ROOT, "%06d ", i));
      for (int c = 0; c < columns.size(); c++) {
        sb.append(c > 0 ? "\t" : "").append(String.format(Locale.ROOT, "%06d", counts[c][i]));
      }
      sb.append('\n');
    }
    sb.append("# Total:");
    for (int c = 0; c < columns.size(); c++) {
      long inBuckets = columns.get(c).summary().samples() - counts[c][buckets];
      sb.append(String.format(Locale.ROOT, " %09d", inBuckets));
    }
    sb.append('\n');
    line(sb, "# Min Latencies:", columns, LatencySummary::minNs);
    line(sb, "# Avg Latencies:", columns, LatencySummary::avgNs);
    line(sb, "# Max Latencies:", columns, LatencySummary::maxNs);
    sb.append("# Histogram Overflows:");
    for (int c = 0; c < columns.size(); c++) {
      sb.append(String.format(Locale.ROOT, " %05d", counts[c][buckets]));
    }
    sb.append('\n');
    sb.append("# Histogram Overflow at cycle number:\n");
    for (int c = 0; c < columns.size(); c++) {
      sb.append("# Thread ").append(c).append(':');
      long overflows = counts[c][buckets];
      long listed = 0;
      LatencyDistribution column = columns.get(c);
      for (LatencyRecorder.Sample s : byCycle(column.worst())) {
        // the bucket the counts above put it in, so that a sample is an overflow in both or neither
        if (column.bucketMicroseconds(s.latencyNs()) >= buckets) {
          sb.append(String.format(Locale.ROOT, " %05d", s.cycle()));
          listed++;
        }
      }
      if (listed < overflows) {
        sb.append(String.format(Locale.ROOT, " # %05d others", overflows - listed));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static List<LatencyRecorder.Sample> byCycle(List<LatencyRecorder.Sample> worst) {
    return worst.stream().sorted((a, b) -> Long.compare(a.cycle(), b.cycle())).toList();
  }

  private static void line(StringBuilder sb, String label, List<LatencyDistribution> columns,
      java.util.function.ToLongFunction<LatencySummary> figure) {
    sb.append(label);
    for (LatencyDistribution d : columns) {
      sb.append(String.format(Locale.ROOT, " %05d", figure.applyAsLong(d.summary()) / 1_000));
    }
    sb.append('\n');
  }
}
