package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Scheduler.entity;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models kernel/sched.c: {@code scheduler_tick()} and {@code idle_tick()} (2.5.5, K3), run once
 * per timer tick on every CPU with interrupts off; also reached from {@code do_fork} as
 * {@code scheduler_tick(0, 0)}.
 */
final class SchedulerTick {

  /*
   * Implementation overview
   *
   * idle: every IDLE_REBALANCE_TICK an idle CPU tries to pull one task.
   * A task no longer in the active array already expired and is only waiting to be switched
   * out: it is flagged again and the tick does nothing else, not even a rebalance.
   * SCHED_RR: the slice counts down; at 0 it is refilled from static_prio and the task goes to
   * the tail of its level in the ACTIVE array (RT never enters expired). SCHED_FIFO: nothing.
   * SCHED_OTHER: running costs one tick of sleep_avg; at slice expiry the task gets its new
   * dynamic prio and slice at once (no later recalculation exists) and goes to expired, unless
   * it is TASK_INTERACTIVE and the expired array is not starving, in which case it goes to the
   * tail of its new level in active. EXPIRED_STARVING is read before this expiry may stamp
   * expired_timestamp, so the first task into an empty expired array is never forced there
   * by starvation (2.6 reordered this; 2.5.5 does not).
   * Every BUSY_REBALANCE_TICK a busy CPU balances.
   */

  private final O1Scheduler sched;
  private final LoadBalancer balancer;

  SchedulerTick(O1Scheduler sched, LoadBalancer balancer) {
    this.sched = sched;
    this.balancer = balancer;
  }

  @Models(file = "kernel/sched.c", function = "scheduler_tick", version = "2.5.5")
  @Models(file = "kernel/sched.c", function = "idle_tick", version = "2.5.5")
  void tick(Runqueue rq) {
    TaskView p = rq.curr;
    long jiffies = sched.host().jiffies();
    O1Tunables tunables = sched.tunables();
    boolean smp = sched.cpuCount() > 1;
    if (p == rq.idle) {
      if (smp && jiffies % tunables.idleRebalanceTicks() == 0) {
        balancer.loadBalance(rq, true);
      }
      return;
    }
    O1Entity e = entity(p);
    if (e.array != rq.active) {
      sched.host().setNeedResched(p, true);
      return;
    }
    if (e.isRt()) {
      if (p.policy() == SchedPolicy.RR && --e.timeSlice == 0) {
        e.timeSlice = tunables.taskTimeslice(e.staticPrio);
        sched.host().setNeedResched(p, true);
        rq.active.requeue(e);
      }
    } else {
      if (e.sleepAvg > 0) {
        e.sleepAvg--;
      }
      if (--e.timeSlice == 0) {
        expire(rq, e, jiffies, tunables);
      }
    }
    if (smp && jiffies % tunables.busyRebalanceTicks() == 0) {
      balancer.loadBalance(rq, false);
    }
  }

  private void expire(Runqueue rq, O1Entity e, long jiffies, O1Tunables tunables) {
    rq.active.dequeue(e);
    sched.host().setNeedResched(e.task(), true);
    e.prio = tunables.effectivePrio(e.staticPrio, e.sleepAvg);
    e.timeSlice = tunables.taskTimeslice(e.staticPrio);
    if (!O1Tunables.taskInteractive(e.prio, e.staticPrio)
        || rq.expiredStarving(jiffies, tunables.starvationLimitTicks())) {
      if (rq.expiredTimestamp == 0) {
        rq.expiredTimestamp = jiffies;
      }
      rq.expired.enqueue(e);
    } else {
      rq.active.enqueue(e);
    }
  }
}
