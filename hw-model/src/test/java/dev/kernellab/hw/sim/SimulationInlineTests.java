package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * When an event may skip the queue: only if, armed now, it would certainly fire next within the
 * current run. That is, its instant is not in the past, is strictly before every armed event
 * (an event armed now for the same instant as an armed one fires after it), is not past the
 * run's end, and no stop was asked. Each window below is worked out from the armed events.
 */
class SimulationInlineTests {

  /** Runs {@code body} inside a handler at {@code at} of {@code runUntil(end)}. */
  private static Simulation inHandler(long at, long end, Consumer<Simulation> arm, Consumer<Simulation> body) {
    Simulation sim = new Simulation(1);
    sim.schedule(new Event("probe", now -> body.accept(sim)), at);
    arm.accept(sim);
    sim.runUntil(end);
    return sim;
  }

  @Test
  void theWindowEndsTheInstantBeforeTheNextArmedEvent() {
    List<Object> seen = new ArrayList<>();
    inHandler(100, 1_000, s -> s.schedule(new Event("later", now -> { }), 500), s -> {
      seen.add(s.nextToFireUntil());
      seen.add(s.nextToFire(99)); // the past
      seen.add(s.nextToFire(100)); // now
      seen.add(s.nextToFire(499));
      seen.add(s.nextToFire(500)); // would fire after "later", armed first for 500
    });
    assertThat(seen).containsExactly(499L, false, true, true, false);
  }

  @Test
  void withNothingArmedTheWindowRunsToTheEndOfTheRun() {
    List<Object> seen = new ArrayList<>();
    inHandler(100, 1_000, s -> { }, s -> {
      seen.add(s.nextToFireUntil());
      seen.add(s.nextToFire(1_000));
      seen.add(s.nextToFire(1_001));
    });
    assertThat(seen).containsExactly(1_000L, true, false);
  }

  @Test
  void aHandlerAtTheLastInstantOfTheRunStillHasThatInstant() {
    List<Object> seen = new ArrayList<>();
    inHandler(1_000, 1_000, s -> { }, s -> {
      seen.add(s.nextToFireUntil());
      seen.add(s.nextToFire(1_000));
    });
    assertThat(seen).containsExactly(1_000L, true);
  }

  @Test
  void thereIsNoWindowOutsideARunAfterAStopOrWithInlineEventsOff() {
    Simulation idle = new Simulation(1);
    assertThat(idle.nextToFireUntil()).isEqualTo(Long.MIN_VALUE);
    assertThat(idle.nextToFire(0)).isFalse();

    List<Object> seen = new ArrayList<>();
    inHandler(100, 1_000, s -> { }, s -> {
      s.stop();
      seen.add(s.nextToFireUntil());
      seen.add(s.nextToFire(100));
    });
    Simulation off = new Simulation(1);
    off.setInlineEvents(false);
    off.schedule(new Event("probe", now -> {
      seen.add(off.nextToFireUntil());
      seen.add(off.nextToFire(now));
    }), 100);
    off.runUntil(1_000);
    assertThat(seen).containsExactly(Long.MIN_VALUE, false, Long.MIN_VALUE, false);
  }

  @Test
  void firingInlineMovesTheClockAndCountsTheEventsItStandsFor() {
    long[] after = new long[3];
    Simulation sim = inHandler(100, 1_000, s -> s.schedule(new Event("later", now -> { }), 500), s -> {
      s.fireInline(300, 4);
      after[0] = s.now();
      after[1] = s.eventsFired();
      after[2] = s.eventsFiredInline();
    });
    // The probe (1, through the queue), then 4 inline; "later" at 500 makes 6 in all.
    assertThat(after).containsExactly(300, 5, 4);
    assertThat(sim.eventsFired()).isEqualTo(6);
    assertThat(sim.eventsFiredInline()).isEqualTo(4);
    assertThat(sim.now()).isEqualTo(1_000);
  }

  @Test
  void anEventThatIsNotNextMayNotFireInline() {
    List<String> errors = new ArrayList<>();
    Simulation sim = inHandler(100, 1_000, s -> s.schedule(new Event("later", now -> { }), 500), s -> {
      assertThatIllegalStateException()
          .isThrownBy(() -> s.fireInline(500))
          .withMessage("an event at 500 ns is not next to fire (clock 100 ns)");
      errors.add("checked");
      s.fireInline(200);
    });
    assertThat(errors).hasSize(1);
    assertThat(sim.eventsFiredInline()).isEqualTo(1);
  }
}
