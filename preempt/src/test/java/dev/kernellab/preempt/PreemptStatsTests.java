package dev.kernellab.preempt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of /proc/latencytimes (preempt-stats-rml-2.4.17-2): the tracer is fed the
 * preempt-off/on events a kernel would send, and the expected table is written out by hand.
 */
class PreemptStatsTests {

  private static final long MS = 1_000_000;
  private static final KernelPath LOCK = KernelPath.path("fs/dcache.c", "prune_dcache").compute(1).build();
  private static final KernelPath UNLOCK = KernelPath.path("fs/dcache.c", "d_prune").compute(1).build();
  private static final KernelPath OTHER = KernelPath.path("mm/vmscan.c", "swap_out_pmd").compute(1).build();

  private static void interval(PreemptStats stats, int cpu, long offAt, long onAt, KernelPath off, KernelPath on) {
    stats.preemptOff(offAt, cpu, off);
    stats.preemptOn(onAt, cpu, on, onAt - offAt);
  }

  @Test
  void anIntervalRecordsWhenItStartedAndThePathsThatOpenedAndClosedIt() {
    PreemptStats stats = new PreemptStats();
    interval(stats, 1, 7 * MS, 10 * MS, LOCK, UNLOCK);
    assertThat(stats.worst())
        .containsExactly(new PreemptStats.Interval(3 * MS, 7 * MS, 1, LOCK, UNLOCK));
    assertThat(stats.intervals()).isEqualTo(1);
  }

  @Test
  void eachCpuRemembersItsOwnOpeningPath() {
    PreemptStats stats = new PreemptStats();
    stats.preemptOff(0, 0, LOCK);
    stats.preemptOff(MS, 1, OTHER);
    stats.preemptOn(2 * MS, 0, UNLOCK, 2 * MS);
    stats.preemptOn(4 * MS, 1, UNLOCK, 3 * MS);
    assertThat(stats.worst())
        .containsExactly(
            new PreemptStats.Interval(3 * MS, MS, 1, OTHER, UNLOCK),
            new PreemptStats.Interval(2 * MS, 0, 0, LOCK, UNLOCK));
  }

  @Test
  void keepsTheTwentyLongestLongestFirstAndCountsEveryInterval() {
    PreemptStats stats = new PreemptStats();
    // lengths 1..30 us in a scrambled order: 7 * i mod 31 visits every residue once
    for (int i = 1; i <= 30; i++) {
      long us = (7L * i) % 31;
      interval(stats, 0, i * MS, i * MS + us * 1_000, LOCK, UNLOCK);
    }
    assertThat(stats.intervals()).isEqualTo(30);
    assertThat(stats.worst()).hasSize(PreemptStats.KEPT);
    assertThat(stats.worst().stream().map(PreemptStats.Interval::lengthNs))
        .containsExactly(
            30_000L, 29_000L, 28_000L, 27_000L, 26_000L, 25_000L, 24_000L, 23_000L, 22_000L, 21_000L,
            20_000L, 19_000L, 18_000L, 17_000L, 16_000L, 15_000L, 14_000L, 13_000L, 12_000L, 11_000L);
  }

  @Test
  void onEqualLengthsTheEarlierIntervalRanksFirstAndStaysWhenTheTableIsFull() {
    PreemptStats stats = new PreemptStats();
    interval(stats, 0, 0, MS, LOCK, UNLOCK);
    interval(stats, 0, 5 * MS, 6 * MS, OTHER, UNLOCK);
    assertThat(stats.worst().stream().map(PreemptStats.Interval::disabledBy))
        .as("ties keep arrival order")
        .containsExactly(LOCK, OTHER);

    for (int i = 0; i < PreemptStats.KEPT - 2; i++) {
      interval(stats, 0, 10 * MS + i * 10L * MS, 10 * MS + i * 10L * MS + 2 * MS, LOCK, UNLOCK);
    }
    assertThat(stats.worst()).hasSize(PreemptStats.KEPT);
    // the table is full and its shortest entries are the two 1 ms ones: another 1 ms interval
    // is not kept, a 1.5 ms one evicts the later of the two
    interval(stats, 0, 500 * MS, 501 * MS, UNLOCK, UNLOCK);
    List<PreemptStats.Interval> full = stats.worst();
    assertThat(full.get(PreemptStats.KEPT - 1).disabledBy()).isEqualTo(OTHER);
    assertThat(full).noneMatch(i -> i.disabledBy().equals(UNLOCK));

    interval(stats, 0, 600 * MS, 600 * MS + 3 * MS / 2, UNLOCK, UNLOCK);
    assertThat(stats.worst()).hasSize(PreemptStats.KEPT);
    assertThat(stats.worst().get(PreemptStats.KEPT - 2).lengthNs()).isEqualTo(3 * MS / 2);
    assertThat(stats.worst().get(PreemptStats.KEPT - 1))
        .isEqualTo(new PreemptStats.Interval(MS, 0, 0, LOCK, UNLOCK));
    assertThat(stats.intervals()).isEqualTo(PreemptStats.KEPT + 2);
  }

  @Test
  void resetForgetsTheTableAndTheCount() {
    PreemptStats stats = new PreemptStats();
    interval(stats, 0, 0, MS, LOCK, UNLOCK);
    stats.reset();
    assertThat(stats.worst()).isEmpty();
    assertThat(stats.intervals()).isZero();
  }

  @Test
  void anIntervalPrintsItsLengthAndStartInMilliseconds() {
    PreemptStats.Interval i = new PreemptStats.Interval(2_500_000, 12_250_000, 1, LOCK, UNLOCK);
    assertThat(i.toString())
        .isEqualTo("    2.500 ms  cpu1  off at " + LOCK + ", on at " + UNLOCK + " (t=12.250 ms)");
  }

  @Test
  void thePatchAndItsModelNameThemselvesAsTheKernelDid() {
    assertThat(new PreemptKernelPatch().name()).isEqualTo("preempt");
    assertThat(new PreemptKernelModel()).hasToString("CONFIG_PREEMPT");
    assertThat(new PreemptPatchProvider().description()).contains("preempt-kernel");
  }
}
