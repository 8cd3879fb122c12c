package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;

/** Where reschedule_idle() sends a runnable task on SMP (2.4.17 kernel/sched.c). */
class RescheduleIdleTests {

  private static StandaloneSchedulerHost boot(int cpus) {
    return new StandaloneSchedulerHost(new GoodnessScheduler(), cpus, 100);
  }

  private static Task pinned(StandaloneSchedulerHost h, Task t, int cpu) {
    h.setCpusAllowed(t, 1L << cpu);
    return t;
  }

  private static Task niced(int pid, int nice) {
    return TestTasks.user(pid, "n" + nice, SchedPolicy.OTHER, 0, nice);
  }

  @Test
  void aWokenTaskGoesBackToItsLastCpuIfThatCpuIsIdle() {
    StandaloneSchedulerHost h = boot(2);
    Task p = h.spawn(TestTasks.other(1), 1);
    assertThat(h.schedule(1)).isSameAs(p);
    h.tick();
    h.block(1);
    h.clearIpis();

    h.wake(p, 0);

    assertThat(h.ipis()).as("cpu0 has been idle longer, but p's cache is on cpu1")
        .containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
    assertThat(h.idle(1).needResched()).isTrue();
    assertThat(h.idle(0).needResched()).isFalse();
  }

  @Test
  void otherwiseTheCpuIdleLongestWins() {
    StandaloneSchedulerHost h = boot(4);
    h.spawn(pinned(h, TestTasks.other(10), 0), 0);
    Task[] x = new Task[4];
    for (int cpu = 1; cpu < 4; cpu++) {
      x[cpu] = h.spawn(pinned(h, TestTasks.other(cpu), cpu), cpu);
    }
    for (int cpu = 0; cpu < 4; cpu++) {
      h.schedule(cpu);
    }
    for (int cpu : new int[] {2, 3, 1}) {
      h.tick();
      h.block(cpu);
    }
    h.clearIpis();

    h.spawn(TestTasks.other(20), 0);

    assertThat(h.ipis()).as("cpu2 went idle first").containsExactly(new StandaloneSchedulerHost.Ipi(0, 2));
  }

  @Test
  void anIdleCpuIsPreferredToPreemptingAWeakerTask() {
    StandaloneSchedulerHost h = boot(2);
    Task weak = h.spawn(pinned(h, niced(1, 19), 0), 0);
    assertThat(h.schedule(0)).isSameAs(weak);
    h.clearIpis();

    h.spawn(TestTasks.other(2), 0);

    assertThat(weak.needResched()).isFalse();
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
  }

  @Test
  void withNoIdleCpuTheCurrentWithTheLargestPreemptionGoodnessIsPreempted() {
    StandaloneSchedulerHost h = boot(2);
    Task strong = h.spawn(pinned(h, niced(1, -20), 0), 0);
    Task weak = h.spawn(pinned(h, niced(2, 19), 1), 1);
    h.schedule(0);
    h.schedule(1);
    h.clearIpis();

    // On cpu0 p would score 10 + 15 (last CPU) + 20 = 45 against strong's 66; on cpu1 30
    // against weak's 10 + 15 + 1 + 1 = 27.
    h.spawn(TestTasks.other(3), 0);

    assertThat(strong.needResched()).isFalse();
    assertThat(weak.needResched()).isTrue();
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
  }

  /**
   * kernel/sched.c 2.4.17 reschedule_idle, busy path: {@code tsk->need_resched = 1; if
   * (tsk->processor != this_cpu) smp_send_reschedule(...)}: a second wake-up that picks the same
   * busy CPU sends a second IPI although the flag is already set (only the idle path,
   * send_now_idle, looks at the old flag).
   */
  @Test
  void theBusyPathSendsItsIpiEvenWhenTheFlagIsAlreadySet() {
    StandaloneSchedulerHost h = boot(2);
    h.spawn(pinned(h, niced(1, -20), 0), 0);
    Task weak = h.spawn(pinned(h, niced(2, 19), 1), 1);
    h.schedule(0);
    h.schedule(1);
    h.clearIpis();

    h.spawn(TestTasks.other(3), 0);
    h.spawn(TestTasks.other(4), 0);

    assertThat(weak.needResched()).isTrue();
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1), new StandaloneSchedulerHost.Ipi(0, 1));
  }

  @Test
  void nobodyIsDisturbedWhenEveryCurrentIsBetter() {
    StandaloneSchedulerHost h = boot(2);
    Task a = h.spawn(pinned(h, TestTasks.other(1), 0), 0);
    Task b = h.spawn(pinned(h, TestTasks.other(2), 1), 1);
    h.schedule(0);
    h.schedule(1);
    h.clearIpis();

    Task p = h.spawn(niced(3, 19), 0);

    assertThat(a.needResched()).isFalse();
    assertThat(b.needResched()).isFalse();
    assertThat(h.ipis()).isEmpty();
    assertThat(h.scheduler().queuedTasks()).startsWith(p);
  }

  @Test
  void aPreemptedTaskIsPushedToAnIdleCpuAfterTheSwitch() {
    StandaloneSchedulerHost h = boot(2);
    Task a = h.spawn(TestTasks.other(1), 0);
    assertThat(h.schedule(0)).isSameAs(a);
    Task rt = h.spawn(pinned(h, TestTasks.user(2, "rt", SchedPolicy.FIFO, 50, 0), 0), 0);
    assertThat(a.needResched()).isTrue();
    h.clearIpis();

    assertThat(h.schedule(0)).isSameAs(rt);

    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
    assertThat(h.schedule(1)).isSameAs(a);
    h.scheduler().checkInvariants();
  }

  @Test
  void aSyncWakeUpOnAnAllowedCpuLeavesThePreemptionToTheWaker() {
    StandaloneSchedulerHost h = boot(2);
    Task p = h.spawn(TestTasks.other(1), 1);
    h.schedule(1);
    h.block(1);
    h.clearIpis();

    h.setThisCpu(0);
    assertThat(h.scheduler().tryToWakeUp(p, true)).isTrue();

    assertThat(h.ipis()).isEmpty();
    assertThat(h.idle(1).needResched()).isFalse();
  }
}
