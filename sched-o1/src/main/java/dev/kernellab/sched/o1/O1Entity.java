package dev.kernellab.sched.o1;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models the scheduler fields of {@code struct task_struct}, include/linux/sched.h (2.5.5,
 * K3): {@code prio}, {@code static_prio}, {@code sleep_avg}, {@code sleep_timestamp},
 * {@code time_slice}, {@code array} and the {@code run_list} node.
 *
 * <p>2.5.5 keeps no nice field: nice is {@code static_prio - 120}. The {@code run_list} node is
 * intrusive ({@link #next}, {@link #prev}), so queueing a task never allocates.
 */
@Models(file = "include/linux/sched.h", function = "struct task_struct", version = "2.5.5")
public final class O1Entity extends SchedEntity {

  int prio; // 0..99 RT, 100..139 SCHED_OTHER, 140 only for idle tasks
  int staticPrio; // NICE_TO_PRIO(nice), 100..139; the RR timeslice comes from it too
  int sleepAvg; // 0..MAX_SLEEP_AVG ticks of interactivity credit
  long sleepTimestamp; // jiffies at the last schedule() entry as prev, or at fork
  int timeSlice; // remaining ticks; 1..MAX_TIMESLICE at quiescent points
  PrioArray array; // the array whose queue[prio] holds this task, null iff not queued
  O1Entity next; // run_list links within array.queue[prio]; null at the ends
  O1Entity prev;

  /*
   * set_cpus_allowed of a running task: 2.5.5 makes it sleep, schedule() deactivates it and the
   * target CPU's migration IPI wakes it there. The move is remembered here until the task's own
   * CPU next schedules (see O1Scheduler.pickNext).
   */
  boolean migrationPending; // true iff migrationTarget holds a CPU to move to
  int migrationTarget;

  O1Entity(TaskView task) {
    super(task);
  }

  /** Dynamic priority (lower is better); 140 for idle tasks. */
  public int prio() {
    return prio;
  }

  /** {@code static_prio}: {@code NICE_TO_PRIO(nice)}. */
  public int staticPrio() {
    return staticPrio;
  }

  /** {@code sleep_avg}, ticks. */
  public int sleepAvg() {
    return sleepAvg;
  }

  /** {@code sleep_timestamp}, jiffies. */
  public long sleepTimestamp() {
    return sleepTimestamp;
  }

  /** {@code time_slice}, ticks left. */
  public int timeSlice() {
    return timeSlice;
  }

  /** True if the task sits in a priority array (runnable, or running). */
  public boolean isQueued() {
    return array != null;
  }

  /** {@code rt_task(p)}: in 2.5.5 a test of the priority, not of the policy. */
  boolean isRt() {
    return prio < O1Tunables.MAX_RT_PRIO;
  }

  @Override
  public String toString() {
    return task() + "{prio=" + prio + " static=" + staticPrio + " sleep_avg=" + sleepAvg
        + " slice=" + timeSlice + "}";
  }
}
