package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimulationTests {

  @Test
  void clockAdvancesToEachEventAndThenToTheEndOfTheRun() {
    Simulation sim = new Simulation(1);
    List<Long> seen = new ArrayList<>();
    sim.schedule(new Event("a", seen::add), 300);
    sim.schedule(new Event("b", seen::add), 100);
    sim.runUntil(1_000);
    assertThat(seen).containsExactly(100L, 300L);
    assertThat(sim.now()).isEqualTo(1_000);
  }

  @Test
  void eventsAtTheSameInstantRunInTheOrderScheduled() {
    Simulation sim = new Simulation(1);
    List<String> order = new ArrayList<>();
    for (String n : List.of("first", "second", "third")) {
      sim.schedule(new Event(n, now -> order.add(n)), 50);
    }
    sim.runUntil(50);
    assertThat(order).containsExactly("first", "second", "third");
  }

  @Test
  void anEventScheduledForNowFromAHandlerRunsInTheSameRun() {
    Simulation sim = new Simulation(1);
    List<String> order = new ArrayList<>();
    Event later = new Event("later", now -> order.add("later@" + now));
    sim.schedule(new Event("first", now -> { order.add("first"); sim.schedule(later, now); }), 10);
    sim.runUntil(10);
    assertThat(order).containsExactly("first", "later@10");
  }

  @Test
  void cancelledEventDoesNotFireAndCanBeRearmed() {
    Simulation sim = new Simulation(1);
    List<Long> seen = new ArrayList<>();
    Event e = new Event("e", seen::add);
    sim.schedule(e, 10);
    assertThat(sim.cancel(e)).isTrue();
    assertThat(sim.cancel(e)).isFalse();
    sim.runUntil(20);
    sim.schedule(e, 25);
    sim.runUntil(30);
    assertThat(seen).containsExactly(25L);
  }

  @Test
  void rejectsSchedulingInThePastOrTwice() {
    Simulation sim = new Simulation(1);
    sim.runUntil(100);
    Event e = new Event("e", now -> { });
    assertThatThrownBy(() -> sim.schedule(e, 99))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clock is already at 100");
    assertThatThrownBy(() -> sim.scheduleAfter(e, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative delay");
    sim.schedule(e, 100);
    assertThatThrownBy(() -> sim.schedule(e, 200)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void stopEndsTheRunAfterTheCurrentEvent() {
    Simulation sim = new Simulation(1);
    List<Long> seen = new ArrayList<>();
    sim.schedule(new Event("stop", now -> { seen.add(now); sim.stop(); }), 10);
    sim.schedule(new Event("after", seen::add), 20);
    sim.runUntil(100);
    assertThat(seen).containsExactly(10L);
    assertThat(sim.now()).isEqualTo(10);
  }

  @Test
  void namedStreamsDoNotDependOnWhichOtherStreamsExist() {
    RandomStreams alone = new RandomStreams(7);
    SplittableRandom a1 = alone.stream("disk0.seek");

    RandomStreams crowded = new RandomStreams(7);
    crowded.stream("rtc");
    crowded.stream("task.1.compute");
    SplittableRandom a2 = crowded.stream("disk0.seek");

    for (int i = 0; i < 100; i++) {
      assertThat(a2.nextLong()).isEqualTo(a1.nextLong());
    }
  }

  @Test
  void differentNamesAndSeedsGiveDifferentStreams() {
    assertThat(new RandomStreams(7).stream("a").nextLong())
        .isNotEqualTo(new RandomStreams(7).stream("b").nextLong())
        .isNotEqualTo(new RandomStreams(8).stream("a").nextLong());
  }

  @Test
  void aStreamNameCanBeTakenOnlyOnce() {
    RandomStreams r = new RandomStreams(7);
    r.stream("x");
    assertThatThrownBy(() -> r.stream("x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x' was already taken");
  }

  @Test
  void anIndexedStreamIsTheNamedOneAndMustComeInIncreasingOrder() {
    RandomStreams byIndex = new RandomStreams(7);
    RandomStreams byName = new RandomStreams(7);
    assertThat(byIndex.stream("task", 17).nextLong()).isEqualTo(byName.stream("task.17").nextLong());
    byIndex.stream("task", 18);
    assertThatThrownBy(() -> byIndex.stream("task", 18)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of order");
    assertThatThrownBy(() -> byIndex.stream("task", 3)).isInstanceOf(IllegalArgumentException.class);
    byName.stream("task.20");
    assertThatThrownBy(() -> byName.stream("task", 20)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already taken");
  }
}
