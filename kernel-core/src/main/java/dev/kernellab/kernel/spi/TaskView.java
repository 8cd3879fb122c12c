package dev.kernellab.kernel.spi;

/**
 * What a plug-in sees of a task: the scheduling-relevant fields of {@code struct task_struct}
 * (include/linux/sched.h, 2.4.17), read-only.
 *
 * <p>The kernel's own task ({@code dev.kernellab.kernel.Task}) is the only implementation: a
 * scheduler writes the fields it owns through its {@link SchedulerHost}, which refuses a view
 * that is not a kernel's own task. Each scheduler keeps its own per-task fields in the
 * {@link SchedEntity} it hangs on the task.
 */
public interface TaskView {

  /** Nice values span -20..19 (include/linux/sched.h). */
  int MIN_NICE = -20;
  /** Highest nice. */
  int MAX_NICE = 19;
  /** Highest rt_priority (MAX_USER_RT_PRIO - 1 in 2.4). */
  int MAX_RT_PRIORITY = 99;

  /** Process id (idle tasks are pid 0 on every CPU). */
  int pid();

  /** Command name, as {@code ps} shows it. */
  String comm();

  /** The address space, or null for a kernel thread. */
  MmView mm();

  /** True for kernel threads (no mm of their own). */
  boolean isKernelThread();

  /** True for a CPU's idle task (swapper). */
  boolean isIdle();

  /** {@code state}. */
  TaskState state();

  /** {@code policy}. */
  SchedPolicy policy();

  /** Nice value, -20..19. */
  int nice();

  /** {@code rt_priority}: 0 for SCHED_OTHER, 1..99 for real-time. */
  int rtPriority();

  /**
   * The real-time priority lent by priority inheritance (1..99) while the task owns an
   * {@code rt_mutex} a real-time task waits for, else 0. Its {@link #policy()} and
   * {@link #rtPriority()} stay what {@code setscheduler} made them.
   */
  int inheritedRtPriority();

  /**
   * The real-time priority the task is scheduled at: the higher of its own (0 under
   * SCHED_OTHER) and the inherited one; above 0 it runs as a real-time task.
   */
  default int effectiveRtPriority() {
    return Math.max(rtPriority(), inheritedRtPriority());
  }

  /**
   * While the task runs on a {@linkplain #inheritedRtPriority() lent priority}: the task the
   * loan comes from, the first waiter of an {@code rt_mutex} it owns whose priority the loan is
   * (kernel/locking/rtmutex.c of 6.12: {@code rt_mutex_adjust_prio} takes
   * {@code task_top_pi_waiter}); itself perhaps on a loan from further down the chain. Null
   * while the task has no loan.
   */
  TaskView lender();

  /**
   * The lock whose {@code rt_mutex} the task sleeps on ({@code pi_blocked_on}): a spinlock or
   * {@code kernel_flag} where those sleep. Null while it sleeps on none, and where what it
   * waits for is no lock of this interface's: an {@code rt_mutex} of a path's own
   * ({@code RtMutex}), or, for a writer of an rwlock where rwlocks sleep, the readers leaving
   * (the writer owns the lock's {@code rt_mutex} and sleeps until the last reader is gone,
   * kernel/locking/rwbase_rt.c of 6.12, so it is blocked on no mutex).
   */
  LockView blockedOnLock();

  /** {@code need_resched} (TIF_NEED_RESCHED in 2.5). */
  boolean needResched();

  /** {@code cpus_allowed}: bit i set iff the task may run on CPU i. */
  long cpusAllowed();

  /** True if the task may run on {@code cpu}. */
  boolean mayRunOn(int cpu);

  /** The CPU whose runqueue owns the task / it last ran on ({@code p->cpu}, {@code processor}). */
  int cpu();

  /** True if a signal is pending (an interruptible sleep then does not block). */
  boolean signalPending();

  /** The current {@code preempt_count}. */
  int preemptCount();

  /**
   * {@code lock_depth}: -1 if the task does not hold the big kernel lock, else how many times
   * more than once it took it ({@code lock_kernel()} nests).
   */
  int lockDepth();

  /** The scheduler's fields for this task. */
  SchedEntity schedEntity();

  /** The task that forked this one (null for boot tasks). */
  TaskView parent();

  /** CPU time consumed, ns (updated at every switch out). */
  long runtimeNs();

  /** Times the task blocked (gave up the CPU while not runnable). */
  long voluntarySwitches();

  /** Times the task was switched out while still runnable. */
  long involuntarySwitches();
}
