package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The inline window ({@link Simulation#nextToFireUntil()}) against a model that keeps every
 * event's armed time itself: after any mix of arming, cancelling, re-arming and firing, the
 * window ends the instant before the earliest armed event, or at the run's end. The
 * simulation remembers the earliest time between calls, so a cancel or a fire of the earliest
 * event that it failed to notice would show here as a window past an armed event (or short of
 * the true one).
 */
class SimulationWindowModelTests {

  private static final long END = 1_000_000;
  private static final int EVENTS = 12;

  @Test
  void theWindowFollowsTheEarliestArmedEventThroughEveryChange() {
    for (long seed = 1; seed <= 40; seed++) {
      runOne(seed);
    }
  }

  private static void runOne(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Simulation sim = new Simulation(seed);
    long[] armedAt = new long[EVENTS]; // the model: -1 when not armed
    List<Event> events = new ArrayList<>();
    int[] checked = new int[1];
    for (int i = 0; i < EVENTS; i++) {
      int id = i;
      armedAt[i] = -1;
      events.add(new Event("e" + i, now -> {
        armedAt[id] = -1;
        if (r.nextInt(10) != 0) { // keeps the run going until its end, mostly
          long again = now + r.nextLong(0, 5_000);
          sim.schedule(events.get(id), again);
          armedAt[id] = again;
        }
        // Several changes, each followed by a look at the window.
        for (int step = 0; step < 4; step++) {
          int j = r.nextInt(EVENTS);
          switch (r.nextInt(5)) {
            case 0, 1, 2 -> {
              long at = now + r.nextLong(0, 2_000);
              if (armedAt[j] >= 0) {
                sim.reschedule(events.get(j), at);
              } else {
                sim.schedule(events.get(j), at);
              }
              armedAt[j] = at;
            }
            case 3 -> {
              boolean was = sim.cancel(events.get(j));
              assertThat(was).isEqualTo(armedAt[j] >= 0);
              armedAt[j] = -1;
            }
            default -> { }
          }
          assertThat(sim.nextToFireUntil())
              .as("seed %d at %d ns after changing e%d", seed, now, j)
              .isEqualTo(expectedWindow(armedAt));
          checked[0]++;
        }
      }));
    }
    for (int i = 0; i < EVENTS; i++) {
      long at = r.nextLong(0, 1_000);
      sim.schedule(events.get(i), at);
      armedAt[i] = at;
    }
    sim.runUntil(END);
    assertThat(checked[0]).as("checks of seed %d", seed).isGreaterThan(1_000);
  }

  private static long expectedWindow(long[] armedAt) {
    long earliest = Long.MAX_VALUE;
    for (long t : armedAt) {
      if (t >= 0) {
        earliest = Math.min(earliest, t);
      }
    }
    return earliest == Long.MAX_VALUE ? END : Math.min(END, earliest - 1);
  }
}
