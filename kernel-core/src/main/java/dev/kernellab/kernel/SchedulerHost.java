package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;
import java.util.List;

/**
 * What the generic kernel offers a {@link Scheduler}: the machine's shape and costs, the
 * per-CPU current and idle tasks, time, and the mechanics of {@code resched_task}.
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
  Task current(int cpu);

  /** The idle task of {@code cpu}. */
  Task idle(int cpu);

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
   * when the flag was already set. Default: {@link #reschedule(int)}, for hosts that do not
   * model IPIs.
   */
  default void rescheduleAndInterrupt(int cpu) {
    reschedule(cpu);
  }

  /** Every task that exists (not dead), in pid order: 2.4's {@code for_each_task}. */
  List<Task> allTasks();
}
