package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.spi.SchedPolicy;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The consistency check of the O(1) runqueues (docs/scheduler-invariants.md): each test breaks
 * one rule of 2.5.5 kernel/sched.c's data structures by hand and expects the check to name it.
 * Two CPUs: cpu0 runs A with B queued, cpu1 is idle with nothing queued.
 */
class O1InvariantsTests {

  private record Rig(O1Fixture f, Task a, Task b) {}

  private static Rig rig() {
    O1Fixture f = new O1Fixture(2);
    Task a = f.hog(0);
    Task b = f.hog(0);
    f.h.schedule(0);
    f.s.checkInvariants();
    return new Rig(f, a, b);
  }

  private static void breaks(Consumer<Rig> corrupt, String message) {
    Rig r = rig();
    corrupt.accept(r);
    assertThatIllegalStateException().isThrownBy(() -> r.f().s.checkInvariants()).withMessageContaining(message);
  }

  /** Moves {@code t} to another priority queue of its array, as a bug in effective_prio would. */
  private static void requeueAt(Task t, int prio) {
    O1Entity x = e(t);
    PrioArray array = x.array;
    array.dequeue(x);
    x.prio = prio;
    array.enqueue(x);
  }

  private static Task queuedOnCpu0(Rig r) {
    return r.f().h.current(0) == r.a() ? r.b() : r.a();
  }

  @Test
  void aConsistentRunqueuePasses() {
    Rig r = rig();
    assertThatCode(() -> r.f().s.checkInvariants()).doesNotThrowAnyException();
  }

  @Test
  void nrRunningMustCountBothArrays() {
    breaks(r -> r.f().rq(0).nrRunning++, "nr_running 3 != 2 + 0");
  }

  @Test
  void activeAndExpiredAreTwoArrays() {
    breaks(r -> r.f().rq(1).expired = r.f().rq(1).active, "active and expired are one array");
  }

  @Test
  void theRunqueuesCurrIsTheTaskTheCpuRuns() {
    breaks(r -> r.f().rq(0).curr = queuedOnCpu0(r), "but the host runs");
  }

  @Test
  void theIdleTaskIsNeverQueuedAndSitsAtPrio140() {
    breaks(r -> e(r.f().h.idle(1)).prio = 120, "idle task queued or not at prio 140");
  }

  @Test
  void theRunningTaskStaysQueued() {
    breaks(r -> {
      Task cur = r.f().h.current(0);
      PrioArray array = e(cur).array;
      array.dequeue(e(cur));
      e(cur).array = null; // deactivate_task without the switch away
      r.f().rq(0).nrRunning--;
    }, "is not queued");
  }

  @Test
  void aQueuedTaskBelongsToTheRunqueueItIsOn() {
    breaks(r -> r.f().h.setCpu(queuedOnCpu0(r), 1), "queued here but its cpu is 1");
  }

  @Test
  void aQueuedTaskMayRunOnItsCpu() {
    breaks(r -> r.f().h.setCpusAllowed(queuedOnCpu0(r), 0b10), "outside cpus_allowed");
  }

  @Test
  void aRealTimeTaskHasARealTimePrio() {
    breaks(r -> r.f().h.setPolicy(queuedOnCpu0(r), SchedPolicy.FIFO, 10), "prio disagrees with policy");
  }

  @Test
  void aRealTimeTaskSitsAtNinetyNineMinusItsRtPriority() {
    breaks(r -> {
      Task t = queuedOnCpu0(r);
      r.f().h.setPolicy(t, SchedPolicy.FIFO, 10);
      requeueAt(t, O1Tunables.rtPrio(10) + 1);
    }, "expired or not at 99 - rt_priority");
  }

  @Test
  void aSchedOtherPrioIsWithinFiveOfItsStaticPrio() {
    breaks(r -> requeueAt(queuedOnCpu0(r), e(queuedOnCpu0(r)).staticPrio - 6), "better than static_prio - 5");
  }

  @Test
  void aSchedOtherPrioIsNeverRealTime() {
    breaks(r -> {
      Task t = queuedOnCpu0(r);
      e(t).staticPrio = 100;
      requeueAt(t, 99);
    }, "prio disagrees with policy");
  }

  @Test
  void sleepAvgStaysWithinZeroAndMaxSleepAvg() {
    breaks(r -> e(queuedOnCpu0(r)).sleepAvg = -1, "sleep_avg out of 0..");
    breaks(r -> e(queuedOnCpu0(r)).sleepAvg = O1Tunables.forHz(100).maxSleepAvgTicks() + 1, "sleep_avg out of 0..");
  }

  @Test
  void theTimeSliceStaysWithinOneAndMaxTimeslice() {
    breaks(r -> e(queuedOnCpu0(r)).timeSlice = 0, "time_slice out of 1..MAX_TIMESLICE");
    breaks(r -> e(queuedOnCpu0(r)).timeSlice = O1Tunables.forHz(100).maxTimesliceTicks() + 1,
        "time_slice out of 1..MAX_TIMESLICE");
  }
}
