package dev.kernellab.sched.goodness;

import static dev.kernellab.sched.goodness.GoodnessTunables.NICE_TO_TICKS;
import static dev.kernellab.sched.goodness.GoodnessTunables.NO_CANDIDATE_GOODNESS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models kernel/sched.c: the policy half of {@code schedule()} with its goodness loop and
 * epoch recalculation, and {@code __schedule_tail()} (2.4.17); and what that work costs.
 *
 * <p>Called with no lock held; takes runqueue_lock as schedule() does, and drops it around
 * the recalculation (which runs under tasklist_lock in C). Reference: 2.4.17 kernel/sched.c
 * {@code schedule()}, {@code __schedule_tail()}.
 */
final class ScheduleLoop {

  /*
   * Implementation overview
   *
   * pickNext(cpu, prev); the generic half has already taken a blocked prev off the list:
   *   1. prev is SCHED_RR with counter 0: refill NICE_TO_TICKS(nice), move it to the tail.
   *   2. walk the whole list; among tasks that can_schedule() on cpu take the first of highest
   *      goodness (strict >, so list order breaks ties). O(nr_running), every call, every CPU.
   *   3. best goodness exactly 0 (only exhausted SCHED_OTHER tasks: no RT, no positive one):
   *      drop runqueue_lock, counter = counter / 2 + NICE_TO_TICKS(nice) for EVERY task
   *      (host.allTasks(), sleepers too), retake the lock and walk again. O(all tasks). A
   *      yielder alone (-1) or an empty list (-1000) never triggers it.
   *   4. clear prev's SCHED_YIELD. On a switch: stamp last_schedule, load the mm, move the
   *      cpus_runnable mark, and (SMP, __schedule_tail) if prev is still runnable and did not
   *      yield it was preempted: reschedule_idle(prev) looks for another CPU for it.
   *
   * costNs(cpu) asks step 2's question without changing anything, to learn whether step 3 will
   * happen (recalculationComing: the walk ends at the first task of positive goodness), and
   * prices the loads that steps 2-3 make (GoodnessTunables).
   */

  private final SchedulerHost host;
  private final RunqueueList runqueue;
  private final ScheduleData data;
  private final RescheduleIdle rescheduleIdle;
  private final boolean smp;
  private final int hz;
  private int bestWeight; // goodness of the task select() returned last
  private long recalculations; // epochs ended so far
  // What the last pricing under the lock found (whether a recalculation is coming), for the
  // unlocked half asked right after it with nothing changed (Scheduler.unlockedScheduleCostNs)
  private boolean priced;
  private int pricedCpu;
  private long pricedAt;
  private boolean pricedRecalculation;

  ScheduleLoop(SchedulerHost host, RunqueueList runqueue, ScheduleData data,
      RescheduleIdle rescheduleIdle, boolean smp) {
    this.host = host;
    this.runqueue = runqueue;
    this.data = data;
    this.rescheduleIdle = rescheduleIdle;
    this.smp = smp;
    this.hz = host.hz();
  }

  /** schedule() on {@code cpu}, whose current task is {@code prev}: the task to run next. */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  TaskView pickNext(int cpu, TaskView prev) {
    if (prev != data.curr(cpu)) {
      throw new IllegalStateException("schedule() on cpu" + cpu + " for " + prev
          + " but cpu_curr is " + data.curr(cpu));
    }
    GoodnessEntity pe = GoodnessEntity.of(prev);
    priced = false;
    runqueue.lock();
    try {
      if (prev.policy() == SchedPolicy.RR && pe.counter == 0 && !prev.isIdle()) {
        pe.counter = NICE_TO_TICKS(prev.nice(), hz);
        if (pe.onRunqueue) {
          runqueue.moveLast(pe);
        }
      }
      TaskView next = select(cpu, null);
      while (bestWeight == 0) {
        runqueue.unlock();
        recalculate();
        runqueue.lock();
        next = select(cpu, null);
      }
      boolean prevYielded = pe.schedYield;
      pe.schedYield = false;
      if (next != prev) {
        switchTo(cpu, prev, next, prevYielded);
      }
      return next;
    } finally {
      runqueue.unlock();
    }
  }

  @Models(file = "kernel/sched.c", function = "__schedule_tail", version = "2.4.17")
  private void switchTo(int cpu, TaskView prev, TaskView next, boolean prevYielded) {
    data.switchTo(cpu, next, host.now());
    GoodnessEntity ne = GoodnessEntity.of(next);
    ne.setCpu(host, cpu);
    if (ne.onRunqueue) {
      runqueue.account(ne, cpu);
    }
    GoodnessEntity pe = GoodnessEntity.of(prev);
    pe.releaseCpu();
    if (smp && pe.onRunqueue && prev.state() == TaskState.RUNNING && !prevYielded
        && !prev.isIdle()) {
      rescheduleIdle.run(prev);
    }
  }

  /**
   * The goodness loop: the first task of highest goodness that may run on {@code cpu}, or its
   * idle task; sets {@link #bestWeight}. {@code leaving}, if not null, is skipped (a task about
   * to be deactivated).
   */
  private TaskView select(int cpu, GoodnessEntity leaving) {
    TaskView next = host.idle(cpu);
    int c = NO_CANDIDATE_GOODNESS;
    for (GoodnessEntity e = runqueue.first(); e != null; e = e.next) {
      if (e != leaving && e.canSchedule(cpu)) {
        int weight = Goodness.goodness(e.task(), cpu, data.activeMm(cpu), smp);
        if (weight > c) {
          c = weight;
          next = e.task();
        }
      }
    }
    bestWeight = c;
    return next;
  }

  /**
   * Whether {@link #select} would find a best goodness of exactly 0 (the epoch's end), without
   * finding the task: the walk stops at the first candidate of positive goodness, which rules
   * it out (usually the list's first task, where select() walks it all).
   */
  private boolean recalculationComing(int cpu, GoodnessEntity leaving) {
    int c = NO_CANDIDATE_GOODNESS;
    for (GoodnessEntity e = runqueue.first(); e != null; e = e.next) {
      if (e != leaving && e.canSchedule(cpu)) {
        int weight = Goodness.goodness(e.task(), cpu, data.activeMm(cpu), smp);
        if (weight > 0) {
          return false;
        }
        c = Math.max(c, weight);
      }
    }
    return c == 0;
  }

  /** The epoch recalculation: every task, runnable or not; idle tasks keep cpu_idle()'s -100. */
  private void recalculate() {
    recalculations++;
    for (TaskView t : host.allTasks()) {
      if (!t.isIdle()) {
        GoodnessEntity e = GoodnessEntity.of(t);
        e.counter = (e.counter >> 1) + NICE_TO_TICKS(t.nice(), hz);
      }
    }
  }

  /**
   * The pick the next schedule() on {@code cpu} will make, priced: one list walk, and if no
   * candidate will have positive goodness, a second walk after the recalculation ({@code
   * unlocked} false: the work under runqueue_lock), or the recalculation over all tasks itself,
   * done with the lock dropped and interrupts on ({@code unlocked} true). A current task that
   * has blocked is not counted, whether or not it was deactivated yet.
   *
   * <p>The unlocked half is asked right after the locked one (Scheduler's contract), at the
   * same instant, with nothing run in between: it answers from the walk the locked half made
   * instead of walking the list a third time each schedule().
   */
  long costNs(int cpu, boolean unlocked) {
    TaskView prev = data.curr(cpu);
    GoodnessEntity pe = GoodnessEntity.of(prev);
    boolean prevLeaves = pe.onRunqueue && prev.state() != TaskState.RUNNING
        && !(prev.state() == TaskState.INTERRUPTIBLE && prev.signalPending());
    boolean recalculation;
    if (unlocked && priced && pricedCpu == cpu && pricedAt == host.now()) {
      recalculation = pricedRecalculation;
    } else {
      recalculation = recalculationComing(cpu, prevLeaves ? pe : null);
    }
    priced = !unlocked;
    pricedCpu = cpu;
    pricedAt = host.now();
    pricedRecalculation = recalculation;
    if (!recalculation) {
      return unlocked ? 0 : walkNs(prevLeaves);
    }
    long recalcNs = (long) host.allTasks().size()
        * GoodnessTunables.RECALC_MEMORY_LOADS_PER_TASK * host.costs().memoryNs();
    return unlocked ? recalcNs : 2 * walkNs(prevLeaves);
  }

  /** One walk of the list, less a current task that leaves it. */
  private long walkNs(boolean prevLeaves) {
    return (long) (runqueue.size() - (prevLeaves ? 1 : 0))
        * GoodnessTunables.SCAN_LOADS_PER_TASK * host.costs().l2HitNs();
  }

  /** Epoch recalculations so far. */
  long recalculations() {
    return recalculations;
  }
}
