package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.SplittableRandom;

/**
 * A process or kernel thread: the scheduling-relevant part of {@code struct task_struct}
 * (include/linux/sched.h, 2.4.17), plus the frame stack that the interpreter runs.
 *
 * <p>Generic fields live here; each scheduler keeps its own per-task fields in a
 * {@link SchedEntity} hung on the task ({@link #schedEntity()}). Tasks are created by the
 * {@link Kernel} (boot-time tasks, fork) and are never constructed by users directly.
 */
@Models(file = "include/linux/sched.h", function = "struct task_struct", version = "2.4.17")
public final class Task implements TaskView {


  private final int pid;
  private final String comm;
  private Mm mm; // null for kernel threads, which borrow the previous mm (lazy TLB)
  private final boolean idleTask;
  private final SplittableRandom random;
  final ExecContext context;

  private TaskState state = TaskState.RUNNING;
  private SchedPolicy policy = SchedPolicy.OTHER;
  private int nice;
  private int rtPriority;
  private int inheritedRtPriority; // lent by rt_mutex priority inheritance, 0 when none
  private boolean needResched;
  private long cpusAllowed;
  private int cpu;
  private boolean signalPending;
  int preemptCount;
  // lock_kernel() nesting: -1 = the big kernel lock not held; do_fork starts every task at -1.
  int lockDepth = -1;
  private SchedEntity schedEntity;
  Task parent;
  // vfork: the parent asleep in do_fork until this task's mm_release (tsk->vfork_done), or null
  Task vforkDone;
  // vfork: true while this task sleeps in do_fork for its child's mm_release (completion not done)
  boolean vforkWaiting;
  KernelTimer timeout; // schedule_timeout's timer, created on first use
  Object syscallArgs; // the arguments of the running system call, or null
  IoOps.TaskIo io; // the task's block request, created on first use
  RtMutex blockedOn; // the rt_mutex this task sleeps on (pi_blocked_on), or null
  RtMutex[] owned = NO_MUTEXES; // the rt_mutexes it owns, whose waiters lend it priority
  int ownedCount;

  // Accounting, in ns and switches.
  long runtimeNs;
  long lastSwitchInNs;
  long voluntarySwitches;
  long involuntarySwitches;

  private static final RtMutex[] NO_MUTEXES = {};

  void addOwned(RtMutex m) {
    if (ownedCount == owned.length) {
      owned = java.util.Arrays.copyOf(owned, Math.max(4, ownedCount * 2));
    }
    owned[ownedCount++] = m;
  }

  void dropOwned(RtMutex m) {
    for (int i = ownedCount - 1; i >= 0; i--) {
      if (owned[i] == m) {
        System.arraycopy(owned, i + 1, owned, i, ownedCount - i - 1);
        owned[--ownedCount] = null;
        return;
      }
    }
  }

  Task(int pid, String comm, Mm mm, boolean idleTask, long cpusAllowed, SplittableRandom random) {
    this.pid = pid;
    this.comm = comm;
    this.mm = mm;
    this.idleTask = idleTask;
    this.cpusAllowed = cpusAllowed;
    this.random = random;
    this.context = new ExecContext(this, ExecContext.Kind.TASK);
  }

  /** Process id (idle tasks are pid 0 on every CPU). */
  @Override
  public int pid() {
    return pid;
  }

  /** Command name, as {@code ps} shows it. */
  @Override
  public String comm() {
    return comm;
  }

  /** The address space, or null for a kernel thread. */
  @Override
  public Mm mm() {
    return mm;
  }

  /** exec_mmap's {@code current->mm = mm}: the task moves to a new address space. */
  void setMm(Mm m) {
    this.mm = m;
  }

  /** True for kernel threads (no mm of their own). */
  @Override
  public boolean isKernelThread() {
    return mm == null;
  }

  /** True for a CPU's idle task (swapper). */
  @Override
  public boolean isIdle() {
    return idleTask;
  }

  /** {@code state}. */
  @Override
  public TaskState state() {
    return state;
  }

  /** Sets {@code state} (set_current_state, try_to_wake_up). */
  void setState(TaskState s) {
    this.state = s;
  }

  /** {@code policy}. */
  @Override
  public SchedPolicy policy() {
    return policy;
  }

  /** Set by the scheduler's setscheduler. */
  void setPolicy(SchedPolicy p, int rtPrio) {
    if (p.isRealTime() ? rtPrio < 1 || rtPrio > MAX_RT_PRIORITY : rtPrio != 0) {
      throw new IllegalArgumentException(
          "rt_priority must be 1..99 for SCHED_FIFO/RR and 0 for SCHED_OTHER, got " + p + " "
              + rtPrio);
    }
    this.policy = p;
    this.rtPriority = rtPrio;
  }

  @Override
  public int inheritedRtPriority() {
    return inheritedRtPriority;
  }

  @Override
  public TaskView lender() {
    if (inheritedRtPriority == 0) {
      return null;
    }
    // the first waiter of an owned mutex whose priority is the loan (RtMutexOps.adjustLoan)
    for (int i = 0; i < ownedCount; i++) {
      Task top = owned[i].topWaiter();
      if (top != null && top.effectiveRtPriority() == inheritedRtPriority) {
        return top;
      }
    }
    return null;
  }

  @Override
  public LockView blockedOnLock() {
    return blockedOn == null ? null : blockedOn.lock;
  }

  /** Set by the scheduler's {@link Scheduler#setInheritedPriority}. */
  void setInheritedPriority(int rtPrio) {
    if (rtPrio < 0 || rtPrio > MAX_RT_PRIORITY) {
      throw new IllegalArgumentException("an inherited priority must be 0..99, got " + rtPrio);
    }
    this.inheritedRtPriority = rtPrio;
  }

  /** Nice value, -20..19. */
  @Override
  public int nice() {
    return nice;
  }

  /** Sets nice; the scheduler applies it ({@link Scheduler#setNice}). */
  void setNice(int n) {
    if (n < MIN_NICE || n > MAX_NICE) {
      throw new IllegalArgumentException("nice must be -20..19, got " + n);
    }
    this.nice = n;
  }

  /** {@code rt_priority}: 0 for SCHED_OTHER, 1..99 for real-time. */
  @Override
  public int rtPriority() {
    return rtPriority;
  }

  /** {@code need_resched} (TIF_NEED_RESCHED in 2.5). */
  @Override
  public boolean needResched() {
    return needResched;
  }

  /** Sets or clears {@code need_resched}. */
  void setNeedResched(boolean v) {
    this.needResched = v;
  }

  /** {@code cpus_allowed}: bit i set iff the task may run on CPU i. */
  @Override
  public long cpusAllowed() {
    return cpusAllowed;
  }

  /** Sets {@code cpus_allowed} (the scheduler migrates if needed). */
  void setCpusAllowed(long mask) {
    if (mask == 0) {
      throw new IllegalArgumentException(comm + "[" + pid + "]: empty cpus_allowed");
    }
    this.cpusAllowed = mask;
  }

  /** True if the task may run on {@code cpu}. */
  @Override
  public boolean mayRunOn(int c) {
    return (cpusAllowed & (1L << c)) != 0;
  }

  /** The CPU whose runqueue owns the task / it last ran on ({@code p->cpu}, {@code processor}). */
  @Override
  public int cpu() {
    return cpu;
  }

  /** Sets the owning CPU (wake-up placement, migration). */
  void setCpu(int c) {
    this.cpu = c;
  }

  /** True if a signal is pending (an interruptible sleep then does not block). */
  @Override
  public boolean signalPending() {
    return signalPending;
  }

  /** Posts or clears a pending signal. */
  void setSignalPending(boolean v) {
    this.signalPending = v;
  }

  /** The current {@code preempt_count}. */
  @Override
  public int preemptCount() {
    return preemptCount;
  }

  /**
   * {@code lock_depth}: -1 if the task does not hold the big kernel lock, else how many times
   * more than once it took it ({@code lock_kernel()} nests). A holder keeps its depth while it
   * sleeps; {@code schedule()} releases {@code kernel_flag} for it meanwhile.
   */
  @Override
  public int lockDepth() {
    return lockDepth;
  }

  /** The scheduler's fields for this task. */
  @Override
  public SchedEntity schedEntity() {
    return schedEntity;
  }

  void setSchedEntity(SchedEntity e) {
    this.schedEntity = e;
  }

  /** The task that forked this one (null for boot tasks). */
  @Override
  public Task parent() {
    return parent;
  }

  /** This task's random stream (compute lengths of its paths). */
  SplittableRandom random() {
    return random;
  }

  /** CPU time consumed, ns (updated at every switch out). */
  @Override
  public long runtimeNs() {
    return runtimeNs;
  }

  /** Times the task blocked (gave up the CPU while not runnable). */
  @Override
  public long voluntarySwitches() {
    return voluntarySwitches;
  }

  /** Times the task was switched out while still runnable. */
  @Override
  public long involuntarySwitches() {
    return involuntarySwitches;
  }

  /**
   * The kernel's own task behind a view a plug-in handed back; a view of anything else is a
   * plug-in's error, refused here where it arrives.
   */
  static Task own(TaskView v) {
    if (v instanceof Task t) {
      return t;
    }
    throw new IllegalArgumentException(
        v == null ? "a scheduler handed back no task" : v + " is not a task of a kernel");
  }

  @Override
  public String toString() {
    return comm + "[" + pid + "]";
  }
}
