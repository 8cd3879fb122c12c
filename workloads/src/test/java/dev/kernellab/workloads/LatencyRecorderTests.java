package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyRecorderTests {

  @Test
  void everySampleLandsInExactlyOneMicrosecondBucketAndTheTopOnesOverflow() {
    qt().forAll(lists().of(integers().between(0, 5_000_000)).ofSizeBetween(1, 200)).checkAssert(ns -> {
      LatencyRecorder r = new LatencyRecorder(100_000);
      for (int i = 0; i < ns.size(); i++) {
        r.record(ns.get(i), i * 1_000L, 0);
      }
      long[] buckets = r.distribution().microsecondBuckets(1_000);
      assertThat(java.util.Arrays.stream(buckets).sum()).isEqualTo(ns.size());
      long overflows = ns.stream().filter(n -> n >= 1_000_000).count();
      // HdrHistogram's three digits blur a sample within 0.1 % of the edge: allow that band
      long nearEdge = ns.stream().filter(n -> n >= 999_000 && n < 1_001_000).count();
      assertThat(buckets[1_000]).isBetween(overflows - nearEdge, overflows + nearEdge);
    });
  }

  @Test
  void belowAMillisecondEachBucketCountsItsOwnMicrosecond() {
    LatencyRecorder r = new LatencyRecorder(100_000);
    r.record(17_500, 0, 0);
    r.record(17_950, 0, 0);
    r.record(18_500, 0, 0);
    long[] b = r.distribution().microsecondBuckets(100);
    assertThat(b[17]).isEqualTo(2);
    assertThat(b[18]).isEqualTo(1);
  }

  @Test
  void theLogBinsCountEverySampleOnce() {
    Random rnd = new Random(3);
    LatencyRecorder r = new LatencyRecorder(100_000);
    for (int i = 0; i < 10_000; i++) {
      r.record((long) Math.exp(rnd.nextDouble() * 18), i, 0);
    }
    List<LatencyDistribution.Bin> bins = r.distribution().logBins(10);
    assertThat(bins.stream().mapToLong(LatencyDistribution.Bin::count).sum()).isEqualTo(10_000);
    for (int i = 1; i < bins.size(); i++) {
      assertThat(bins.get(i).lowUs()).isEqualTo(bins.get(i - 1).highUs());
    }
  }

  @Test
  void theTimelineKeepsTheWorstOfEachStretchAndFoldsWhenTheRunOutgrowsIt() {
    LatencyRecorder r = new LatencyRecorder(100_000);
    long hourNs = 3_600_000_000_000L;
    for (long t = 0; t < hourNs; t += 10_000_000L) {
      r.record(t == 1_800_000_000_000L ? 5_000_000 : 10_000, t, 0);
    }
    LatencyDistribution d = r.distribution();
    assertThat(d.timeline()).hasSizeLessThanOrEqualTo(LatencyDistribution.SLOTS)
        .hasSizeGreaterThan(LatencyDistribution.SLOTS / 2);
    assertThat(d.timelineSlotNs() * LatencyDistribution.SLOTS).isGreaterThanOrEqualTo(hourNs);
    LatencyDistribution.Point worst = d.timeline().stream()
        .max(java.util.Comparator.comparingLong(LatencyDistribution.Point::maxNs)).orElseThrow();
    assertThat(worst.maxNs()).isEqualTo(5_000_000);
    assertThat(1_800_000_000_000L).isBetween(worst.startNs(), worst.startNs() + d.timelineSlotNs() - 1);
    assertThat(d.timeline()).filteredOn(p -> p.startNs() != worst.startNs()).allMatch(p -> p.maxNs() == 10_000);
  }

  @Test
  void theWorstSamplesKeepTheirCycleNumber() {
    LatencyRecorder r = new LatencyRecorder(100_000);
    for (int i = 0; i < 100; i++) {
      r.record(i == 42 ? 900_000 : 1_000, i * 1_000L, 1);
    }
    LatencyRecorder.Sample w = r.worst().get(0);
    assertThat(w.cycle()).isEqualTo(42);
    assertThat(w.atNs()).isEqualTo(42_000);
    assertThat(w.cpu()).isEqualTo(1);
  }

  /**
   * The histogram answers a percentile with its bucket's upper value, which lies above a lone
   * sample of 183.1 us; the summary keeps every percentile within the exact extremes.
   */
  @Test
  void percentilesNeverLieOutsideTheRecordedExtremes() {
    LatencyRecorder r = new LatencyRecorder(1_000_000);
    r.record(183_100, 1, 0);
    LatencySummary s = r.summary();
    org.assertj.core.api.Assertions.assertThat(s.maxNs()).isEqualTo(183_100);
    org.assertj.core.api.Assertions.assertThat(new long[] {s.p50Ns(), s.p99Ns(), s.p999Ns()})
        .containsOnly(183_100L);
    r.record(5_000, 2, 0);
    org.assertj.core.api.Assertions.assertThat(r.summary().p999Ns()).isBetween(5_000L, 183_100L);
  }
}
