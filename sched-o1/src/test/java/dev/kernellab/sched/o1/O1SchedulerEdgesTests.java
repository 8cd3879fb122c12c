package dev.kernellab.sched.o1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.Task;
import org.junit.jupiter.api.Test;

/**
 * The edges of the O(1) scheduler's data and knobs: the tick counts of 2.5.5 kernel/sched.c's
 * tuning knobs at several HZ, what a set of tunables may be, the CPU counts a 64-bit
 * cpus_allowed can name, the priority array's own consistency check of its lists, and what a task's
 * scheduler fields read back.
 */
class O1SchedulerEdgesTests {

  @Test
  void theKnobsInTicksAtHz100And1000And2000() {
    O1Tunables t100 = O1Tunables.forHz(100);
    assertThat(t100.minTimesliceTicks()).isEqualTo(1);
    assertThat(t100.maxTimesliceTicks()).isEqualTo(30);
    assertThat(t100.maxSleepAvgTicks()).isEqualTo(200);
    assertThat(t100.starvationLimitTicks()).isEqualTo(200);
    assertThat(t100.busyRebalanceTicks()).isEqualTo(25);
    assertThat(t100.idleRebalanceTicks()).as("1 ms rounds to 0, at least one tick").isEqualTo(1);
    O1Tunables t1000 = O1Tunables.forHz(1000);
    assertThat(t1000.minTimesliceTicks()).isEqualTo(10);
    assertThat(t1000.maxTimesliceTicks()).isEqualTo(300);
    assertThat(t1000.busyRebalanceTicks()).isEqualTo(250);
    assertThat(t1000.idleRebalanceTicks()).isEqualTo(1);
    assertThat(O1Tunables.forHz(2000).idleRebalanceTicks()).isEqualTo(2);
  }

  @Test
  void tunablesAtTheirSmallestAreValidAndOneBelowIsNot() {
    new O1Tunables(1, 1, 1, 1, 1, 1, 1, 0);
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(0, 1, 1, 1, 1, 1, 1, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 0, 1, 1, 1, 1, 1, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 2, 1, 1, 1, 1, 1, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 1, 1, 0, 1, 1, 1, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 1, 1, 1, 0, 1, 1, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 1, 1, 1, 1, 0, 1, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 1, 1, 1, 1, 1, 0, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> new O1Tunables(1, 1, 1, 1, 1, 1, 1, -1));
  }

  @Test
  void oneToSixtyFourCpusOneBitEachOfCpusAllowed() {
    O1Scheduler s = new O1Scheduler();
    assertThat(s.supportsCpuCount(1)).isTrue();
    assertThat(s.supportsCpuCount(64)).isTrue();
    assertThat(s.supportsCpuCount(0)).isFalse();
    assertThat(s.supportsCpuCount(65)).isFalse();
    assertThat(s.name()).isEqualTo("o1");
    assertThat(new O1SchedulerProvider().description()).contains("O(1)");
  }

  @Test
  void aTasksSchedulerFieldsReadBack() {
    O1Fixture f = new O1Fixture(1);
    Task t = f.task(0, 5);
    O1Entity e = O1Fixture.e(t);
    assertThat(e.staticPrio()).isEqualTo(125);
    assertThat(e.prio()).isEqualTo(e.prio).isBetween(120, 130);
    assertThat(e.sleepAvg()).isEqualTo(e.sleepAvg);
    assertThat(e.timeSlice()).isEqualTo(e.timeSlice).isPositive();
    assertThat(e.sleepTimestamp()).isEqualTo(e.sleepTimestamp);
    assertThat(e.isQueued()).isTrue();
    assertThat(e.toString()).isEqualTo(t + "{prio=" + e.prio + " static=125 sleep_avg=" + e.sleepAvg
        + " slice=" + e.timeSlice + "}");
    f.h.schedule(0);
    f.h.block(0);
    assertThat(e.isQueued()).isFalse();
  }

  @Test
  void thePriorityArrayCheckFindsABrokenQueue() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.hog(0);
    Task b = f.hog(0);
    PrioArray arr = f.rq(0).active;
    O1Entity ea = O1Fixture.e(a);
    O1Entity eb = O1Fixture.e(b);
    assertThat(arr.check("active")).isEqualTo(2);
    eb.prev = null;
    assertThatIllegalStateException().isThrownBy(() -> arr.check("active")).withMessageContaining("misplaced in queue 120");
    eb.prev = ea;
    eb.array = f.rq(0).expired;
    assertThatIllegalStateException().isThrownBy(() -> arr.check("active")).withMessageContaining("misplaced");
    eb.array = arr;
    ea.next = null; // the walk stops at a, the tail is b
    assertThatIllegalStateException().isThrownBy(() -> arr.check("active")).withMessageContaining("tail is not its last node");
    ea.next = eb;
    assertThat(arr.check("active")).isEqualTo(2);
  }
}
