package dev.kernellab.sched.goodness;

import static dev.kernellab.sched.goodness.GoodnessTunables.DEF_COUNTER;
import static dev.kernellab.sched.goodness.GoodnessTunables.IDLE_COUNTER;
import static dev.kernellab.sched.goodness.GoodnessTunables.MAX_COUNTER;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.List;

/**
 * Models kernel/sched.c: schedule(), goodness(), reschedule_idle(), try_to_wake_up(),
 * sys_sched_yield(), setscheduler() (2.4.17); with kernel/timer.c: update_process_times(),
 * kernel/fork.c: do_fork()'s counter split, kernel/exit.c: release_task()'s counter return.
 *
 * <p>The scheduler of the kernel the Red Hat latency whitepaper measured, and the baseline the
 * O(1) scheduler replaced: one global runqueue walked in full by every schedule() on every CPU,
 * and an epoch recalculation over every task in the system. Registered as {@code "goodness"}:
 *
 * <pre>{@code
 * Scheduler s = SchedulerProvider.create("goodness");
 * StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 2, 100);
 * }</pre>
 *
 * <p>{@link #nrRunning(int)} splits the global {@code nr_running} by CPU: a queued task counts
 * for its {@code processor} when it was queued or last picked, so the CPUs sum to the list
 * length. Reference: 2.4.17 kernel/sched.c (the functions above); its invariants are
 * docs/scheduler-invariants.md 17.
 */
public final class GoodnessScheduler implements Scheduler {

  /*
   * Implementation overview
   *
   * One global list of every runnable task, running ones included (RunqueueList):
   *
   *   runqueue_head -> [p7 ctr 4] <-> [p3 ctr 0] <-> [p12 ctr 6] <-> ... <-> [p1 ctr 2]
   *                    woken last (list_add)              yielded, RR expired (list_add_tail)
   *
   * every CPU's schedule() walks all of it (ScheduleLoop) under the one runqueue_lock; a task
   * running on a CPU stays on it, marked by cpus_runnable. Per task a counter (GoodnessEntity),
   * per CPU schedule_data and the lazy-TLB active_mm (ScheduleData). goodness() is Goodness,
   * the choice of a CPU for a runnable task RescheduleIdle. This class holds the entry points
   * that change the list or the counters outside schedule().
   *
   * The counter is the slice and the priority at once: the tick spends it, fork halves it
   * between parent and child, exit gives the child's rest back to the reaper, and the epoch
   * recalculation refills it, so a sleeper (which spends nothing) climbs toward
   * 2 * NICE_TO_TICKS: 2.4's interactivity boost. A CONFIG_SMP kernel is modelled iff the
   * machine has more than one CPU.
   *
   * [1] kernel/sched.c, kernel/timer.c, kernel/fork.c, kernel/exit.c, Linux 2.4.17.
   */

  private SchedulerHost host;
  private RunqueueList runqueue;
  private ScheduleData data;
  private RescheduleIdle rescheduleIdle;
  private boolean smp;
  private int hz;
  private ScheduleLoop loop;

  @Override
  public String name() {
    return "goodness";
  }

  @Override
  public boolean supportsCpuCount(int cpus) {
    return cpus >= 1 && cpus <= 32; // NR_CPUS on i386: one bit per CPU in an unsigned long
  }

  @Override
  public void attach(SchedulerHost h) {
    if (host != null) {
      // The runqueue and the per-CPU schedule data are one kernel's state.
      throw new IllegalStateException(
          "this GoodnessScheduler already schedules a kernel: give each kernel its own instance");
    }
    this.host = h;
    this.hz = h.hz();
    this.smp = h.cpuCount() > 1;
    this.runqueue = new RunqueueList(h.cpuCount());
    this.data = new ScheduleData(h.cpuCount());
    this.rescheduleIdle = new RescheduleIdle(h, data, runqueue, smp);
    this.loop = new ScheduleLoop(h, runqueue, data, rescheduleIdle, smp);
  }

  /** A parentless task starts with DEF_COUNTER, the init task's counter; fork overwrites it. */
  @Override
  public SchedEntity createEntity(TaskView t) {
    return new GoodnessEntity(t, DEF_COUNTER(hz));
  }

  @Override
  public void initIdle(TaskView idle, int cpu) {
    GoodnessEntity e = GoodnessEntity.of(idle);
    e.counter = IDLE_COUNTER;
    e.setCpu(host, cpu);
    data.initIdle(cpu, idle);
  }

  /** The idle task forks like init_task before cpu_idle(): the child gets DEF_COUNTER. */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  @Override
  public void fork(TaskView parent, TaskView child) {
    GoodnessEntity c = GoodnessEntity.of(child);
    if (parent.isIdle()) {
      c.counter = DEF_COUNTER(hz);
      return;
    }
    GoodnessEntity p = GoodnessEntity.of(parent);
    // Sharing the parent's counter keeps the sum of dynamic priorities unchanged: a forking
    // loop cannot mint CPU time.
    c.counter = (p.counter + 1) >> 1;
    p.counter >>= 1;
    if (p.counter == 0) {
      host.setNeedResched(parent, true);
    }
  }

  @Override
  public void wakeUpNewTask(TaskView child, TaskView parent) {
    tryToWakeUp(child, false);
  }

  /** Zombies and reaped tasks cannot be woken; a task already on the list stays where it is. */
  @Models(file = "kernel/sched.c", function = "try_to_wake_up", version = "2.4.17")
  @Override
  public boolean tryToWakeUp(TaskView p, boolean sync) {
    if (p.state() == TaskState.ZOMBIE || p.state() == TaskState.DEAD) {
      return false;
    }
    runqueue.lock();
    try {
      host.setRunning(p);
      GoodnessEntity e = GoodnessEntity.of(p);
      if (e.onRunqueue) {
        return false;
      }
      runqueue.addFirst(e);
      if (!sync || !p.mayRunOn(host.thisCpu())) {
        rescheduleIdle.run(p);
      }
      return true;
    } finally {
      runqueue.unlock();
    }
  }

  @Override
  public void deactivate(TaskView prev, int cpu) {
    runqueue.lock();
    try {
      runqueue.remove(GoodnessEntity.of(prev));
    } finally {
      runqueue.unlock();
    }
  }

  @Override
  public TaskView pickNext(int cpu, TaskView prev) {
    return loop.pickNext(cpu, prev);
  }

  @Override
  public long scheduleCostNs(int cpu) {
    return loop.costNs(cpu, false);
  }

  /** 2.4.17 recalculates the counters with runqueue_lock dropped and interrupts enabled. */
  @Override
  public long unlockedScheduleCostNs(int cpu) {
    return loop.costNs(cpu, true);
  }

  /** 2.4.17 clears {@code prev->need_resched} before {@code repeat_schedule}. */
  @Override
  public boolean clearsNeedReschedBeforeSelection() {
    return true;
  }

  /**
   * 2.4.17's schedule() drops {@code runqueue_lock} with {@code spin_unlock_irq} once
   * {@code sched_data->curr} and {@code next}'s CPU are set, and only then switches
   * ({@code prepare_to_switch}, {@code switch_mm}, {@code switch_to}): the switch runs with
   * interrupts on.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Override
  public boolean switchesUnderRunqueueLock() {
    return false;
  }

  /** The list insert and reschedule_idle()'s read of every CPU's schedule_data. */
  @Override
  public long wakeUpCostNs() {
    return (long) (GoodnessTunables.WAKEUP_LOADS + host.cpuCount()) * host.costs().l2HitNs();
  }

  /** {@code update_process_times}: every non-idle task spends a tick, SCHED_FIFO included. */
  @Models(file = "kernel/timer.c", function = "update_process_times", version = "2.4.17")
  @Override
  public void tick(int cpu, boolean userTick) {
    TaskView p = data.curr(cpu);
    if (p.isIdle()) {
      return;
    }
    GoodnessEntity e = GoodnessEntity.of(p);
    if (--e.counter <= 0) {
      e.counter = 0;
      host.setNeedResched(p, true);
    }
  }

  /** {@code sys_sched_yield}: acts only if a task waits; RT tasks go to the tail unflagged. */
  @Models(file = "kernel/sched.c", function = "sys_sched_yield", version = "2.4.17")
  @Override
  public boolean yield(TaskView current, int cpu) {
    GoodnessEntity e = GoodnessEntity.of(current);
    if (current.isIdle() || !e.onRunqueue) {
      return false;
    }
    // UP: the caller is on the list too. SMP: so is every task running on any CPU.
    int pending = runqueue.size() - (smp ? data.busyCpus() : 1);
    if (pending <= 0) {
      return false;
    }
    if (current.policy() == SchedPolicy.OTHER) {
      e.schedYield = true;
    }
    host.setNeedResched(current, true);
    runqueue.lock();
    try {
      runqueue.moveLast(e);
    } finally {
      runqueue.unlock();
    }
    return true;
  }

  /** {@code sys_setpriority}: only nice changes; goodness and the next epoch do the rest. */
  @Models(file = "kernel/sys.c", function = "sys_setpriority", version = "2.4.17")
  @Override
  public void setNice(TaskView p, int nice) {
    host.setNice(p, nice);
  }

  /** Assigning policy clears the SCHED_YIELD bit, as {@code p->policy = policy} does in C. */
  @Models(file = "kernel/sched.c", function = "setscheduler", version = "2.4.17")
  @Override
  public void setScheduler(TaskView p, SchedPolicy policy, int rtPriority) {
    host.setPolicy(p, policy, rtPriority);
    GoodnessEntity e = GoodnessEntity.of(p);
    e.schedYield = false;
    runqueue.lock();
    try {
      if (e.onRunqueue) {
        runqueue.moveFirst(e);
      }
    } finally {
      runqueue.unlock();
    }
    host.setNeedResched(host.current(host.thisCpu()), true);
  }

  /**
   * Priority inheritance on the 2.4 runqueue, which 2.4 never had: the loan changes goodness()
   * at once (the list is scanned at every pick, so nothing moves); a queued task is then offered
   * to the CPUs as at a wake-up ({@code reschedule_idle}), and a running one that lost its loan
   * has its CPU rescheduled so that the next pick weighs it anew, as setscheduler's
   * {@code current->need_resched = 1} does for a priority change.
   */
  @Models(file = "kernel/sched/core.c", function = "rt_mutex_setprio", version = "6.12")
  @Override
  public void setInheritedPriority(TaskView p, int rtPriority) {
    int before = p.effectiveRtPriority();
    host.setInheritedPriority(p, rtPriority);
    GoodnessEntity e = GoodnessEntity.of(p);
    runqueue.lock();
    try {
      if (!e.onRunqueue) {
        return;
      }
      if (!e.hasCpu()) {
        rescheduleIdle.run(p);
      } else if (p.effectiveRtPriority() < before) {
        host.reschedule(p.cpu());
      }
    } finally {
      runqueue.unlock();
    }
  }

  /**
   * A task running where it may no longer run is rescheduled; the post-switch
   * reschedule_idle() then pushes it to an allowed CPU. Queued tasks need nothing: every
   * schedule() checks cpus_allowed.
   */
  @Override
  public boolean setCpusAllowed(TaskView p, long mask) {
    host.setCpusAllowed(p, mask);
    GoodnessEntity e = GoodnessEntity.of(p);
    if (!e.hasCpu() || p.mayRunOn(p.cpu())) {
      return false;
    }
    if (p.cpu() == host.thisCpu()) {
      host.setNeedResched(p, true);
      return true;
    }
    host.reschedule(p.cpu());
    return false;
  }

  /** {@code release_task}: the reaper gets the child's unused counter, capped at MAX_COUNTER. */
  @Models(file = "kernel/exit.c", function = "release_task", version = "2.4.17")
  @Override
  public void reap(TaskView reaper, TaskView child) {
    if (reaper.isIdle()) {
      return;
    }
    GoodnessEntity r = GoodnessEntity.of(reaper);
    r.counter = Math.min(r.counter + GoodnessEntity.of(child).counter, MAX_COUNTER(hz));
  }

  @Override
  public int nrRunning(int cpu) {
    return runqueue.nrRunning(cpu);
  }

  @Override
  public List<TaskView> queuedTasks() {
    return runqueue.tasks();
  }

  /** Epoch recalculations so far: each one walked every task in the system. */
  public long recalculations() {
    return loop.recalculations();
  }

  /** goodness() of {@code p} as a schedule() on {@code cpu} would compute it now. */
  public int goodness(TaskView p, int cpu) {
    return Goodness.goodness(p, cpu, data.activeMm(cpu), smp);
  }

  @Override
  public void checkInvariants() {
    runqueue.check();
    data.check(host);
    for (TaskView t : host.allTasks()) {
      if (!t.isIdle() && GoodnessEntity.of(t).counter < 0) {
        throw new IllegalStateException(t + " has a negative counter " + GoodnessEntity.of(t));
      }
    }
  }
}
