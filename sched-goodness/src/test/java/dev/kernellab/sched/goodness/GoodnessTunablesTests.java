package dev.kernellab.sched.goodness;

import static dev.kernellab.sched.goodness.GoodnessTunables.DEF_COUNTER;
import static dev.kernellab.sched.goodness.GoodnessTunables.MAX_COUNTER;
import static dev.kernellab.sched.goodness.GoodnessTunables.NICE_TO_TICKS;
import static dev.kernellab.sched.goodness.GoodnessTunables.TICK_SCALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The 2.4.17 tuning knobs (kernel/sched.c NICE_TO_TICKS, include/linux/sched.h DEF_COUNTER and
 * MAX_COUNTER), against values worked out by hand from those macros.
 */
class GoodnessTunablesTests {

  @ParameterizedTest(name = "nice {0} -> {1} ticks")
  @CsvSource({"-20, 11", "-10, 8", "-5, 7", "0, 6", "5, 4", "10, 3", "19, 1"})
  void niceToTicksAtHz100MatchesTheKernelTable(int nice, int ticks) {
    assertThat(NICE_TO_TICKS(nice, 100)).isEqualTo(ticks);
  }

  @ParameterizedTest(name = "HZ={0}: nice 0 -> {1} ticks")
  @CsvSource({"100, 6", "199, 6", "200, 11", "399, 11", "400, 21", "800, 41", "1000, 41",
      "1600, 81", "2000, 81"})
  void tickScaleKeepsANiceZeroSliceWithinTwentyFiveToSixtyMillisecondsAtAnyHz(int hz, int ticks) {
    assertThat(NICE_TO_TICKS(0, hz)).isEqualTo(ticks);
    assertThat(NICE_TO_TICKS(0, hz) * 1000L / hz).isBetween(25L, 60L);
  }

  @Test
  void defAndMaxCounterScaleWithHz() {
    assertThat(DEF_COUNTER(100)).isEqualTo(10);
    assertThat(MAX_COUNTER(100)).isEqualTo(20);
    assertThat(DEF_COUNTER(1000)).isEqualTo(100);
    assertThat(MAX_COUNTER(1000)).isEqualTo(200);
  }

  @Test
  void counterBoundIsTheLargerOfMaxCounterAndTwoSlices() {
    assertThat(GoodnessTunables.counterBound(0, 100)).isEqualTo(20);
    assertThat(GoodnessTunables.counterBound(-20, 100)).isEqualTo(22);
    assertThat(GoodnessTunables.counterBound(19, 100)).isEqualTo(20);
  }

  @Test
  void rejectsANonPositiveHz() {
    assertThatThrownBy(() -> NICE_TO_TICKS(0, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
