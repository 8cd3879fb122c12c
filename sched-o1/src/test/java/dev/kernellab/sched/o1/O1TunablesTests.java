package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Tunables.niceToPrio;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The constants of 2.5.5 kernel/sched.c and the tables they imply, reproduced from the formulas:
 * TASK_TIMESLICE by nice ("Section22" in a method name) and TASK_INTERACTIVE's DELTA with the
 * least sleep_avg that qualifies ("Section24"), worked out by hand from those macros.
 */
class O1TunablesTests {

  private static final List<Integer> NICES = List.of(-20, -15, -10, -5, 0, 5, 10, 15, 19);

  @Test
  void constantsInTicksAtHz100AndHz1000() {
    O1Tunables t100 = O1Tunables.forHz(100);
    assertThat(List.of(t100.minTimesliceTicks(), t100.maxTimesliceTicks(),
            t100.maxSleepAvgTicks(), t100.starvationLimitTicks(), t100.busyRebalanceTicks(),
            t100.idleRebalanceTicks(), t100.cacheDecayTicks()))
        .containsExactly(1, 30, 200, 200, 25, 1, 0);
    O1Tunables t1000 = O1Tunables.forHz(1000);
    assertThat(List.of(t1000.minTimesliceTicks(), t1000.maxTimesliceTicks(),
            t1000.maxSleepAvgTicks(), t1000.starvationLimitTicks(), t1000.busyRebalanceTicks(),
            t1000.idleRebalanceTicks()))
        .containsExactly(10, 300, 2000, 2000, 250, 1);
    assertThat(O1Tunables.BITMAP_WORDS).isEqualTo(3);
  }

  @Test
  void timesliceByNiceMatchesTheTableOfSection22() {
    assertThat(NICES.stream().map(n -> O1Tunables.forHz(100).taskTimeslice(niceToPrio(n))))
        .containsExactly(30, 26, 22, 18, 15, 11, 7, 3, 1);
    assertThat(NICES.stream().map(n -> O1Tunables.forHz(1000).taskTimeslice(niceToPrio(n))))
        .containsExactly(300, 262, 225, 188, 151, 114, 76, 39, 10);
  }

  @Test
  void deltaAndMinimumSleepAvgByNiceMatchTheTableOfSection24() {
    int[] nices = {-20, -19, -16, -15, -12, -11, -8, -7, -4, -3, 3, 4, 7, 8, 11, 12, 15, 16, 19};
    int[] deltas = {-3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6};
    int[] minSleepAvg = {40, 60, 60, 80, 80, 100, 100, 120, 120, 140, 140, 160, 160, 180, 180,
        200, 200, -1, -1};
    O1Tunables t = O1Tunables.forHz(100);
    for (int i = 0; i < nices.length; i++) {
      int sp = niceToPrio(nices[i]);
      assertThat(O1Tunables.delta(sp)).as("DELTA at nice %d", nices[i]).isEqualTo(deltas[i]);
      int first = IntStream.rangeClosed(0, 200)
          .filter(sa -> O1Tunables.taskInteractive(t.effectivePrio(sp, sa), sp))
          .findFirst().orElse(-1);
      assertThat(first).as("min sleep_avg at nice %d", nices[i]).isEqualTo(minSleepAvg[i]);
    }
  }

  @Test
  void bonusSpansMinusFiveToPlusFiveAndNeedsAFullSleepAvgForPlusFive() {
    O1Tunables t = O1Tunables.forHz(100);
    assertThat(t.bonus(0)).isEqualTo(-5);
    assertThat(t.bonus(19)).isEqualTo(-5);
    assertThat(t.bonus(20)).isEqualTo(-4);
    assertThat(t.bonus(199)).isEqualTo(4);
    assertThat(t.bonus(200)).isEqualTo(5);
    assertThat(t.effectivePrio(niceToPrio(-20), 200)).isEqualTo(100);
    assertThat(t.effectivePrio(niceToPrio(19), 0)).isEqualTo(139);
  }

  @Test
  void prioMappings() {
    assertThat(niceToPrio(-20)).isEqualTo(100);
    assertThat(niceToPrio(19)).isEqualTo(139);
    assertThat(O1Tunables.prioToNice(120)).isZero();
    assertThat(O1Tunables.rtPrio(99)).isZero();
    assertThat(O1Tunables.rtPrio(1)).isEqualTo(98);
  }

  /** Below HZ 100 MIN_TIMESLICE rounds to no tick: the message says what HZ the scheduler needs. */
  @org.junit.jupiter.api.Test
  void aTooLowHzSaysTheHzTheSchedulerNeeds() {
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> O1Tunables.forHz(50))
        .withMessage("the O(1) scheduler needs HZ of 100 or more (MIN_TIMESLICE, 10 ms, is at least one tick), got 50");
  }
}
