package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A {@link SchedulerHost} without a kernel: drives a scheduler's policy half directly, standing
 * in for the generic half of {@code schedule()} with {@link #schedule(int)}. For scheduler
 * tests (the {@code SchedulerContract} suite runs on it), benchmarks of {@code schedule()} cost,
 * and for reading a scheduler's decisions step by step.
 *
 * <pre>{@code
 * StandaloneSchedulerHost h = new StandaloneSchedulerHost(new O1Scheduler(), 1, 100);
 * Task a = h.spawn(h.newTask(1, "a", SchedPolicy.OTHER, 0, 0), 0);
 * h.schedule(0);   // a runs
 * h.tick();        // one timer tick on every CPU
 * }</pre>
 *
 * <p>Time advances only through {@link #tick()}; IPIs are recorded ({@link #ipis()}), not
 * delivered. Besides the scheduler's own setters ({@link SchedulerHost}), a test may set a
 * task's state and pending signal as the code around {@code schedule()} would
 * ({@link #setState}, {@link #setSignalPending}).
 */
public final class StandaloneSchedulerHost extends TaskWritingHost {

  private static final CostTable COSTS = CostTable.pentium3At800MHz();

  private final Scheduler scheduler;
  private final int cpus;
  private final int hz;
  private final Task[] current;
  private final Task[] idle;
  private final List<Task> tasks = new ArrayList<>();
  private long jiffies = 1;
  private long now;
  private int thisCpu;
  private final List<Ipi> ipis = new ArrayList<>();

  /** A reschedule IPI from CPU {@code from} to CPU {@code to}. */
  public record Ipi(int from, int to) {
    @Override
    public String toString() {
      return from + "->" + to;
    }
  }

  /** Boots {@code scheduler} on {@code cpus} CPUs at {@code hz}, every CPU idle. */
  public StandaloneSchedulerHost(Scheduler scheduler, int cpus, int hz) {
    this.scheduler = scheduler;
    this.cpus = cpus;
    this.hz = hz;
    this.current = new Task[cpus];
    this.idle = new Task[cpus];
    scheduler.attach(this);
    for (int c = 0; c < cpus; c++) {
      idle[c] = new Task(0, TaskLifecycle.idleComm(c), null, true, 1L << c, new SplittableRandom(-c - 1));
      idle[c].setCpu(c);
      idle[c].setSchedEntity(scheduler.createEntity(idle[c]));
      scheduler.initIdle(idle[c], c);
      current[c] = idle[c];
    }
  }

  /**
   * A new user task (own mm, allowed on every CPU), not yet known to the scheduler: pass it to
   * {@link #spawn} or {@link #fork}.
   */
  public Task newTask(int pid, String comm, SchedPolicy policy, int rtPriority, int nice) {
    Task t = new Task(pid, comm, new Mm(pid, 100), false, -1L, new SplittableRandom(pid));
    t.setPolicy(policy, rtPriority);
    t.setNice(nice);
    return t;
  }

  /** {@code t}, if it is one of this host's live tasks (spawned or forked here, not exited) or an idle task. */
  private Task live(Task t) {
    java.util.Objects.requireNonNull(t, "task");
    if (!tasks.contains(t) && !java.util.Arrays.asList(idle).contains(t)) {
      throw new IllegalArgumentException(t + " is not a live task of this host: spawn or fork it here first");
    }
    return t;
  }

  /** {@code t}, if it is new to this host: a task is spawned or forked once. */
  private Task fresh(Task t) {
    java.util.Objects.requireNonNull(t, "task");
    if (tasks.contains(t) || java.util.Arrays.asList(idle).contains(t)) {
      throw new IllegalArgumentException(t + " is a task of this host already");
    }
    return t;
  }

  /** Creates a task and makes it runnable on {@code cpu} as a boot task would be. */
  public Task spawn(Task t, int cpu) {
    fresh(t).setCpu(cpu);
    t.setSchedEntity(scheduler.createEntity(t));
    tasks.add(t);
    int saved = thisCpu;
    thisCpu = cpu;
    scheduler.wakeUpNewTask(t, null);
    thisCpu = saved;
    return t;
  }

  /** Forks {@code child} from the current task of {@code cpu}. */
  public Task fork(int cpu, Task child) {
    fresh(child);
    Task parent = current[cpu];
    child.setCpu(cpu);
    child.parent = parent;
    child.setSchedEntity(scheduler.createEntity(child));
    tasks.add(child);
    thisCpu = cpu;
    scheduler.fork(parent, child);
    scheduler.wakeUpNewTask(child, parent);
    return child;
  }

  /**
   * The generic half of {@code schedule()} on {@code cpu} ({@link GenericSchedule}, as the
   * kernel runs it): deactivate a blocked prev, pick, clear need_resched, switch. Returns the new
   * current task.
   */
  public Task schedule(int cpu) {
    thisCpu = cpu;
    Task prev = current[cpu];
    GenericSchedule.begin(scheduler, prev, cpu);
    Task next = GenericSchedule.pick(scheduler, prev, cpu);
    if (next != prev) {
      next.setCpu(cpu);
    }
    current[cpu] = next;
    return next;
  }

  /** The current task of {@code cpu} goes to sleep and {@code cpu} schedules. */
  public Task block(int cpu) {
    Task t = current[cpu];
    t.setState(TaskState.INTERRUPTIBLE);
    return schedule(cpu);
  }

  /** The current task of {@code cpu} exits, is reaped by its parent (if any), and cpu schedules. */
  public Task exit(int cpu) {
    Task t = current[cpu];
    t.setState(TaskState.ZOMBIE);
    Task next = schedule(cpu);
    if (t.parent() != null && t.parent().state() != TaskState.DEAD) {
      scheduler.reap(t.parent(), t);
    }
    t.setState(TaskState.DEAD);
    tasks.remove(t);
    return next;
  }

  /** Wakes {@code p} from {@code fromCpu}. */
  public boolean wake(Task p, int fromCpu) {
    thisCpu = fromCpu;
    return scheduler.tryToWakeUp(p, false);
  }

  /** One timer tick on every CPU, then jiffies++. */
  public void tick() {
    for (int c = 0; c < cpus; c++) {
      thisCpu = c;
      scheduler.tick(c, true);
    }
    jiffies++;
    now += 1_000_000_000L / hz;
  }

  /** Sets jiffies. */
  public void setJiffies(long j) {
    this.jiffies = j;
  }

  @Override
  public int cpuCount() {
    return cpus;
  }

  @Override
  public int hz() {
    return hz;
  }

  @Override
  public long jiffies() {
    return jiffies;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public CostTable costs() {
    return COSTS;
  }

  @Override
  public Task current(int cpu) {
    return current[cpu];
  }

  @Override
  public Task idle(int cpu) {
    return idle[cpu];
  }

  @Override
  public int thisCpu() {
    return thisCpu;
  }

  /** Sets the CPU that executes the next scheduler call. */
  public void setThisCpu(int c) {
    this.thisCpu = c;
  }

  @Override
  public void reschedule(int cpu) {
    Task t = current[cpu];
    boolean wasSet = t.needResched();
    t.setNeedResched(true);
    if (!wasSet && cpu != thisCpu) {
      ipis.add(new Ipi(thisCpu, cpu));
    }
  }

  @Override
  public void rescheduleAndInterrupt(int cpu) {
    current[cpu].setNeedResched(true);
    if (cpu != thisCpu) {
      ipis.add(new Ipi(thisCpu, cpu));
    }
  }

  @Override
  public List<Task> allTasks() {
    List<Task> l = new ArrayList<>(tasks);
    l.sort(Comparator.comparingInt(Task::pid));
    return l;
  }

  /** Reschedule IPIs sent so far, in order, read-only. */
  public List<Ipi> ipis() {
    return Collections.unmodifiableList(ipis);
  }

  /** Forgets the IPIs recorded so far. */
  public void clearIpis() {
    ipis.clear();
  }

  /**
   * Sets {@code t}'s state as {@code set_current_state} or the exit path would, for a test that
   * then calls {@link #schedule(int)} or a scheduler method.
   */
  public void setState(Task t, TaskState state) {
    live(t).setState(state);
  }

  /** Posts or clears a pending signal for {@code t}. */
  public void setSignalPending(Task t, boolean pending) {
    live(t).setSignalPending(pending);
  }

  /** The current task of {@code cpu}. */
  public Task currentTask(int cpu) {
    return current[cpu];
  }

  /** The scheduler under test. */
  public Scheduler scheduler() {
    return scheduler;
  }
}
