package dev.kernellab.kernel.spi;

import dev.kernellab.hw.CostTable;
import java.util.List;

/**
 * What the generic kernel offers a {@link Scheduler}, and only a scheduler: the machine's shape
 * and costs, the per-CPU current and idle tasks, time, the mechanics of {@code resched_task},
 * and write access to the {@code task_struct} fields the scheduler owns.
 *
 * <p>A kernel hands its host to {@link Scheduler#attach} and to no one else; the only other
 * host is the test and benchmark driver {@code StandaloneSchedulerHost}. A plug-in uses a host;
 * it never implements one: a host writes only the kernel's own tasks and refuses a
 * {@link TaskView} a plug-in made itself. The setters below are the scheduler's, not a library user's: a user who
 * wants another nice value asks the scheduler ({@link Scheduler#setNice}), which requeues the
 * task as {@code set_user_nice} does.
 */
public interface SchedulerHost {

  /** Number of CPUs. */
  int cpuCount();

  /** Timer frequency (HZ). */
  int hz();

  /**
   * {@code jiffies}: ticks since boot, starting at 1 (2.5.5 kernel/timer.c starts it at 0, and
   * kernel/sched.c's EXPIRED_STARVING reads an expired_timestamp of 0 as "none").
   */
  long jiffies();

  /** Simulated time, ns. */
  long now();

  /** The machine's cost table. */
  CostTable costs();

  /** The task running on {@code cpu} ({@code cpu_curr}). */
  TaskView current(int cpu);

  /** The idle task of {@code cpu}. */
  TaskView idle(int cpu);

  /** The CPU executing the current kernel operation ({@code smp_processor_id()}). */
  int thisCpu();

  /**
   * {@code resched_task(cpu_curr(cpu))}: sets need_resched on the task running on
   * {@code cpu}; if that CPU is another one, the flag was clear, and it is not polling, sends
   * it a reschedule IPI. On the CPU itself the flag is acted on at the next preemption point.
   */
  void reschedule(int cpu);

  /**
   * 2.4.17 {@code reschedule_idle()}'s busy path: {@code tsk->need_resched = 1; if
   * (tsk->processor != this_cpu) smp_send_reschedule(tsk->processor);}: the IPI goes out even
   * when the flag was already set.
   */
  void rescheduleAndInterrupt(int cpu);

  /** Every task that exists (not dead), in pid order: 2.4's {@code for_each_task}. */
  List<? extends TaskView> allTasks();

  // ---- the task_struct fields a scheduler writes ----------------------------------------------

  /**
   * {@code p->need_resched = v} (2.4.17) / {@code set_tsk_need_resched}, {@code
   * clear_tsk_need_resched} (2.5.5), without an IPI: for the current CPU's own tasks. Another
   * CPU's current task is interrupted with {@link #reschedule(int)}.
   */
  void setNeedResched(TaskView t, boolean v);

  /** {@code p->processor = cpu} (2.4.17) / {@code set_task_cpu} (2.5.5): where t runs or queues. */
  void setCpu(TaskView t, int cpu);

  /** {@code p->state = TASK_RUNNING}: a wake-up, a new task, the idle task at init. */
  void setRunning(TaskView t);

  /** {@code p->nice = nice}, after the scheduler has requeued t for its new priority. */
  void setNice(TaskView t, int nice);

  /** {@code p->policy = policy; p->rt_priority = rtPriority}, after the scheduler's requeue. */
  void setPolicy(TaskView t, SchedPolicy policy, int rtPriority);

  /**
   * {@code p->prio = prio} of {@code rt_mutex_setprio}: the inherited real-time priority (0:
   * none), after the scheduler's requeue.
   */
  void setInheritedPriority(TaskView t, int rtPriority);

  /** {@code p->cpus_allowed = mask}, after the scheduler has checked and migrated t. */
  void setCpusAllowed(TaskView t, long mask);
}
