package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Scheduler.entity;
import static dev.kernellab.sched.o1.O1Tunables.MAX_PRIO;
import static dev.kernellab.sched.o1.O1Tunables.MAX_RT_PRIO;

import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;

/**
 * The structural invariants of docs/scheduler-invariants.md (1-5, and the bounds of 6-8) that
 * hold at
 * every quiescent point of 2.5.5, checked by {@link O1Scheduler#checkInvariants()}.
 *
 * <p>Not checked here: "expired non-empty implies expired_timestamp != 0" (9), which 2.5.5 breaks
 * when a task first expires at jiffies 0, and the behavioural properties (7's exact decay, 10-16),
 * which the tests check.
 */
final class O1Invariants {

  private O1Invariants() {}

  static void check(Runqueue[] runqueues, SchedulerHost host, O1Tunables tunables) {
    for (Runqueue rq : runqueues) {
      String name = "cpu" + rq.cpu;
      int nrActive = rq.active.check(name + ".active");
      int nrExpired = rq.expired.check(name + ".expired");
      if (rq.nrRunning != nrActive + nrExpired) {
        fail(name + ": nr_running " + rq.nrRunning + " != " + nrActive + " + " + nrExpired);
      }
      if (rq.active == rq.expired) {
        fail(name + ": active and expired are one array");
      }
      if (rq.curr != host.current(rq.cpu) || rq.idle != host.idle(rq.cpu)) {
        fail(name + ": curr " + rq.curr + " but the host runs " + host.current(rq.cpu));
      }
      O1Entity ie = entity(rq.idle);
      if (ie.array != null || ie.prio != MAX_PRIO) {
        fail(name + ": idle task queued or not at prio 140");
      }
      if (rq.curr != rq.idle && entity(rq.curr).array == null) {
        fail(name + ": curr " + rq.curr + " is not queued");
      }
      List<O1Entity> queued = new ArrayList<>();
      rq.active.addTo(queued);
      int activeCount = queued.size();
      rq.expired.addTo(queued);
      for (int i = 0; i < queued.size(); i++) {
        checkTask(name, rq, queued.get(i), i < activeCount, tunables);
      }
    }
    for (int a = 0; a < runqueues.length; a++) {
      for (int b = a + 1; b < runqueues.length; b++) {
        if (runqueues[a].curr == runqueues[b].curr) {
          fail(runqueues[a].curr + " is current on cpu" + a + " and cpu" + b);
        }
      }
    }
  }

  private static void checkTask(
      String name, Runqueue rq, O1Entity e, boolean inActive, O1Tunables tunables) {
    TaskView t = e.task();
    if (t.isIdle()) {
      fail(name + ": idle task " + t + " queued");
    }
    if (t.cpu() != rq.cpu) {
      fail(name + ": " + t + " queued here but its cpu is " + t.cpu());
    }
    boolean rt = e.prio < MAX_RT_PRIO;
    if (rt != t.effectiveRtPriority() > 0) {
      fail(name + ": " + e + " prio disagrees with policy " + t.policy()
          + (t.inheritedRtPriority() > 0 ? " and its inherited " + t.inheritedRtPriority() : ""));
    }
    if (rt && (!inActive || e.prio != O1Tunables.rtPrio(t.effectiveRtPriority()))) {
      fail(name + ": RT " + e + " expired or not at 99 - rt_priority (or its inherited one)");
    }
    if (!rt && (e.prio >= MAX_PRIO || e.prio < Math.max(MAX_RT_PRIO, e.staticPrio - 5))) {
      fail(name + ": " + e + " prio out of 100..139 or better than static_prio - 5");
    }
    int maxSleepAvg = tunables.maxSleepAvgTicks();
    if (e.sleepAvg < 0 || e.sleepAvg > maxSleepAvg) {
      fail(name + ": " + e + " sleep_avg out of 0.." + maxSleepAvg);
    }
    if (e.timeSlice < 1 || e.timeSlice > tunables.maxTimesliceTicks()) {
      fail(name + ": " + e + " time_slice out of 1..MAX_TIMESLICE");
    }
    if (!t.mayRunOn(rq.cpu) && !(e.migrationPending && t == rq.curr)) {
      fail(name + ": " + t + " queued on a CPU outside cpus_allowed");
    }
  }

  private static void fail(String msg) {
    throw new IllegalStateException(msg);
  }
}
