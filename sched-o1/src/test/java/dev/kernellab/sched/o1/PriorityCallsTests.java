package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;

/** set_user_nice, setscheduler, sched_yield, set_cpus_allowed (2.5.5 kernel/sched.c). */
class PriorityCallsTests {

  @Test
  void setUserNiceQuirkReschedulesOnlyWhenTheTaskIsCurrent() {
    // 2.5.5 as written: the "priority raised" test compares static_prio with itself.
    O1Fixture f = new O1Fixture(1);
    Task running = f.hog(0);
    Task queued = f.hog(0);
    f.h.schedule(0);
    f.s.setNice(queued, -10);
    assertThat(e(queued).prio).isEqualTo(110);
    assertThat(running.needResched()).as("raised above the running task, yet no resched").isFalse();
    f.s.setNice(running, 5);
    assertThat(running.needResched()).isTrue();
  }

  @Test
  void setUserNiceDropsTheBonusAndKeepsTheArray() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.hog(0);
    Task b = f.hog(0);
    f.h.schedule(0);
    f.run(15); // a expires to expired at 125
    f.s.setNice(a, 3);
    assertThat(e(a).array).isSameAs(f.rq(0).expired);
    assertThat(e(a).prio).isEqualTo(123);
    assertThat(e(a).staticPrio).isEqualTo(123);
    assertThat(f.h.current(0)).isSameAs(b);
  }

  @Test
  void setUserNiceOfARealTimeTaskChangesOnlyStaticPrio() {
    O1Fixture f = new O1Fixture(1);
    Task rr = f.rt(0, SchedPolicy.RR, 10);
    f.s.setNice(rr, 19);
    assertThat(e(rr).prio).isEqualTo(89);
    assertThat(e(rr).staticPrio).isEqualTo(139);
    f.h.schedule(0);
    f.run(15);
    assertThat(e(rr).timeSlice).as("RR refill from the new static_prio").isEqualTo(1);
  }

  @Test
  void setschedulerQuirkCreditsSleepThatNeverHappenedAndDoesNotReschedule() {
    O1Fixture f = new O1Fixture(1);
    Task hog = f.hog(0);
    Task waiting = f.hog(0);
    f.h.schedule(0);
    f.h.setJiffies(101); // waiting has been queued, not asleep, for 100 ticks
    f.s.setScheduler(waiting, SchedPolicy.OTHER, 0);
    assertThat(e(waiting).sleepAvg).isEqualTo(100);
    assertThat(e(waiting).prio).isEqualTo(120);
    f.s.setScheduler(waiting, SchedPolicy.FIFO, 50);
    assertThat(e(waiting).prio).isEqualTo(49);
    assertThat(e(waiting).array).isSameAs(f.rq(0).active);
    assertThat(hog.needResched()).as("2.5.5 never calls resched_task here").isFalse();
    assertThat(f.h.schedule(0)).isSameAs(waiting);
  }

  @Test
  void yieldCostsOneLevelInTheSameArrayUntilTheNextRecalculation() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.hog(0);
    Task b = f.hog(0);
    f.h.schedule(0);
    f.h.setThisCpu(0);
    assertThat(f.s.yield(a, 0)).isTrue();
    assertThat(e(a).prio).isEqualTo(121);
    assertThat(e(a).array).isSameAs(f.rq(0).active);
    assertThat(f.h.schedule(0)).isSameAs(b);
    e(b).prio = 139;
    f.rq(0).active.requeue(e(a));
    assertThat(f.s.yield(b, 0)).isTrue();
    assertThat(e(b).prio).as("already at 139: only requeued").isEqualTo(139);
  }

  @Test
  void yieldOfARealTimeTaskRequeuesAtItsLevel() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.rt(0, SchedPolicy.FIFO, 5);
    Task b = f.rt(0, SchedPolicy.FIFO, 5);
    f.h.schedule(0);
    f.s.yield(a, 0);
    assertThat(e(a).prio).isEqualTo(94);
    assertThat(f.h.schedule(0)).isSameAs(b);
  }

  @Test
  void aRunningTaskLeavesItsCpuAtItsNextScheduleWhenItsAffinityExcludesIt() {
    O1Fixture f = new O1Fixture(2);
    Task a = f.hog(0);
    f.h.schedule(0);
    f.h.setThisCpu(0);
    assertThat(f.s.setCpusAllowed(a, 0b10)).isTrue();
    assertThat(a.cpu()).as("still running on cpu0 until it schedules").isZero();
    f.s.checkInvariants();
    assertThat(f.h.schedule(0)).isSameAs(f.h.idle(0));
    assertThat(a.cpu()).isEqualTo(1);
    assertThat(e(a).array).isSameAs(f.rq(1).active);
    assertThat(f.h.idle(1).needResched()).isTrue();
    assertThat(f.h.schedule(1)).isSameAs(a);
    f.s.checkInvariants();
  }

  @Test
  void aQueuedOrSleepingTaskMovesAtOnce() {
    O1Fixture f = new O1Fixture(2);
    f.hog(0);
    Task queued = f.hog(0);
    Task sleeper = f.hog(1);
    f.h.schedule(0);
    f.h.schedule(1);
    f.h.block(1);
    assertThat(f.s.setCpusAllowed(queued, 0b10)).isFalse();
    assertThat(queued.cpu()).isEqualTo(1);
    assertThat(e(queued).array).isSameAs(f.rq(1).active);
    assertThat(f.s.setCpusAllowed(sleeper, 0b01)).isFalse();
    f.h.wake(sleeper, 1);
    assertThat(sleeper.cpu()).isZero();
    f.s.checkInvariants();
  }
}
