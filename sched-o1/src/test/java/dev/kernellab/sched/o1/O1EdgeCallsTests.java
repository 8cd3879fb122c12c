package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Task;
import org.junit.jupiter.api.Test;

/** Calls at the edges of the scheduler's life: boot, exit, yield of what is not queued. */
class O1EdgeCallsTests {

  /**
   * 2.5.5 kernel/sched.c init_idle: a task made a CPU's idle task leaves the runqueue it was
   * queued on, takes prio MAX_PRIO, and becomes that CPU's curr and idle with need_resched set.
   */
  @Test
  void aQueuedTaskMadeIdleLeavesItsRunqueue() {
    O1Fixture f = new O1Fixture(2);
    f.hog(0);
    Task t = f.hog(0);
    assertThat(f.s.nrRunning(0)).isEqualTo(2);
    f.s.initIdle(t, 1);
    assertThat(f.s.nrRunning(0)).isEqualTo(1);
    assertThat(e(t).array).isNull();
    assertThat(e(t).prio).isEqualTo(O1Tunables.MAX_PRIO);
    assertThat(t.cpu()).isEqualTo(1);
    assertThat(f.rq(1).idle).isSameAs(t);
    assertThat(f.rq(1).curr).isSameAs(t);
    assertThat(t.needResched()).isTrue();
  }

  /** try_to_wake_up only requeues what can run: never an exited task, never an idle task. */
  @Test
  void anExitedTaskOrAnIdleTaskIsNeverWoken() {
    O1Fixture f = new O1Fixture(1);
    Task t = f.hog(0);
    f.hog(0);
    f.h.schedule(0);
    assertThat(f.h.current(0)).isSameAs(t);
    f.h.exit(0);
    int queued = f.s.nrRunning(0);
    assertThat(f.h.wake(t, 0)).isFalse();
    assertThat(f.h.wake(f.h.idle(0), 0)).isFalse();
    assertThat(f.s.nrRunning(0)).isEqualTo(queued);
    f.s.checkInvariants();
  }

  /** 2.5.5 kernel/sched.c sys_sched_yield ends in schedule() whatever it found to requeue. */
  @Test
  void yieldAlwaysEndsInSchedule() {
    O1Fixture f = new O1Fixture(1);
    f.hog(0);
    assertThat(f.s.yield(f.h.idle(0), 0)).as("the idle task").isTrue();
    Task t = f.h.schedule(0);
    assertThat(f.s.yield(t, 0)).as("a queued task").isTrue();
  }

  /** 2.5.5 switches under rq->lock; finish_arch_switch() unlocks after switch_to. */
  @Test
  void twoFiveFiveSwitchesUnderTheRunqueueLock() {
    assertThat(new O1Scheduler().switchesUnderRunqueueLock()).isTrue();
  }
}
