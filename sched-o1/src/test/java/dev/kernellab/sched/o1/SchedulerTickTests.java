package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;

/** scheduler_tick and the array switch of schedule() (2.5.5 kernel/sched.c), on one CPU. */
class SchedulerTickTests {

  private final O1Fixture f = new O1Fixture(1);

  @Test
  void aCpuHogExpiresIntoTheExpiredArrayWithANewPrioAndSlice() {
    Task a = f.hog(0);
    Task b = f.hog(0);
    f.h.schedule(0);
    for (int i = 0; i < 14; i++) {
      f.h.tick();
    }
    assertThat(e(a).timeSlice).isEqualTo(1);
    f.h.tick(); // jiffies 15
    assertThat(a.needResched()).isTrue();
    assertThat(e(a).array).isSameAs(f.rq(0).expired);
    assertThat(e(a).prio).as("sleep_avg 0: bonus -5").isEqualTo(125);
    assertThat(e(a).timeSlice).isEqualTo(15);
    assertThat(f.rq(0).expiredTimestamp).isEqualTo(15);
    assertThat(f.h.schedule(0)).isSameAs(b);
    f.s.checkInvariants();
  }

  @Test
  void anInteractiveTaskIsReinsertedIntoActiveAtTheTailOfItsNewLevel() {
    Task a = f.hog(0);
    e(a).sleepAvg = 200;
    f.h.schedule(0);
    for (int i = 0; i < 15; i++) {
      f.h.tick();
    }
    assertThat(e(a).sleepAvg).as("one tick of credit per tick run").isEqualTo(185);
    assertThat(e(a).prio).as("bonus floor(1850/200) - 5 = 4").isEqualTo(116);
    assertThat(e(a).array).isSameAs(f.rq(0).active);
    assertThat(f.rq(0).expiredTimestamp).isZero();
  }

  @Test
  void expiredStarvingForcesAnInteractiveTaskIntoExpiredFromStarvationLimitTimesNrRunningPlusOne() {
    for (long wait : new long[] {400, 401}) {
      O1Fixture g = new O1Fixture(1);
      Task b = g.hog(0);
      Task a = g.hog(0);
      g.h.schedule(0);
      g.run(15); // b expires at jiffies 15; a runs
      assertThat(g.h.current(0)).isSameAs(a);
      e(a).sleepAvg = 200;
      for (int i = 0; i < 14; i++) {
        g.h.tick();
      }
      g.h.setJiffies(g.rq(0).expiredTimestamp + wait); // nr_running 2: limit 2 * 200 + 1
      g.h.tick();
      assertThat(e(a).array)
          .as("interactive a after b waited %d ticks", wait)
          .isSameAs(wait == 401 ? g.rq(0).expired : g.rq(0).active);
      assertThat(e(b).array).isSameAs(g.rq(0).expired);
    }
  }

  @Test
  void jiffiesZeroQuirkAnExpiryStampedAtJiffiesZeroReadsAsNoExpiredTask() {
    // 2.5.5 as written: EXPIRED_STARVING treats expired_timestamp 0 as "none" (kernel/sched.c).
    Task b = f.hog(0);
    Task a = f.hog(0);
    f.h.schedule(0);
    for (int i = 0; i < 14; i++) {
      f.h.tick();
    }
    f.h.setJiffies(0);
    f.run(1);
    assertThat(e(b).array).isSameAs(f.rq(0).expired);
    assertThat(f.rq(0).expiredTimestamp).isZero();
    assertThat(f.h.current(0)).isSameAs(a);
    e(a).sleepAvg = 200;
    for (int i = 0; i < 14; i++) {
      f.h.tick();
    }
    f.h.setJiffies(100_000);
    f.h.tick();
    assertThat(e(a).array).as("never starving, b waited 100000 ticks").isSameAs(f.rq(0).active);
  }

  @Test
  void aTaskAlreadyExpiredIsOnlyFlaggedAgain() {
    Task a = f.hog(0);
    e(a).sleepAvg = 50;
    f.h.schedule(0);
    for (int i = 0; i < 15; i++) {
      f.h.tick();
    }
    f.h.setNeedResched(a, false);
    int sleepAvg = e(a).sleepAvg;
    f.h.tick();
    assertThat(a.needResched()).isTrue();
    assertThat(e(a).sleepAvg).isEqualTo(sleepAvg);
    assertThat(e(a).timeSlice).isEqualTo(15);
  }

  @Test
  void theArraySwitchSwapsTheTwoArraysAndClearsTheTimestamp() {
    Task a = f.hog(0);
    f.h.schedule(0);
    PrioArray active = f.rq(0).active;
    PrioArray expired = f.rq(0).expired;
    f.run(15);
    assertThat(f.h.current(0)).isSameAs(a);
    assertThat(f.rq(0).active).isSameAs(expired);
    assertThat(f.rq(0).expired).isSameAs(active);
    assertThat(f.rq(0).expiredTimestamp).isZero();
    assertThat(f.rq(0).nrSwitches).isEqualTo(1);
  }

  @Test
  void roundRobinTasksRotateWithinTheActiveArray() {
    Task a = f.rt(0, SchedPolicy.RR, 10);
    Task b = f.rt(0, SchedPolicy.RR, 10);
    f.h.schedule(0);
    f.run(15);
    assertThat(f.h.current(0)).isSameAs(b);
    assertThat(e(a).array).isSameAs(f.rq(0).active);
    assertThat(e(a).timeSlice).isEqualTo(15);
    assertThat(e(a).prio).isEqualTo(89);
  }

  @Test
  void fifoTasksHaveNoTimesliceAndKeepTheirSleepAvg() {
    Task a = f.rt(0, SchedPolicy.FIFO, 10);
    e(a).sleepAvg = 30;
    f.h.schedule(0);
    f.run(100);
    assertThat(f.h.current(0)).isSameAs(a);
    assertThat(e(a).timeSlice).isEqualTo(15);
    assertThat(e(a).sleepAvg).isEqualTo(30);
  }
}
