package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.workloads.LatencyDistribution;
import dev.kernellab.workloads.LatencyRecorder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The histogram file in cyclictest's {@code -h} layout (rt-tests, src/cyclictest/cyclictest.c,
 * print_hist()) for columns whose figures are worked out by hand. The samples are multiples of
 * 512 ns, the histogram's resolution below 1 ms (workloads' LatencyDistribution), so that each
 * lands in the microsecond bucket its value is in.
 */
class CyclictestHistogramTests {

  private static LatencyDistribution column(long... latenciesNs) {
    LatencyRecorder r = new LatencyRecorder(100_000);
    for (int i = 0; i < latenciesNs.length; i++) {
      r.record(latenciesNs[i], 1_000_000L * (i + 1), 0);
    }
    return r.distribution();
  }

  @Test
  void bucketsTotalsFiguresAndOverflowsPerColumn() {
    LatencyDistribution a = column(1_024, 5_120, 2_048, 2_560);
    LatencyDistribution b = column(3_072, 9_216, 7_168);
    String text = CyclictestHistogram.format(List.of(a, b), 4);
    assertThat(text).isEqualTo("""
        # Histogram
        000000 000000\t000000
        000001 000001\t000000
        000002 000002\t000000
        000003 000000\t000001
        # Total: 000000003 000000001
        # Min Latencies: 00001 00003
        # Avg Latencies: 00002 00006
        # Max Latencies: 00005 00009
        # Histogram Overflows: 00001 00002
        # Histogram Overflow at cycle number:
        # Thread 0: 00001
        # Thread 1: 00001 00002
        """);
  }

  @Test
  void aSampleIsAnOverflowInTheCountsAndTheCycleListAlikeOrInNeither() {
    // 10.2 us is 9.728 us to the histogram (512 ns steps): bucket 9 of 10, and so no overflow;
    // 10.752 us (cycle 1) is one in both
    String text = CyclictestHistogram.format(List.of(column(10_200, 10_752)), 10);
    assertThat(text).contains("000009 000001\n", "# Histogram Overflows: 00001\n", "# Thread 0: 00001\n");
  }

  @Test
  void overflowsBeyondTheWorstKeptAreCountedAsOthers() {
    long[] twenty = new long[LatencyRecorder.WORST_KEPT + 4];
    java.util.Arrays.fill(twenty, 10_240);
    String text = CyclictestHistogram.format(List.of(column(twenty)), 10);
    assertThat(text).contains("# Total: 000000000\n", "# Histogram Overflows: 00020\n");
    String thread = text.lines().filter(l -> l.startsWith("# Thread 0:")).findFirst().orElseThrow();
    assertThat(thread).matches("# Thread 0:( \\d{5}){16} # 00004 others");
  }

  @Test
  void autoBucketsCoverTheWorstSampleToTheNextWholeMillisecond() {
    assertThat(CyclictestHistogram.autoBuckets(List.of(column(1_200), column(9_200)))).isEqualTo(1_000);
    assertThat(CyclictestHistogram.autoBuckets(List.of(column(999_999)))).isEqualTo(1_000);
    assertThat(CyclictestHistogram.autoBuckets(List.of(column(1_200), column(1_000_000)))).isEqualTo(2_000);
    assertThat(CyclictestHistogram.autoBuckets(List.of(column(150_000_000L))))
        .isEqualTo(CyclictestHistogram.MAX_AUTO_BUCKETS);
  }
}
