package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Tunables.MAX_PRIO;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;

/**
 * Models kernel/sched.c: the O(1) scheduler of Ingo Molnar (2.5.5, K3): per-CPU runqueues,
 * active and expired priority arrays with a 141-bit bitmap, the sleep_avg interactivity
 * estimate, EXPIRED_STARVING, and pull-only SMP load balancing. The version modelled is
 * kernel/sched.c of Linux 2.5.5 (tag v2.5.5, 19 Feb 2002): Ingo Molnar's K3 scheduler plus two
 * small fixes.
 *
 * <pre>{@code
 * StandaloneSchedulerHost h = new StandaloneSchedulerHost(new O1Scheduler(), 2, 100);
 * TaskView a = h.spawn(h.newTask(1, "a", SchedPolicy.OTHER, 0, 0), 0);
 * h.schedule(0);   // a runs on CPU 0
 * h.tick();        // scheduler_tick on every CPU
 * }</pre>
 *
 * <p>Found by name through {@link O1SchedulerProvider} ({@code "o1"}). The tunables default to
 * {@link O1Tunables#forHz} of the host's HZ.
 */
public final class O1Scheduler implements Scheduler {

  /*
   * Implementation overview
   *
   * One Runqueue per CPU; each owns two PrioArrays and swaps them when the active one empties:
   *
   *   runqueues[cpu] ---------------------------------------------------------------+
   *   | nr_running = 4   nr_switches   expired_timestamp   curr = A   idle = swapper |
   *   | prev_nr_running[] = {..}                                                    |
   *   |  active --> PrioArray  nr_active = 3                                         |
   *   |             bitmap  0.....0 1 0 ... 0 1 .. 1 <- bit 140, delimiter          |
   *   |                    prio:   115       125                                    |
   *   |             queue[115]: A <-> B       (head runs next; tail is newest)      |
   *   |             queue[125]: C                                                   |
   *   |  expired -> PrioArray  nr_active = 1                                        |
   *   |             queue[125]: D             (used up its slice; slice refilled)   |
   *   +-----------------------------------------------------------------------------+
   *
   * Invariants (docs/scheduler-invariants.md 1-5; checked by checkInvariants):
   *   bit k set iff queue[k] non-empty, bit 140 always set; nr_running = sum of nr_active;
   *   a task is queued iff its array is non-null, in exactly queue[prio] of its CPU's runqueue;
   *   the running task stays queued; idle tasks are never queued and have prio 140;
   *   RT tasks (prio < 100) only ever sit in the active array.
   *
   * Algorithm, with the kernel functions of 2.5.5:
   *   scheduler_tick   -> SchedulerTick RR rotation, sleep_avg decay, slice expiry to expired
   *                                     or, if TASK_INTERACTIVE and not EXPIRED_STARVING, back
   *                                     into active; periodic load_balance.
   *   schedule()       (pickNext)       empty -> load_balance(idle); active empty -> swap the
   *                                     two arrays (this is the whole "recalculation");
   *                                     next = head of queue[sched_find_first_bit].
   *   activate_task    (activate)       sleep_avg += ticks slept, new prio, into active.
   *   try_to_wake_up   (tryToWakeUp)    no CPU selection: back to the CPU it last ran on.
   *   do_fork, wake_up_forked_process, sched_exit               -> ForkAndExit
   *   set_user_nice, setscheduler, sched_yield, set_cpus_allowed -> PriorityCalls
   *   load_balance                                               -> LoadBalancer
   *
   * Every operation touches a fixed number of words whatever the number of tasks.
   *
   * References:
   *   [1] kernel/sched.c, Linux 2.5.5 (tag v2.5.5); K3 = history commit 7e54bc7575.
   *   [2] docs/scheduler-invariants.md, the properties the tests check.
   *   [3] Documentation/sched-design.txt (2002-05-28), from the 2002-01-04 announcement.
   */

  private final O1Tunables configured; // null: derive from the host's HZ at attach
  private O1Tunables tunables;
  private SchedulerHost host;
  private Runqueue[] runqueues;
  private LoadBalancer balancer;
  private ForkAndExit forkAndExit;
  private PriorityCalls priorityCalls;
  private SchedulerTick schedulerTick;
  private long scheduleCostNs;
  private long wakeUpCostNs;

  /** An O(1) scheduler with the 2.5.5 tunables of the host's HZ. */
  public O1Scheduler() {
    this.configured = null;
  }

  /** An O(1) scheduler with explicit tunables (HZ must match the host's). */
  public O1Scheduler(O1Tunables tunables) {
    this.configured = tunables;
  }

  @Override
  public String name() {
    return "o1";
  }

  @Override
  public boolean supportsCpuCount(int cpus) {
    return cpus >= 1 && cpus <= Long.SIZE;
  }

  @Override
  public void attach(SchedulerHost h) {
    if (host != null) {
      // The runqueues are this kernel's state: a second kernel would share them and each
      // would see the other's tasks.
      throw new IllegalStateException(
          "this O1Scheduler already schedules a kernel: give each kernel its own instance");
    }
    this.host = h;
    this.tunables = configured != null ? configured : O1Tunables.forHz(h.hz());
    if (tunables.hz() != h.hz()) {
      throw new IllegalArgumentException(
          "tunables for HZ=" + tunables.hz() + " on a host with HZ=" + h.hz());
    }
    int cpus = h.cpuCount();
    runqueues = new Runqueue[cpus];
    for (int c = 0; c < cpus; c++) {
      runqueues[c] = new Runqueue(c, cpus);
    }
    balancer = new LoadBalancer(runqueues, tunables, h);
    forkAndExit = new ForkAndExit(this);
    priorityCalls = new PriorityCalls(this);
    schedulerTick = new SchedulerTick(this, balancer);
    // Assumption: the policy half of schedule() touches the runqueue (lock, nr_running, the
    // active array's nr_active, up to 3 bitmap words, the list head) in L1, and the next
    // task's task_struct line, run_list node and prio in L2. A wake-up touches the woken
    // task's lines (sleep_timestamp, sleep_avg, prio, run_list) in L2 and the target
    // runqueue's list tail, bitmap word, counts and curr->prio in L1. Neither depends on the
    // number of tasks, which is the point of the design.
    CostTable c = h.costs();
    scheduleCostNs = 7 * c.l1HitNs() + 3 * c.l2HitNs();
    wakeUpCostNs = 5 * c.l1HitNs() + 4 * c.l2HitNs();
  }

  @Override
  public SchedEntity createEntity(TaskView t) {
    O1Entity e = new O1Entity(t);
    e.staticPrio = O1Tunables.niceToPrio(t.nice());
    e.prio = t.policy().isRealTime() ? O1Tunables.rtPrio(t.rtPriority()) : e.staticPrio;
    // 2.5.5's init_task starts with time_slice = HZ; the host's boot tasks stand for kernel
    // threads and daemons too, so they get a full nice-derived slice instead.
    e.timeSlice = tunables.taskTimeslice(e.staticPrio);
    e.sleepTimestamp = host.jiffies();
    return e;
  }

  @Models(file = "kernel/sched.c", function = "init_idle", version = "2.5.5")
  @Override
  public void initIdle(TaskView idle, int cpu) {
    O1Entity e = entity(idle);
    if (e.array != null) {
      rq(idle.cpu()).deactivateTask(e);
    }
    e.prio = MAX_PRIO;
    host.setRunning(idle);
    host.setCpu(idle, cpu);
    Runqueue rq = runqueues[cpu];
    rq.idle = idle;
    rq.curr = idle;
    host.setNeedResched(idle, true);
  }

  @Override
  public void fork(TaskView parent, TaskView child) {
    forkAndExit.fork(parent, child);
  }

  @Override
  public void wakeUpNewTask(TaskView child, TaskView parent) {
    forkAndExit.wakeUpNewTask(child, parent);
  }

  @Models(file = "kernel/sched.c", function = "try_to_wake_up", version = "2.5.5")
  @Override
  public boolean tryToWakeUp(TaskView p, boolean sync) {
    // sync is ignored in 2.5.5; wakers only pass tasks whose state matched, never zombies.
    if (p.isIdle() || p.state() == TaskState.ZOMBIE || p.state() == TaskState.DEAD) {
      return false;
    }
    Runqueue rq = rq(p.cpu());
    host.setRunning(p);
    O1Entity e = entity(p);
    if (e.array != null) {
      return false;
    }
    activateAndPreempt(e, rq);
    return true;
  }

  @Override
  public void deactivate(TaskView prev, int cpu) {
    O1Entity e = entity(prev);
    if (e.array != null) {
      rq(prev.cpu()).deactivateTask(e);
    }
  }

  /**
   * The policy half of 2.5.5 kernel/sched.c {@code schedule()}: stamp prev's sleep_timestamp,
   * pick next (idle balance when empty, array switch when active is empty, head of the list of
   * the first set bit) and record the switch (nr_switches, curr).
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  @Override
  public TaskView pickNext(int cpu, TaskView prev) {
    Runqueue rq = runqueues[cpu];
    O1Entity pe = entity(prev);
    if (!prev.isIdle()) {
      pe.sleepTimestamp = host.jiffies(); // every entry, whatever prev's state
    }
    boolean migrate = pe.migrationPending;
    if (migrate && pe.array != null) {
      rq.deactivateTask(pe);
    }
    TaskView next;
    while (true) {
      if (rq.nrRunning == 0) {
        if (runqueues.length > 1 && balancer.loadBalance(rq, true) > 0) {
          continue;
        }
        next = rq.idle;
        rq.expiredTimestamp = 0;
        break;
      }
      if (rq.active.nrActive() == 0) {
        rq.switchArrays();
      }
      next = rq.active.head(rq.active.findFirstBit()).task();
      break;
    }
    if (next != prev) {
      rq.nrSwitches++;
      rq.curr = next;
    }
    if (migrate) {
      priorityCalls.completeMigration(pe);
    }
    return next;
  }

  /**
   * 2.5.5's schedule() calls {@code context_switch()} with {@code rq->lock} held and interrupts
   * off; {@code finish_arch_switch()} (i386: {@code spin_unlock_irq(&rq->lock)}) unlocks after
   * {@code switch_to}, in the task switched to.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  @Override
  public boolean switchesUnderRunqueueLock() {
    return true;
  }

  @Override
  public long scheduleCostNs(int cpu) {
    return scheduleCostNs;
  }

  @Override
  public long wakeUpCostNs() {
    return wakeUpCostNs;
  }

  /** {@code scheduler_tick(user_tick, system)} of 2.5.5 kernel/sched.c. */
  @Override
  public void tick(int cpu, boolean userTick) {
    schedulerTick.tick(runqueues[cpu]);
  }

  @Override
  public boolean yield(TaskView current, int cpu) {
    return priorityCalls.yield(current);
  }

  @Override
  public void setNice(TaskView p, int nice) {
    priorityCalls.setUserNice(p, nice);
  }

  @Override
  public void setScheduler(TaskView p, SchedPolicy policy, int rtPriority) {
    priorityCalls.setScheduler(p, policy, rtPriority);
  }

  @Override
  public void setInheritedPriority(TaskView p, int rtPriority) {
    priorityCalls.setInheritedPriority(p, rtPriority);
  }

  @Override
  public boolean setCpusAllowed(TaskView p, long mask) {
    return priorityCalls.setCpusAllowed(p, mask);
  }

  @Override
  public void reap(TaskView reaper, TaskView child) {
    forkAndExit.schedExit(reaper, child);
  }

  @Override
  public void loadBalance(int cpu, boolean idle) {
    balancer.loadBalance(runqueues[cpu], idle);
  }

  @Override
  public int nrRunning(int cpu) {
    return runqueues[cpu].nrRunning;
  }

  @Override
  public List<TaskView> queuedTasks() {
    List<O1Entity> es = new ArrayList<>();
    for (Runqueue rq : runqueues) {
      rq.active.addTo(es);
      rq.expired.addTo(es);
    }
    List<TaskView> out = new ArrayList<>(es.size());
    es.forEach(e -> out.add(e.task()));
    return out;
  }

  @Override
  public void checkInvariants() {
    O1Invariants.check(runqueues, host, tunables);
  }

  /** {@code activate_task} on {@code rq}, then {@code try_to_wake_up}'s preemption test. */
  void activateAndPreempt(O1Entity e, Runqueue rq) {
    rq.activateTask(e, host.jiffies(), tunables);
    if (rq.curr == rq.idle || e.prio < entity(rq.curr).prio) {
      host.reschedule(rq.cpu);
    }
  }

  static O1Entity entity(TaskView t) {
    return (O1Entity) t.schedEntity();
  }

  Runqueue rq(int cpu) {
    return runqueues[cpu];
  }

  int cpuCount() {
    return runqueues.length;
  }

  SchedulerHost host() {
    return host;
  }

  O1Tunables tunables() {
    return tunables;
  }
}
