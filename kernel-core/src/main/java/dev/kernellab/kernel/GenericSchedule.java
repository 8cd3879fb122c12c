package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;

/**
 * The generic half of {@code schedule()} that both 2.4.17's and 2.5.5's kernel/sched.c share
 * around the scheduler's own pick, written once for the {@link Kernel} and for
 * {@link StandaloneSchedulerHost}: the state switch of a task that blocked, and when
 * need_resched is cleared.
 *
 * <p>Split in two because the kernel runs the policy's cost between them (SchedOps.PolicyCost):
 * a 2.4.17 recalculation drops the runqueue lock there, and a wake-up then may run in between.
 */
@Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
@Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
final class GenericSchedule {

  private GenericSchedule() {}

  /**
   * Under the runqueue lock, before any selection: {@code switch (prev->state)} takes a task
   * that blocked off the runqueue, unless it was preempted ({@code PREEMPT_ACTIVE}, which the
   * preempt-kernel patch adds to the test) or a signal is pending for an interruptible sleep
   * (then it stays {@code TASK_RUNNING}); a scheduler that clears need_resched before the pick
   * (2.4.17: before {@code repeat_schedule}) clears it here.
   */
  static void begin(Scheduler scheduler, Task prev, int cpu) {
    if (!prev.isIdle()
        && prev.state() != TaskState.RUNNING
        && (prev.preemptCount & PreemptCount.PREEMPT_ACTIVE) == 0) {
      if (prev.state() == TaskState.INTERRUPTIBLE && prev.signalPending()) {
        prev.setState(TaskState.RUNNING);
      } else {
        scheduler.deactivate(prev, cpu);
      }
    }
    if (scheduler.clearsNeedReschedBeforeSelection()) {
      prev.setNeedResched(false);
    }
  }

  /**
   * The scheduler's pick for {@code cpu}; a scheduler that clears need_resched after it (2.5.5:
   * {@code clear_tsk_need_resched(prev)}) clears it here. Returns the task to switch to, which
   * may be {@code prev}.
   */
  static Task pick(Scheduler scheduler, Task prev, int cpu) {
    Task next = Task.own(scheduler.pickNext(cpu, prev));
    if (!scheduler.clearsNeedReschedBeforeSelection()) {
      prev.setNeedResched(false);
    }
    return next;
  }
}
