package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerProvider;
import org.junit.jupiter.api.Test;

/** The 2.4.17 rules for counters outside schedule(): epochs, tick, fork, exit, yield, nice. */
class GoodnessSchedulerTests {

  private final StandaloneSchedulerHost h =
      new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);

  private GoodnessScheduler scheduler() {
    return (GoodnessScheduler) h.scheduler();
  }

  private static int counter(Task t) {
    return GoodnessEntity.of(t).counter();
  }

  private void ticks(int n) {
    for (int i = 0; i < n; i++) {
      h.tick();
    }
  }

  @Test
  void isRegisteredAsGoodness() {
    assertThat(SchedulerProvider.create("goodness")).isInstanceOf(GoodnessScheduler.class);
  }

  @Test
  void theTickSpendsTheCounterAndAsksForASwitchAtZero() {
    Task t = h.spawn(TestTasks.other(1), 0);
    assertThat(h.schedule(0)).isSameAs(t);
    assertThat(counter(t)).isEqualTo(10); // DEF_COUNTER: a parentless task is like init
    ticks(9);
    assertThat(counter(t)).isEqualTo(1);
    assertThat(t.needResched()).isFalse();
    h.tick();
    assertThat(counter(t)).isZero();
    assertThat(t.needResched()).isTrue();
  }

  @Test
  void aSleepersCounterGrowsTowardItsCapAcrossEpochs() {
    Task sleeper = h.spawn(TestTasks.other(1), 0);
    h.schedule(0);
    ticks(10);
    assertThat(counter(sleeper)).isZero();
    h.block(0);
    Task hog = h.spawn(TestTasks.other(2), 0);
    assertThat(h.schedule(0)).isSameAs(hog);
    ticks(10);

    int[] expected = {6, 9, 10, 11, 11};
    for (int epoch = 0; epoch < expected.length; epoch++) {
      assertThat(h.schedule(0)).isSameAs(hog);
      assertThat(scheduler().recalculations()).isEqualTo(epoch + 1L);
      assertThat(counter(sleeper)).as("sleeper after epoch %d", epoch + 1)
          .isEqualTo(expected[epoch]);
      assertThat(counter(hog)).isEqualTo(6);
      ticks(6);
    }
  }

  @Test
  void forkSplitsTheCounterRoundingTowardTheChild() {
    Task parent = h.spawn(TestTasks.other(1), 0);
    h.schedule(0);
    ticks(3);
    Task child = h.fork(0, TestTasks.other(2));
    assertThat(counter(child)).isEqualTo(4);
    assertThat(counter(parent)).isEqualTo(3);
    assertThat(parent.needResched()).isFalse();
  }

  @Test
  void forkingWithOneTickLeftGivesItToTheChildAndReschedulesTheParent() {
    Task parent = h.spawn(TestTasks.other(1), 0);
    h.schedule(0);
    ticks(9);
    Task child = h.fork(0, TestTasks.other(2));
    assertThat(counter(child)).isEqualTo(1);
    assertThat(counter(parent)).isZero();
    assertThat(parent.needResched()).isTrue();
  }

  @Test
  void reapingGivesTheChildsCounterBackCappedAtMaxCounter() {
    Task parent = h.spawn(TestTasks.other(1), 0);
    h.schedule(0);
    Task child = h.fork(0, TestTasks.other(2));
    assertThat(h.block(0)).isSameAs(child);
    h.tick();
    h.exit(0);
    assertThat(counter(parent)).isEqualTo(5 + 4);

    Task rich = h.spawn(TestTasks.other(3), 0);
    h.scheduler().reap(rich, parent);
    h.scheduler().reap(rich, parent);
    assertThat(counter(rich)).isEqualTo(GoodnessTunables.MAX_COUNTER(100));
  }

  @Test
  void yieldDoesNothingWhenNoOtherTaskIsRunnable() {
    Task t = h.spawn(TestTasks.other(1), 0);
    h.schedule(0);
    assertThat(h.scheduler().yield(t, 0)).isFalse();
    assertThat(GoodnessEntity.of(t).schedYield()).isFalse();
    assertThat(t.needResched()).isFalse();
  }

  @Test
  void aYielderGoesToTheTailScoresMinusOneAndLosesItsFlagAtTheNextPick() {
    Task a = h.spawn(TestTasks.other(1), 0);
    Task b = h.spawn(TestTasks.other(2), 0);
    assertThat(h.schedule(0)).isSameAs(b);
    assertThat(h.scheduler().yield(b, 0)).isTrue();
    assertThat(b.needResched()).isTrue();
    assertThat(h.scheduler().queuedTasks()).containsExactly(a, b);
    assertThat(scheduler().goodness(b, 0)).isEqualTo(-1);
    assertThat(h.schedule(0)).isSameAs(a);
    assertThat(GoodnessEntity.of(b).schedYield()).isFalse();
  }

  @Test
  void onSmpYieldDoesNotCountTasksRunningOnOtherCpus() {
    StandaloneSchedulerHost smp = new StandaloneSchedulerHost(new GoodnessScheduler(), 2, 100);
    Task a = smp.spawn(TestTasks.other(1), 0);
    Task b = smp.spawn(TestTasks.other(2), 1);
    assertThat(smp.schedule(0)).as("PROC_CHANGE_PENALTY keeps a on its CPU").isSameAs(a);
    assertThat(smp.schedule(1)).isSameAs(b);
    assertThat(smp.scheduler().yield(a, 0)).isFalse();
    smp.spawn(TestTasks.other(3), 0);
    assertThat(smp.scheduler().yield(a, 0)).isTrue();
  }

  @Test
  void setSchedulerMovesTheTaskToTheHeadAndAsksTheCallerToReschedule() {
    Task a = h.spawn(TestTasks.other(1), 0);
    Task b = h.spawn(TestTasks.other(2), 0);
    Task c = h.spawn(TestTasks.other(3), 0);
    assertThat(h.schedule(0)).isSameAs(c);
    assertThat(h.scheduler().queuedTasks()).containsExactly(c, b, a);
    h.scheduler().setScheduler(a, SchedPolicy.RR, 10);
    assertThat(h.scheduler().queuedTasks()).containsExactly(a, c, b);
    assertThat(c.needResched()).isTrue();
    assertThat(h.schedule(0)).isSameAs(a);
  }

  @Test
  void niceActsAtOnceThroughGoodnessAndOnTheSliceAtTheNextEpoch() {
    Task t = h.spawn(TestTasks.other(1), 0);
    h.schedule(0);
    int before = scheduler().goodness(t, 0);
    h.scheduler().setNice(t, 10);
    assertThat(scheduler().goodness(t, 0)).isEqualTo(before - 10);
    ticks(10);
    h.schedule(0);
    assertThat(counter(t)).isEqualTo(GoodnessTunables.NICE_TO_TICKS(10, 100));
  }

  @Test
  void scheduleCostGrowsWithTheRunnableTasksAndIncludesAComingRecalculation() {
    for (int pid = 1; pid <= 10; pid++) {
      h.spawn(TestTasks.other(pid), 0);
    }
    long walk = 10L * GoodnessTunables.SCAN_LOADS_PER_TASK * h.costs().l2HitNs();
    assertThat(h.scheduler().scheduleCostNs(0)).isEqualTo(walk);
    h.spawn(TestTasks.other(11), 0);
    assertThat(h.scheduler().scheduleCostNs(0)).isGreaterThan(walk);

    StandaloneSchedulerHost one = new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);
    Task t = one.spawn(TestTasks.other(1), 0);
    one.schedule(0);
    for (int i = 0; i < 10; i++) {
      one.tick();
    }
    assertThat(counter(t)).isZero();
    long oneWalk = GoodnessTunables.SCAN_LOADS_PER_TASK * one.costs().l2HitNs();
    assertThat(one.scheduler().scheduleCostNs(0))
        .as("under runqueue_lock: walk, then walk again after the recalculation")
        .isEqualTo(oneWalk + oneWalk);
    assertThat(one.scheduler().unlockedScheduleCostNs(0))
        .as("lock dropped, interrupts on: recalculate the one task")
        .isEqualTo(one.costs().memoryNs());
    assertThat(h.scheduler().unlockedScheduleCostNs(0)).as("no recalculation due").isZero();
  }
}
