package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A stream's seed is SplitMix64's finaliser of (root seed ^ finaliser(FNV-1a-64 of its name)).
 * The oracles are published ones: the FNV-1a-64 test vector of "a" (0xaf63dc4c8601ec8c,
 * Fowler/Noll/Vo's reference table) and the JDK's SplittableRandom, whose nextLong() is that
 * same finaliser (Stafford's variant 13) of the state plus the golden gamma.
 */
class StreamSeedTests {

  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
  private static final long FNV1A_64_OF_A = 0xaf63dc4c8601ec8cL;

  /** SplitMix64's finaliser, read off the JDK. */
  private static long mix64(long z) {
    return new SplittableRandom(z - GOLDEN_GAMMA).nextLong();
  }

  @Test
  void aStreamSeedIsSplitMixOfTheRootXorSplitMixOfTheFnv1aHashOfItsName() {
    for (long root : new long[] {0, 1, 42, -7, Long.MAX_VALUE}) {
      assertThat(RandomStreams.seedFor(root, "a")).as("root %d", root).isEqualTo(mix64(root ^ mix64(FNV1A_64_OF_A)));
    }
  }

  @Test
  void theNamedStreamStartsFromThatSeed() {
    RandomStreams r = new RandomStreams(42);
    long expected = new SplittableRandom(mix64(42 ^ mix64(FNV1A_64_OF_A))).nextLong();
    assertThat(r.stream("a").nextLong()).isEqualTo(expected);
    assertThat(r.rootSeed()).isEqualTo(42);
  }

  @Test
  void anIndexedFamilyMayBeginAtAnyIndexAndOnlyGrow() {
    RandomStreams r = new RandomStreams(1);
    r.stream("task", 5);
    r.stream("task", 6);
    assertThatIllegalArgumentException().isThrownBy(() -> r.stream("task", 6)).withMessageContaining("out of order");
    r.stream("other", 0);
    assertThat(r.stream("task", 100).nextLong()).isEqualTo(new RandomStreams(1).stream("task.100").nextLong());
  }

  @Test
  void theClockRefusesToRunBackwardsAndCountsTheEventsItFired() {
    Simulation sim = new Simulation(1);
    assertThat(sim.step()).as("nothing armed").isFalse();
    Event e = new Event("e", now -> { });
    Event f = new Event("f", now -> { });
    sim.schedule(e, 10);
    sim.scheduleAfter(f, 0);
    assertThat(sim.pendingEvents()).isEqualTo(2);
    sim.runUntil(10);
    assertThat(sim.eventsFired()).isEqualTo(2);
    assertThat(sim.pendingEvents()).isZero();
    assertThat(sim.now()).isEqualTo(10);
    assertThatIllegalArgumentException().isThrownBy(() -> sim.runUntil(9)).withMessageContaining("already at 10");
    sim.runUntil(10);
    assertThat(sim.now()).isEqualTo(10);
    // step() fires exactly the earliest event, moves the clock to it, and says it did.
    Event g = new Event("g", now -> { });
    sim.schedule(f, 40);
    sim.schedule(g, 30);
    assertThat(sim.step()).as("g at 30").isTrue();
    assertThat(sim.now()).isEqualTo(30);
    assertThat(sim.pendingEvents()).isEqualTo(1);
    assertThat(sim.step()).as("f at 40").isTrue();
    assertThat(sim.step()).as("nothing left").isFalse();
    assertThat(sim.eventsFired()).isEqualTo(4);
  }

  @Test
  void rescheduleMovesAnArmedEventAndArmsAnUnarmedOne() {
    Simulation sim = new Simulation(1);
    java.util.List<Long> seen = new java.util.ArrayList<>();
    Event e = new Event("e", seen::add);
    sim.schedule(e, 50);
    sim.reschedule(e, 20);
    sim.runUntil(100);
    Event g = new Event("g", seen::add);
    sim.reschedule(g, 150);
    sim.runUntil(200);
    assertThat(seen).containsExactly(20L, 150L);
    assertThat(sim.eventsFired()).isEqualTo(2);
  }
}
