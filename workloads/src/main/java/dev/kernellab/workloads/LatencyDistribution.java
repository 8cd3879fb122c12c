package dev.kernellab.workloads;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A probe's latencies at the end of a run, whole: the histogram as {@link LatencyRecorder}
 * keeps it, the worst sample of each stretch of
 * time, and the worst samples with their identity. What a report needs to draw the
 * distribution, print it as cyclictest's {@code -h} does, or plot it over time.
 */
public final class LatencyDistribution {

  /** Points of the timeline at most. */
  static final int SLOTS = 1024;

  /** The timeline's first slot width: 1 ms, doubled each time the run outgrows the slots. */
  static final long FIRST_SLOT_NS = 1_000_000;

  private final Histogram histogram;
  private final LatencySummary summary;
  private final List<LatencyRecorder.Sample> worst;
  private final long slotNs;
  private final long[] slotMaxNs;

  LatencyDistribution(Histogram histogram, LatencySummary summary, List<LatencyRecorder.Sample> worst,
      long slotNs, long[] slotMaxNs) {
    this.histogram = histogram;
    this.summary = summary;
    this.worst = List.copyOf(worst);
    this.slotNs = slotNs;
    this.slotMaxNs = slotMaxNs;
  }

  /** The figures. */
  public LatencySummary summary() {
    return summary;
  }

  /** The worst samples kept, worst first. */
  public List<LatencyRecorder.Sample> worst() {
    return worst;
  }

  /**
   * Counts per 1 us bucket: element {@code i} counts the samples of {@code i} to {@code i + 1}
   * us, for {@code i} below {@code buckets}; the last element counts those of {@code buckets}
   * us or more (cyclictest's histogram overflows). A sample goes to the bucket of the lowest
   * value the histogram cannot tell it from, truncated to the microsecond as cyclictest
   * truncates: exact to 0.5 us below 1 ms, to 1 us below 2 ms, to three digits above.
   */
  public long[] microsecondBuckets(int buckets) {
    if (buckets < 1) {
      throw new IllegalArgumentException("buckets must be at least 1, got " + buckets);
    }
    long[] out = new long[buckets + 1];
    for (var v : histogram.recordedValues()) {
      long us = bucketMicroseconds(v.getValueIteratedTo());
      out[(int) Math.min(us, buckets)] += v.getCountAtValueIteratedTo();
    }
    return out;
  }

  /**
   * The 1 us bucket {@link #microsecondBuckets} counts a sample of {@code ns} in: a report that
   * names samples beside the buckets (cyclictest's overflow list) places each by this rule too.
   */
  public long bucketMicroseconds(long ns) {
    return histogram.lowestEquivalentValue(ns) / 1_000;
  }

  /**
   * Counts in logarithmic bins, {@code perDecade} bins to each factor of ten from 1 us: bin
   * {@code i} covers {@code [10^(i/perDecade), 10^((i+1)/perDecade))} us, and the first also
   * takes the samples under 1 us. Bins run from the first to the one holding the largest sample.
   */
  public List<Bin> logBins(int perDecade) {
    if (perDecade < 1) {
      throw new IllegalArgumentException("perDecade must be at least 1, got " + perDecade);
    }
    List<Bin> out = new ArrayList<>();
    if (histogram.getTotalCount() == 0) {
      return out;
    }
    long[] counts = new long[binOf(histogram.getMaxValue(), perDecade) + 1];
    for (var v : histogram.recordedValues()) {
      counts[binOf(v.getValueIteratedTo(), perDecade)] += v.getCountAtValueIteratedTo();
    }
    for (int i = 0; i < counts.length; i++) {
      out.add(new Bin(Math.pow(10, (double) i / perDecade), Math.pow(10, (double) (i + 1) / perDecade), counts[i]));
    }
    return out;
  }

  private int binOf(long ns, int perDecade) {
    double us = histogram.lowestEquivalentValue(ns) / 1e3;
    return us < 1 ? 0 : (int) Math.floor(Math.log10(us) * perDecade + 1e-9);
  }

  /**
   * The worst sample of each stretch of the run, in time order: one point per stretch that had
   * a sample. The stretches are all {@link #timelineSlotNs()} long.
   */
  public List<Point> timeline() {
    List<Point> out = new ArrayList<>();
    for (int i = 0; i < slotMaxNs.length; i++) {
      if (slotMaxNs[i] >= 0) {
        out.add(new Point(i * slotNs, slotMaxNs[i]));
      }
    }
    return out;
  }

  /** How long each stretch of {@link #timeline()} is. */
  public long timelineSlotNs() {
    return slotNs;
  }

  /** A logarithmic bin of {@link #logBins}: from {@code lowUs} (inclusive) to {@code highUs}. */
  public record Bin(double lowUs, double highUs, long count) {}

  /** The worst sample of the stretch starting at {@code startNs}. */
  public record Point(long startNs, long maxNs) {}
}
