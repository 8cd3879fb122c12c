package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;

/**
 * What 2.4.17 does with SCHED_FIFO and SCHED_RR: list order decides among equal priorities, and
 * the tick spends every task's counter, real-time ones included.
 */
class GoodnessRealTimeTests {

  private final StandaloneSchedulerHost h =
      new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);

  private void ticks(int n) {
    for (int i = 0; i < n; i++) {
      h.tick();
    }
  }

  private Task rt(int pid, SchedPolicy policy, int prio) {
    return h.spawn(TestTasks.user(pid, "rt" + pid, policy, prio, 0), 0);
  }

  @Test
  void equalPriorityFifoTasksRunTheLastWokenFirst() {
    Task a = rt(1, SchedPolicy.FIFO, 50);
    Task b = rt(2, SchedPolicy.FIFO, 50);
    Task c = rt(3, SchedPolicy.FIFO, 50);
    assertThat(h.schedule(0)).isSameAs(c);
    assertThat(h.block(0)).isSameAs(b);
    assertThat(h.block(0)).isSameAs(a);
  }

  @Test
  void aFifoTaskLosesTheCpuToALaterWokenEqualOneWhenItsCounterRunsOut() {
    Task a = rt(1, SchedPolicy.FIFO, 50);
    assertThat(h.schedule(0)).isSameAs(a);
    Task b = rt(2, SchedPolicy.FIFO, 50);
    assertThat(a.needResched()).as("equal goodness does not preempt").isFalse();
    ticks(10);
    assertThat(a.needResched()).isTrue();
    assertThat(h.schedule(0)).isSameAs(b);
  }

  @Test
  void rrTasksRotateThroughTheTailWithAFullSliceEachTime() {
    Task a = rt(1, SchedPolicy.RR, 10);
    Task b = rt(2, SchedPolicy.RR, 10);
    assertThat(h.schedule(0)).isSameAs(b);
    ticks(10); // DEF_COUNTER, then refills of NICE_TO_TICKS(0) = 6
    assertThat(h.schedule(0)).isSameAs(a);
    assertThat(GoodnessEntity.of(b).counter()).isEqualTo(6);
    assertThat(h.scheduler().queuedTasks()).containsExactly(a, b);
    ticks(10);
    assertThat(h.schedule(0)).isSameAs(b);
    ticks(5);
    assertThat(h.schedule(0)).isSameAs(b);
    h.tick();
    assertThat(h.schedule(0)).isSameAs(a);
  }

  @Test
  void aHigherRtPriorityWinsWhereverItIsOnTheList() {
    Task low = rt(1, SchedPolicy.FIFO, 10);
    Task high = rt(2, SchedPolicy.RR, 20);
    Task other = h.spawn(TestTasks.other(3), 0);
    assertThat(h.scheduler().queuedTasks()).containsExactly(other, high, low);
    assertThat(h.schedule(0)).isSameAs(high);
  }
}
