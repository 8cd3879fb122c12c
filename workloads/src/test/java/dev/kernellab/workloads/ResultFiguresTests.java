package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The figures a probe hands back, against reference models written here: the worst samples are
 * the largest latencies of the run (a sort), and realfeel's histogram puts each period error in
 * the 0.1 ms bin realfeel.c's rounding gives it.
 */
class ResultFiguresTests {

  @Test
  void theWorstKeptAreTheLargestLatenciesOfTheRunWhateverTheirOrder() {
    qt().withFixedSeed(21)
        .withExamples(300)
        .forAll(lists().of(longs().between(0, 2_000_000)).ofSizeBetween(1, 300), integers().between(1, 60))
        .checkAssert((lat, spread) -> {
          LatencyRecorder r = new LatencyRecorder(1_000_000);
          for (int i = 0; i < lat.size(); i++) {
            // coarse values (multiples of spread us up to 2 ms) make ties common
            r.record(lat.get(i) / (spread * 1_000L) * spread * 1_000L, i * 1_000L, 0);
          }
          List<Long> expected = new ArrayList<>();
          lat.forEach(v -> expected.add(v / (spread * 1_000L) * spread * 1_000L));
          expected.sort(Comparator.reverseOrder());
          List<Long> top = expected.subList(0, Math.min(LatencyRecorder.WORST_KEPT, expected.size()));
          assertThat(r.worst()).extracting(LatencyRecorder.Sample::latencyNs).containsExactlyElementsOf(top);
        });
  }

  @Test
  void withDistinctLatenciesTheWorstKeepTheirOwnInstantAndCycle() {
    qt().withFixedSeed(22)
        .withExamples(200)
        .forAll(lists().of(integers().between(0, 1_000_000)).ofSizeBetween(17, 200))
        .checkAssert(order -> {
          // latency of sample i: a distinct value, i * 1000 + the drawn part modulo 1000
          LatencyRecorder r = new LatencyRecorder(1_000_000);
          List<long[]> all = new ArrayList<>();
          for (int i = 0; i < order.size(); i++) {
            long ns = (order.get(i) % 1_000) * 1_000_000L + i; // distinct by the low part
            r.record(ns, 5_000L * i, i % 3);
            all.add(new long[] {ns, 5_000L * i, i % 3, i});
          }
          all.sort((a, b) -> Long.compare(b[0], a[0]));
          List<LatencyRecorder.Sample> w = r.worst();
          assertThat(w).hasSize(LatencyRecorder.WORST_KEPT);
          for (int k = 0; k < w.size(); k++) {
            long[] e = all.get(k);
            assertThat(w.get(k)).isEqualTo(new LatencyRecorder.Sample(e[0], e[1], (int) e[2], e[3]));
          }
        });
  }

  /** realfeel.c: bin = (error + 0.05 ms) / 0.1 ms, printed as i/10 "." i%10 with its count. */
  @Test
  void realfeelBinsRoundToTheNearestTenthOfAMillisecond() {
    RealfeelHistogram h = new RealfeelHistogram();
    h.record(-5_000); // a period shorter than ideal: error clamped to 0
    h.record(0);
    h.record(49_999); // (49,999 + 50,000) / 100,000 = 0
    h.record(50_000); // = 1: 0.1 ms
    h.record(1_234_567); // (1,284,567) / 100,000 = 12: 1.2 ms
    h.record(20_000_000_000L); // 20 s: the last bin, 9999.9 ms
    assertThat(h.count(0)).isEqualTo(3);
    assertThat(h.count(1)).isEqualTo(1);
    assertThat(h.count(12)).isEqualTo(1);
    assertThat(h.count(RealfeelHistogram.BINS - 1)).isEqualTo(1);
    assertThat(h.lines()).containsExactly("0.0 3", "0.1 1", "1.2 1", "9999.9 1");
  }

  /**
   * Bin i of n a decade holds [10^(i/n), 10^((i+1)/n)) us; one bin a decade is allowed. The
   * histogram keeps 512 ns steps below 2 ms, so 2 us reads as 1.536 us and 20 us as 19.968 us:
   * one sample in each of the first two decades.
   */
  @Test
  void oneBinADecadeSplitsTheSamplesAtTenMicroseconds() {
    LatencyRecorder r = new LatencyRecorder(1_000_000);
    r.record(2_000, 0, 0);
    r.record(20_000, 1_000, 0);
    assertThat(r.distribution().logBins(1))
        .containsExactly(new LatencyDistribution.Bin(1, 10, 1), new LatencyDistribution.Bin(10, 100, 1));
  }

  @Test
  void aStretchWhoseWorstSampleWasOnTimeToTheNanosecondStillHasItsPoint() {
    LatencyRecorder r = new LatencyRecorder(1_000_000);
    r.record(0, 500_000, 0); // first 1 ms stretch: a zero latency
    r.record(7_000, 2_500_000, 0); // third stretch
    assertThat(r.distribution().timeline())
        .containsExactly(new LatencyDistribution.Point(0, 0), new LatencyDistribution.Point(2_000_000, 7_000));
  }

  @Test
  void aSummaryTakesAnotherDeadlineAndKeepsItsFigures() {
    LatencySummary s = new LatencySummary(10, 1, 2, 3, 4, 5, 6, 70.0, 100);
    assertThat(s.withDeadline(250)).isEqualTo(new LatencySummary(10, 1, 2, 3, 4, 5, 6, 70.0, 250));
  }
}
