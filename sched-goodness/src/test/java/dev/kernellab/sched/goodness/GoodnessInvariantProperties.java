package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Invariant 17 of docs/scheduler-invariants.md over random stories (spawn, fork, block, wake,
 * ticks with returns to user mode, schedule, exit, yield, nice, setscheduler, affinity), on 1, 2
 * and 4 CPUs:
 *
 * <ul>
 *   <li>0 &lt;= counter &lt;= max(MAX_COUNTER, 2 * NICE_TO_TICKS(nice)) after every step;
 *   <li>schedule() recalculates exactly when the best runnable candidate's goodness is 0, so
 *       never while one has goodness &gt; 0;
 *   <li>a runnable RT task that may run on the CPU doing schedule() always beats every
 *       SCHED_OTHER task there;
 *   <li>and, as the model check, every pick equals the reference's (first of highest goodness
 *       in list order).
 * </ul>
 *
 * <p>Where it does not hold: the counter bound is per nice, and raising a task's nice does not
 * cut its counter; the story lets such a task keep its old allowance until it has spent down
 * to the new bound. RT dominance is per CPU: an RT task running elsewhere, or not allowed here,
 * is not a candidate. Idle tasks (counter -100) are outside all of it.
 */
class GoodnessInvariantProperties {

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void invariantSeventeenHoldsAfterEveryStep(int cpus) {
    int[] totals = new int[3];
    qt().withFixedSeed(0x2417L + cpus)
        .withExamples(150)
        .withShrinkCycles(300)
        .forAll(lists().of(integers().between(0, Story.Kind.values().length * 200 - 1))
            .ofSizeBetween(1, 150))
        .checkAssert(codes -> {
          Story story = new Story(cpus);
          story.run(codes.stream().map(Story.Action::decode).toList());
          totals[0] += story.scheduler.picks;
          totals[1] += story.scheduler.recalculationsSeen;
          totals[2] += story.scheduler.rtPicksChecked;
        });
    assertThat(totals[0]).as("picks checked").isGreaterThan(1000);
    assertThat(totals[1]).as("recalculations seen").isGreaterThan(20);
    assertThat(totals[2]).as("picks with a runnable RT task").isGreaterThan(100);
  }
}
