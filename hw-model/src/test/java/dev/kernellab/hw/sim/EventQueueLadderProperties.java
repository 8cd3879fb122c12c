package dev.kernellab.hw.sim;

import static dev.kernellab.hw.sim.EventQueueProperties.SEED;
import static dev.kernellab.hw.sim.EventQueueProperties.actions;
import static dev.kernellab.hw.sim.EventQueueProperties.runAgainstModel;
import static dev.kernellab.hw.sim.EventQueueProperties.times;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.hw.sim.EventQueueProperties.Action;
import dev.kernellab.hw.sim.EventQueueProperties.Add;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link EventQueueProperties}' model check on many events and long runs, the ones that take
 * the queue through its ladder at random. The slowest test of hw-model (seconds); the mutation
 * profile leaves it out (hw-model/pom.xml says why), the build runs it.
 */
class EventQueueLadderProperties {

  /**
   * Many events, first armed in a burst that puts dozens on one instant, then a long mixed run:
   * large top hand-overs, buckets split rung after rung down to the deepest, and buckets of a
   * single instant that go to the heap whole.
   */
  @Test
  void behavesLikeASortedSetWhenTheLadderSplitsAndHandsOverBuckets() {
    int pool = 400;
    Gen<Long> burstTimes =
        Generate.frequency(Pair.of(3, times()), Pair.of(1, Generate.constant(1_000_000L)));
    Gen<List<Action>> burst =
        lists()
            .of(integers().between(0, pool - 1).zip(burstTimes, (k, t) -> (Action) new Add(k, t)))
            .ofSizeBetween(0, 600);
    Gen<List<Action>> scenario =
        burst.zip(
            lists().of(actions(pool)).ofSizeBetween(0, 2_000),
            (a, b) -> {
              List<Action> all = new ArrayList<>(a);
              all.addAll(b);
              return all;
            });
    qt().withFixedSeed(SEED)
        .withExamples(150)
        .forAll(scenario)
        .checkAssert(actions -> runAgainstModel(pool, actions));
  }
}
