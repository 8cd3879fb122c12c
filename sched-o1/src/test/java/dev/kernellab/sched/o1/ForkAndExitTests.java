package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Task;
import org.junit.jupiter.api.Test;

/**
 * do_fork's slice split, wake_up_forked_process and sched_exit (2.5.5 kernel/fork.c and
 * kernel/sched.c).
 */
class ForkAndExitTests {

  private final O1Fixture f = new O1Fixture(1);

  @Test
  void forkSplitsTheParentsSliceAndConservesTheTotal() {
    Task p = f.hog(0);
    f.h.schedule(0);
    Task c = f.fork(0);
    assertThat(e(c).timeSlice).isEqualTo(8);
    assertThat(e(p).timeSlice).isEqualTo(7);
    assertThat(p.needResched()).as("let the child run first").isTrue();
    assertThat(e(c).array).isSameAs(f.rq(0).active);
    assertThat(c.cpu()).isZero();
  }

  @Test
  void aParentLeftWithZeroGetsOneTickAndAnImmediateSchedulerTick() {
    Task p = f.hog(0);
    f.h.schedule(0);
    for (int i = 0; i < 14; i++) {
      f.h.tick();
    }
    Task c = f.fork(0);
    assertThat(e(c).timeSlice).isEqualTo(1);
    assertThat(e(p).timeSlice).as("expired by scheduler_tick(0, 0) and refilled").isEqualTo(15);
    assertThat(e(p).array).isSameAs(f.rq(0).expired);
    assertThat(p.needResched()).isTrue();
  }

  @Test
  void theChildKeeps95PercentOfSleepAvgAndTheParentAll() {
    Task p = f.hog(0);
    f.h.schedule(0);
    e(p).sleepAvg = 100;
    Task c = f.fork(0);
    assertThat(e(p).sleepAvg).isEqualTo(100);
    assertThat(e(c).sleepAvg).isEqualTo(95);
    assertThat(e(c).prio).as("bonus floor(950/200) - 5 = -1").isEqualTo(121);
    assertThat(e(p).prio).as("frozen until the parent's next recalculation").isEqualTo(120);
  }

  @Test
  void childFirstObservationTheParentHeadingTheBestListIsPickedAgain() {
    // 2.5.5 as written (kernel/fork.c do_fork()): need_resched is set but the parent is not
    // requeued.
    Task p = f.hog(0);
    f.h.schedule(0);
    f.run(15); // p expires at prio 125 and runs on after the array switch
    assertThat(e(p).prio).isEqualTo(125);
    Task sameLevel = f.fork(0);
    assertThat(e(sameLevel).prio).isEqualTo(125);
    assertThat(f.h.schedule(0)).as("equal prio: the parent runs first").isSameAs(p);

    e(p).sleepAvg = 200;
    Task better = f.fork(0);
    assertThat(e(better).prio).as("sleep_avg 190: bonus 4").isEqualTo(116);
    assertThat(f.h.schedule(0)).as("strictly better: the child runs first").isSameAs(better);
  }

  @Test
  void schedExitReturnsTheChildsSliceCappedAndWeighsInACpuHogChild() {
    Task p = f.hog(0);
    f.h.schedule(0);
    Task c = f.fork(0);
    e(p).timeSlice = 10;
    e(c).timeSlice = 25;
    e(p).sleepAvg = 100;
    e(c).sleepAvg = 40;
    f.s.reap(p, c);
    assertThat(e(p).timeSlice).as("capped at MAX_TIMESLICE").isEqualTo(30);
    assertThat(e(p).sleepAvg).isEqualTo((100 * 3 + 40) / 4);

    e(c).sleepAvg = 150;
    int before = e(p).sleepAvg;
    f.s.reap(p, c);
    assertThat(e(p).sleepAvg).as("a more interactive child changes nothing").isEqualTo(before);
  }

  @Test
  void exitThroughTheHostReapsIntoTheParent() {
    Task p = f.hog(0);
    f.h.schedule(0);
    Task c = f.fork(0);
    e(c).sleepAvg = 0;
    e(p).sleepAvg = 80;
    f.h.schedule(0);
    f.h.block(0); // p sleeps; c runs
    assertThat(f.h.current(0)).isSameAs(c);
    f.h.exit(0);
    assertThat(e(p).timeSlice).isEqualTo(7 + 8);
    assertThat(e(p).sleepAvg).isEqualTo(60);
    f.s.checkInvariants();
  }
}
