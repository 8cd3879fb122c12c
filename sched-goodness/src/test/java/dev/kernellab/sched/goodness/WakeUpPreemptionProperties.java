package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import org.junit.jupiter.api.Test;

/**
 * The 2.4 wake-up preemption rule on UP (2.4.17 kernel/sched.c reschedule_idle(), UP branch;
 * docs/hardware-and-costs.md, PIT and the tick): after a wake-up
 * (try_to_wake_up, or a new task's first wake-up) the current task has need_resched set iff
 * goodness(woken) - goodness(current) &gt; 0, or it was set already. Over random stories.
 *
 * <p>Where it does not hold: on SMP reschedule_idle() may pick another CPU or none, and a
 * synchronous wake-up on an allowed CPU asks nobody (both tested in RescheduleIdleTests).
 */
class WakeUpPreemptionProperties {

  @Test
  void aWakeUpPreemptsTheCurrentTaskExactlyWhenItsGoodnessIsHigher() {
    int[] totals = new int[2];
    qt().withFixedSeed(0x0105L)
        .withExamples(200)
        .withShrinkCycles(300)
        .forAll(lists().of(integers().between(0, Story.Kind.values().length * 200 - 1))
            .ofSizeBetween(1, 120))
        .checkAssert(codes -> {
          Story story = new Story(1);
          story.run(codes.stream().map(Story.Action::decode).toList());
          totals[0] += story.scheduler.wakeUpsChecked;
          totals[1] += story.scheduler.wakeUpsThatPreempted;
        });
    assertThat(totals[0]).as("wake-ups checked").isGreaterThan(1000);
    assertThat(totals[1]).as("of which preempted").isBetween(100, totals[0] - 100);
  }
}
