package dev.kernellab.kernel.spi;

import java.util.List;

/**
 * The policy half of scheduling: which task runs next on a CPU, what a tick, a wake-up, a fork
 * or a priority change does to the runqueues.
 *
 * <p>The generic half stays in kernel-core and is shared by every scheduler: the entry checks
 * of {@code schedule()} (scheduling while atomic, in interrupt), {@code PREEMPT_ACTIVE}
 * handling (a preempted task is never deactivated), the big kernel lock's release and
 * reacquisition, the context-switch cost, accounting and tracing, and the mechanics of setting {@code need_resched} and sending reschedule IPIs
 * ({@link SchedulerHost#reschedule}). This mirrors how {@code struct sched_class} later split
 * kernel/sched.c, and how both 2.4.17's and 2.5.5's {@code schedule()} are shaped.
 *
 * <p><b>Calling conditions.</b> Every method is called as the kernel would call it with the
 * relevant runqueue lock held and local interrupts disabled: no other scheduler method runs
 * concurrently (the simulation is single-threaded), the current CPU is
 * {@link SchedulerHost#thisCpu()}, and implementations must not block or call back into
 * {@code schedule()}. They write the task fields they own through the host
 * ({@link SchedulerHost#setNeedResched}, {@link SchedulerHost#setCpu} and the others; a task's
 * setters are not public) and reach another CPU's current task with
 * {@link SchedulerHost#reschedule(int)}.
 *
 * <p><b>Lifecycle.</b> {@link #attach} once; then for each task {@link #createEntity} before
 * anything else; idle tasks get {@link #initIdle}; boot tasks and forked children enter with
 * {@link #wakeUpNewTask}.
 *
 * <p>Implementations are named by their variant ({@code O1Scheduler},
 * {@code GoodnessScheduler}) and must pass kernel-core's {@code SchedulerContract} suite.
 */
public interface Scheduler {

  /** Short name used by the builder and the lab ({@code "o1"}, {@code "goodness"}). */
  String name();

  /** True if this scheduler can run a machine of {@code cpus} CPUs. */
  boolean supportsCpuCount(int cpus);

  /** Binds the scheduler to its kernel; called once, before any task exists. */
  void attach(SchedulerHost host);

  /** Creates the scheduler's fields of a new task (the task's policy and nice are set). */
  SchedEntity createEntity(TaskView t);

  /** {@code init_idle}: {@code idle} becomes the idle task of {@code cpu}; never queued. */
  void initIdle(TaskView idle, int cpu);

  /**
   * Fork-time split ({@code do_fork}): the child's fields are derived from the parent's (time
   * slice or counter halved between them, penalties). Called before the child is runnable.
   */
  void fork(TaskView parent, TaskView child);

  /**
   * Makes a new task runnable for the first time ({@code wake_up_forked_process} /
   * {@code wake_up_process} of a child; boot tasks too). {@code parent} is null for boot tasks.
   */
  void wakeUpNewTask(TaskView child, TaskView parent);

  /**
   * {@code try_to_wake_up(p, sync)}: sets p runnable, queues it if it was not queued, and
   * requests preemption where the policy says so (need_resched / IPI through the host).
   *
   * @return true if p was asleep and has been made runnable
   */
  boolean tryToWakeUp(TaskView p, boolean sync);

  /**
   * {@code deactivate_task}: the current task of {@code cpu} has blocked (its state is not
   * RUNNING and it was not preempted): take it off the runqueue.
   */
  void deactivate(TaskView prev, int cpu);

  /**
   * The policy half of {@code schedule()}: chooses the next task for {@code cpu}. {@code prev}
   * is still queued if it is runnable. May switch arrays, recalculate, or pull work from other
   * CPUs. Returns the idle task if nothing is runnable here.
   */
  TaskView pickNext(int cpu, TaskView prev);

  /**
   * What the policy half of {@code schedule()} costs on {@code cpu} right now, ns (2.4's
   * goodness loop grows with the runnable tasks; O(1) is flat). Charged with interrupts off.
   */
  long scheduleCostNs(int cpu);

  /**
   * The part of the coming {@code schedule()}'s policy work done with the runqueue lock dropped
   * and interrupts enabled, ns: 2.4.17 drops {@code runqueue_lock} with
   * {@code spin_unlock_irq} around its epoch recalculation over all tasks. Asked right after
   * {@link #scheduleCostNs} for the same CPU, at the same instant and with nothing changed in
   * between, so it may answer from what that call found; {@link #scheduleCostNs} then covers
   * only the work under the lock. Default: none.
   */
  default long unlockedScheduleCostNs(int cpu) {
    return 0;
  }

  /**
   * True if {@code schedule()} clears prev's need_resched before it selects (2.4.17: right
   * after the state switch, so a need_resched set during {@link #unlockedScheduleCostNs} makes
   * schedule() run again); false to clear it after the pick (2.5.5's
   * {@code clear_tsk_need_resched(prev)} at {@code switch_tasks}). Default: after.
   */
  default boolean clearsNeedReschedBeforeSelection() {
    return false;
  }

  /**
   * The locking discipline of the context switch: true if {@code schedule()} switches stacks
   * with the runqueue lock held and interrupts off, false if it drops the lock with
   * {@code spin_unlock_irq} after the pick and switches with interrupts on. Either way the
   * state switch and the pick are done under the lock; what differs is whether an interrupt can
   * land in the switch itself ({@code switch_mm}, {@code switch_to}), whose cost the incoming
   * task pays. 2.5.5's {@code schedule()} calls {@code context_switch()} under {@code rq->lock}
   * and unlocks in {@code finish_arch_switch()} after it (i386: {@code spin_unlock_irq}); 2.4.17's
   * unlocks {@code runqueue_lock} before {@code prepare_to_switch()}. Default: under the lock.
   */
  default boolean switchesUnderRunqueueLock() {
    return true;
  }

  /** What one {@code try_to_wake_up} costs, ns. */
  long wakeUpCostNs();

  /**
   * The timer tick on {@code cpu} for its current task ({@code scheduler_tick} in 2.5,
   * {@code update_process_times} in 2.4), including any periodic load balancing.
   *
   * @param userTick true if the tick interrupted user mode
   */
  void tick(int cpu, boolean userTick);

  /**
   * {@code sys_sched_yield} for the current task of {@code cpu}.
   *
   * @return true if the caller should now call {@code schedule()}
   */
  boolean yield(TaskView current, int cpu);

  /** {@code set_user_nice}. */
  void setNice(TaskView p, int nice);

  /** {@code setscheduler}: new policy and rt_priority. */
  void setScheduler(TaskView p, SchedPolicy policy, int rtPriority);

  /**
   * Priority inheritance's {@code rt_mutex_setprio} (kernel/sched/core.c, 6.12): lends p the
   * real-time priority {@code rtPriority} (1..99) of the highest task waiting on a lock p owns,
   * or, with 0, ends the loan. p's own policy and rt_priority stay; while the loan lasts p is
   * scheduled as a SCHED_FIFO task at {@link TaskView#effectiveRtPriority()}. The
   * implementation writes the priority through {@link SchedulerHost#setInheritedPriority},
   * requeues p where it is queued, and asks for a reschedule where p now outranks a CPU's
   * current task or, running, may no longer be the best.
   */
  void setInheritedPriority(TaskView p, int rtPriority);

  /**
   * {@code set_cpus_allowed}: new affinity mask; if p may no longer run where it is, move it.
   *
   * @return true if p is the current task and must call {@code schedule()} to leave its CPU
   */
  boolean setCpusAllowed(TaskView p, long mask);

  /** {@code sched_exit} / {@code release_task}: {@code reaper} collects the zombie {@code child}. */
  void reap(TaskView reaper, TaskView child);

  /** Runs a load balance on {@code cpu} now (SMP; a no-op where the policy has none). */
  default void loadBalance(int cpu, boolean idle) {}

  /** Runnable tasks owned by {@code cpu}, the running one included, idle excluded. */
  int nrRunning(int cpu);

  /**
   * Every task queued on any runqueue (running ones included, idle tasks never), each once,
   * runqueue by runqueue in the order the scheduler would consider them. For checks and
   * reports, not for the hot path.
   */
  List<TaskView> queuedTasks();

  /** Checks the scheduler's internal invariants; throws {@link IllegalStateException} if broken. */
  void checkInvariants();
}
