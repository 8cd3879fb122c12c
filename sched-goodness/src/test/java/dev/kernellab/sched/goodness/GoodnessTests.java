package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;

/** Every term of goodness() (2.4.17 kernel/sched.c), one at a time. */
class GoodnessTests {

  private static Task task(StandaloneSchedulerHost h, int pid, SchedPolicy policy, int rt, int nice,
      int counter) {
    Task t = h.spawn(TestTasks.user(pid, "t" + pid, policy, rt, nice), 0);
    GoodnessEntity.of(t).counter = counter;
    return t;
  }

  @Test
  void schedOtherIsCounterPlusTwentyMinusNice() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);
    Task t = task(h, 1, SchedPolicy.OTHER, 0, 5, 4);
    assertThat(Goodness.goodness(t, 0, null, false)).isEqualTo(4 + 20 - 5);
  }

  @Test
  void anExhaustedSchedOtherTaskScoresZeroWhateverElseItHas() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 2, 100);
    Task t = task(h, 1, SchedPolicy.OTHER, 0, -20, 0);
    assertThat(Goodness.goodness(t, 0, t.mm(), true)).isZero();
  }

  @Test
  void theSameMmEarnsOnePoint() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);
    Task t = task(h, 1, SchedPolicy.OTHER, 0, 0, 3);
    Task other = task(h, 2, SchedPolicy.OTHER, 0, 0, 3);
    assertThat(Goodness.goodness(t, 0, t.mm(), false)).isEqualTo(24);
    assertThat(Goodness.goodness(t, 0, other.mm(), false)).isEqualTo(23);
  }

  @Test
  void onSmpTheLastCpuEarnsProcChangePenalty() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 2, 100);
    Task t = task(h, 1, SchedPolicy.OTHER, 0, 0, 3);
    assertThat(t.cpu()).isZero();
    assertThat(Goodness.goodness(t, 0, null, true)).isEqualTo(23 + 15);
    assertThat(Goodness.goodness(t, 1, null, true)).isEqualTo(23);
    assertThat(Goodness.goodness(t, 0, null, false)).as("UP kernel").isEqualTo(23);
  }

  @Test
  void realTimeIsThousandPlusRtPriorityWhateverTheCounter() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);
    Task fifo = task(h, 1, SchedPolicy.FIFO, 1, 0, 0);
    Task rr = task(h, 2, SchedPolicy.RR, 99, 19, 7);
    assertThat(Goodness.goodness(fifo, 0, null, false)).isEqualTo(1001);
    assertThat(Goodness.goodness(rr, 0, null, false)).isEqualTo(1099);
  }

  @Test
  void aYielderScoresMinusOne() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);
    Task t = task(h, 1, SchedPolicy.OTHER, 0, 0, 6);
    GoodnessEntity.of(t).schedYield = true;
    assertThat(Goodness.goodness(t, 0, t.mm(), false)).isEqualTo(-1);
  }

  @Test
  void theIdleTaskHasNoMmAndScoresWithCpuIdlesCounterAndNice() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 2, 100);
    // counter -100, +1 for having no mm (kernel threads borrow any mm), 20 - nice 20.
    assertThat(Goodness.goodness(h.idle(1), 0, null, false)).isEqualTo(-99);
    assertThat(Goodness.goodness(h.idle(1), 1, null, true)).isEqualTo(-99 + 15);
  }

  @Test
  void preemptionGoodnessIsTheDifferenceAgainstTheCurrentsMm() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new GoodnessScheduler(), 1, 100);
    Task cur = task(h, 1, SchedPolicy.OTHER, 0, 0, 5);
    Task p = task(h, 2, SchedPolicy.OTHER, 0, 0, 5);
    assertThat(Goodness.preemptionGoodness(cur, p, 0, cur.mm(), false)).isEqualTo(-1);
    assertThat(Goodness.preemptionGoodness(h.idle(0), p, 0, cur.mm(), false)).isEqualTo(25 + 99);
  }
}
