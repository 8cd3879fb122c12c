package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The figures a probe reports, as cyclictest and realfeel print them: exact count, minimum,
 * average and maximum, the share of samples at or under the deadline, and the identity of the
 * worst samples; worked out by hand for small sample sets.
 */
class LatencyFiguresTests {

  private static final long US = 1_000;

  @Test
  void countMinAverageAndMaxAreExact() {
    LatencyRecorder r = new LatencyRecorder(100 * US);
    r.record(10 * US, 0, 0);
    r.record(30 * US, 1, 0);
    r.record(20 * US, 2, 0);
    LatencySummary s = r.summary();
    assertThat(s.samples()).isEqualTo(3);
    assertThat(r.count()).isEqualTo(3);
    assertThat(s.minNs()).isEqualTo(10 * US);
    assertThat(s.avgNs()).isEqualTo(20 * US);
    assertThat(s.maxNs()).isEqualTo(30 * US);
    // percentiles come from the histogram, whose buckets are 1 us wide at the bottom
    assertThat(s.p50Ns()).isCloseTo(20 * US, within(1 * US));
    assertThat(s.deadlineNs()).isEqualTo(100 * US);
    assertThat(r.deadlineNs()).isEqualTo(100 * US);
  }

  @Test
  void aSampleExactlyAtTheDeadlineIsOnTimeOneNanosecondLaterIsNot() {
    LatencyRecorder r = new LatencyRecorder(100 * US);
    r.record(100 * US, 0, 0);
    r.record(100 * US + 1, 1, 0);
    r.record(5 * US, 2, 0);
    r.record(7 * US, 3, 0);
    assertThat(r.summary().onTimePct()).isEqualTo(75.0);
  }

  @Test
  void aNegativeLatencyCountsAsZero() {
    LatencyRecorder r = new LatencyRecorder(100 * US);
    r.record(-5, 0, 0);
    r.record(4 * US, 1, 0);
    assertThat(r.summary().minNs()).isZero();
    assertThat(r.summary().avgNs()).isEqualTo(2 * US);
  }

  @Test
  void noSamplesIsTheEmptySummaryWithTheDeadline() {
    LatencyRecorder r = new LatencyRecorder(250 * US);
    assertThat(r.summary()).isEqualTo(LatencySummary.EMPTY.withDeadline(250 * US));
    assertThat(r.worst()).isEmpty();
    assertThat(r.distribution().logBins(10)).isEmpty();
    assertThat(r.distribution().timeline()).isEmpty();
  }

  @Test
  void theWorstSixteenAreKeptWorstFirstEarlierFirstOnATie() {
    LatencyRecorder r = new LatencyRecorder(100 * US);
    // latencies 1..40 us in the order 17 * i mod 41, then a tie with the largest
    for (int i = 1; i <= 40; i++) {
      long us = (17L * i) % 41;
      r.record(us * US, i * 1_000L * US, i % 2);
    }
    r.record(40 * US, 999_000 * US, 1);
    List<LatencyRecorder.Sample> w = r.worst();
    assertThat(w).hasSize(LatencyRecorder.WORST_KEPT);
    assertThat(w.get(0).latencyNs()).isEqualTo(40 * US);
    assertThat(w.get(1).latencyNs()).isEqualTo(40 * US);
    assertThat(w.get(0).atNs()).isLessThan(w.get(1).atNs());
    assertThat(w.get(1).cycle()).isEqualTo(40);
    assertThat(w.stream().map(LatencyRecorder.Sample::latencyNs).toList())
        .containsExactly(40 * US, 40 * US, 39 * US, 38 * US, 37 * US, 36 * US, 35 * US, 34 * US, 33 * US,
            32 * US, 31 * US, 30 * US, 29 * US, 28 * US, 27 * US, 26 * US);
    // 17 * i = 40 (mod 41) at i = 12: the first 40 us sample is cycle 11, on cpu 0
    assertThat(w.get(0).cycle()).isEqualTo(11);
    assertThat(w.get(0).cpu()).isZero();
  }

  @Test
  void bucketsAndBinsNeedAPositiveSize() {
    LatencyDistribution d = new LatencyRecorder(100 * US).distribution();
    assertThatIllegalArgumentException().isThrownBy(() -> d.microsecondBuckets(0));
    assertThatIllegalArgumentException().isThrownBy(() -> d.logBins(0));
    assertThat(d.microsecondBuckets(1)).containsExactly(0, 0);
  }

  @Test
  void logBinsOfTenPerDecadeStartAtOneMicrosecondAndTakeTheSubMicrosecondSamples() {
    LatencyRecorder r = new LatencyRecorder(100 * US);
    r.record(500, 0, 0); // under 1 us: the first bin
    r.record(1 * US, 1, 0); // [1, 1.26) us: the first bin
    r.record(15 * US, 2, 0); // log10(15) = 1.18: bin 11
    List<LatencyDistribution.Bin> bins = r.distribution().logBins(10);
    assertThat(bins).hasSize(12);
    assertThat(bins.get(0).count()).isEqualTo(2);
    assertThat(bins.get(0).lowUs()).isEqualTo(1.0);
    assertThat(bins.get(11).count()).isEqualTo(1);
    assertThat(bins.get(11).lowUs()).isCloseTo(Math.pow(10, 1.1), within(1e-9));
    assertThat(bins.get(11).highUs()).isCloseTo(Math.pow(10, 1.2), within(1e-9));
    assertThat(bins.subList(1, 11)).allMatch(b -> b.count() == 0);
  }

  @Test
  void theTimelineStartsWithOneMillisecondStretches() {
    LatencyRecorder r = new LatencyRecorder(100 * US);
    r.record(7 * US, 2_500 * US, 0);
    r.record(9 * US, 2_900 * US, 0);
    r.record(3 * US, 0, 0);
    LatencyDistribution d = r.distribution();
    assertThat(d.timelineSlotNs()).isEqualTo(1_000 * US);
    assertThat(d.timeline()).containsExactly(
        new LatencyDistribution.Point(0, 3 * US), new LatencyDistribution.Point(2_000 * US, 9 * US));
    assertThat(d.summary().samples()).isEqualTo(3);
    assertThat(d.worst()).hasSize(3);
  }
}
