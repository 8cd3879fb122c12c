package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Scheduler.entity;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models the system-call side of kernel/sched.c (2.5.5, K3): {@code set_user_nice()},
 * {@code setscheduler()}, {@code sys_sched_yield()} and {@code set_cpus_allowed()} with the
 * task-migration IPI of arch/i386/kernel/smp.c.
 */
final class PriorityCalls {

  /*
   * Implementation overview
   *
   * 2.5.5's quirks, modelled as written (each pinned by a test):
   * - set_user_nice means to reschedule "if the priority was raised or p is running", but it
   *   compares the new NICE_TO_PRIO with the already updated static_prio, so it reschedules
   *   only when p is its CPU's current task.
   * - setscheduler requeues a queued task with activate_task, which credits a SCHED_OTHER task
   *   with jiffies - sleep_timestamp of sleep it never had; it never calls resched_task, so a
   *   task raised to RT waits for the next reschedule point on its CPU.
   * - sched_yield costs one priority level until the next effective_prio, and stays in the
   *   same array (no move to expired, no "anyone else runnable?" shortcut).
   *
   * set_cpus_allowed of the running task in 2.5.5: the task sleeps, schedule() deactivates it and
   * the lowest allowed CPU, on the migration IPI, sets the task's CPU and wake_up_process()es
   * it. Here the task stays RUNNING and queued until its CPU next runs pickNext, which
   * deactivates it and completes the move with the same activate + preemption test. For a task
   * that is not running, 2.5.5 would BUG(); this model moves it the way the 2.5.7 migration thread
   * does (deactivate on the source, activate on the lowest allowed CPU).
   */

  private final O1Scheduler sched;

  PriorityCalls(O1Scheduler sched) {
    this.sched = sched;
  }

  /** {@code set_user_nice(p, nice)}. */
  @Models(file = "kernel/sched.c", function = "set_user_nice", version = "2.5.5")
  void setUserNice(TaskView p, int nice) {
    O1Entity e = entity(p);
    if (O1Tunables.prioToNice(e.staticPrio) == nice || nice < TaskView.MIN_NICE || nice > TaskView.MAX_NICE) {
      return;
    }
    sched.host().setNice(p, nice);
    Runqueue rq = sched.rq(p.cpu());
    if (e.isRt()) {
      e.staticPrio = O1Tunables.niceToPrio(nice);
      return;
    }
    PrioArray array = e.array;
    if (array != null) {
      array.dequeue(e);
    }
    e.staticPrio = O1Tunables.niceToPrio(nice);
    e.prio = e.staticPrio;
    if (array != null) {
      array.enqueue(e);
      // 2.5.5: "NICE_TO_PRIO(nice) < p->static_prio || p == rq->curr"; the first term compares
      // static_prio with itself and is always false.
      boolean raised = O1Tunables.niceToPrio(nice) < e.staticPrio;
      if (raised || p == rq.curr) {
        sched.host().reschedule(rq.cpu);
      }
    }
  }

  /** {@code setscheduler}, after validation: new policy and rt_priority. */
  @Models(file = "kernel/sched.c", function = "setscheduler", version = "2.5.5")
  void setScheduler(TaskView p, SchedPolicy policy, int rtPriority) {
    O1Entity e = entity(p);
    Runqueue rq = sched.rq(p.cpu());
    boolean queued = e.array != null;
    if (queued) {
      rq.deactivateTask(e);
    }
    sched.host().setPolicy(p, policy, rtPriority);
    // A loan of priority inheritance outlives the change (6.12's __sched_setscheduler keeps
    // rt_effective_prio); without one this is 2.5.5's assignment.
    int rt = p.effectiveRtPriority();
    e.prio = rt > 0 ? O1Tunables.rtPrio(rt) : e.staticPrio;
    if (queued) {
      rq.activateTask(e, sched.host().jiffies(), sched.tunables()); // spurious credit, as in 2.5.5
    }
  }

  /**
   * Priority inheritance, which 2.5.5 did not have, done as its own setscheduler does a priority
   * change (off the runqueue, new prio, back on) plus the preemption checks 6.12's
   * {@code rt_mutex_setprio} ends with: a queued task that now beats its runqueue's current
   * one preempts it, as at a wake-up; a running one that lost its loan reschedules. Without a
   * loan a SCHED_OTHER task goes back to its dynamic priority, effective_prio of its sleep_avg.
   */
  @Models(file = "kernel/sched/core.c", function = "rt_mutex_setprio", version = "6.12")
  void setInheritedPriority(TaskView p, int rtPriority) {
    O1Entity e = entity(p);
    Runqueue rq = sched.rq(p.cpu());
    boolean queued = e.array != null;
    if (queued) {
      rq.deactivateTask(e);
    }
    int before = e.prio;
    sched.host().setInheritedPriority(p, rtPriority);
    int rt = p.effectiveRtPriority();
    e.prio = rt > 0 ? O1Tunables.rtPrio(rt) : sched.tunables().effectivePrio(e.staticPrio, e.sleepAvg);
    if (queued) {
      rq.activateTask(e, sched.host().jiffies(), sched.tunables());
      boolean running = p == rq.curr;
      if (running ? e.prio > before : rq.curr == rq.idle || e.prio < entity(rq.curr).prio) {
        sched.host().reschedule(rq.cpu);
      }
    }
  }

  /** {@code p->prio} without a loan: its rt_priority's, or effective_prio of its sleep_avg. */
  static int normalPrio(TaskView p, O1Entity e, O1Tunables tunables) {
    return p.policy().isRealTime()
        ? O1Tunables.rtPrio(p.rtPriority()) : tunables.effectivePrio(e.staticPrio, e.sleepAvg);
  }

  /** {@code sys_sched_yield} up to its call of {@code schedule()}. */
  @Models(file = "kernel/sched.c", function = "sys_sched_yield", version = "2.5.5")
  boolean yield(TaskView current) {
    O1Entity e = entity(current);
    PrioArray array = e.array;
    if (current.isIdle() || array == null) {
      return true;
    }
    if (e.prio == O1Tunables.MAX_PRIO - 1 || e.isRt()) {
      array.requeue(e);
    } else {
      // nr_active is unchanged in 2.5.5, which relinks by hand; dequeue + enqueue nets to that.
      array.dequeue(e);
      e.prio++;
      array.enqueue(e);
    }
    return true;
  }

  /** {@code set_cpus_allowed(p, mask)}. */
  @Models(file = "kernel/sched.c", function = "set_cpus_allowed", version = "2.5.5")
  boolean setCpusAllowed(TaskView p, long mask) {
    long online = sched.cpuCount() == Long.SIZE ? -1L : (1L << sched.cpuCount()) - 1;
    long allowed = mask & online;
    if (allowed == 0) {
      throw new IllegalArgumentException(p + ": cpus_allowed " + Long.toHexString(mask)
          + " has no online CPU");
    }
    sched.host().setCpusAllowed(p, allowed);
    O1Entity e = entity(p);
    if (p.mayRunOn(p.cpu())) {
      e.migrationPending = false;
      return false;
    }
    int target = Long.numberOfTrailingZeros(allowed);
    Runqueue rq = sched.rq(p.cpu());
    if (rq.curr == p) {
      e.migrationPending = true;
      e.migrationTarget = target;
      return true;
    }
    if (e.array != null) {
      rq.deactivateTask(e);
      sched.host().setCpu(p, target);
      wakeOnTarget(e);
    } else {
      sched.host().setCpu(p, target);
    }
    return false;
  }

  /** The migration IPI handler's part, once the task has left its old CPU. */
  void completeMigration(O1Entity e) {
    e.migrationPending = false;
    sched.host().setCpu(e.task(), e.migrationTarget);
    if (e.array == null && e.task().state() == TaskState.RUNNING) {
      wakeOnTarget(e);
    }
  }

  /** {@code wake_up_process} on the target: activate, and preempt if better. */
  private void wakeOnTarget(O1Entity e) {
    sched.activateAndPreempt(e, sched.rq(e.task().cpu()));
  }
}
