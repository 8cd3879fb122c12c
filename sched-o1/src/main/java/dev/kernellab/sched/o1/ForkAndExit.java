package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Scheduler.entity;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models the scheduler's part of process creation and reaping (2.5.5, K3): kernel/fork.c:
 * {@code do_fork()} (timeslice split), kernel/sched.c: {@code wake_up_forked_process()} and
 * {@code sched_exit()} (called from kernel/exit.c: {@code release_task()}).
 */
final class ForkAndExit {

  /*
   * Implementation overview
   *
   * Fork splits the parent's remaining slice so that forking cannot mint CPU time:
   * child = (parent + 1) / 2, parent = parent / 2. A parent left with 0 gets 1 and an immediate
   * scheduler_tick(0, 0), which expires it on the spot. The child inherits sleep_avg minus
   * CHILD_PENALTY and starts on the forking CPU's active array; the parent asks to be
   * rescheduled "to let the child run first". 2.5.5 does not requeue the parent, so if the parent
   * heads the best list it is picked again: the child runs first only with a strictly better
   * prio (2.5.5 kernel/fork.c do_fork() and kernel/sched.c wake_up_forked_process(); mid-2002
   * kernels queued the child just ahead of the parent).
   *
   * Reaping returns the child's unused slice to the reaper (capped at MAX_TIMESLICE) and, if
   * the child was the bigger CPU hog, pulls the reaper's sleep_avg toward the child's with
   * weight EXIT_WEIGHT:1.
   */

  private final O1Scheduler sched;

  ForkAndExit(O1Scheduler sched) {
    this.sched = sched;
  }

  /**
   * The scheduler half of {@code do_fork}: the copied task_struct fields and the slice split.
   * The child's policy, rt_priority and nice are copied onto its {@link TaskView} too, since in C
   * they are part of the same struct copy.
   */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.5.5")
  void fork(TaskView parent, TaskView child) {
    O1Entity pe = entity(parent);
    O1Entity ce = entity(child);
    SchedulerHost host = sched.host();
    if (parent.isIdle()) {
      // Only boot code forks from an idle task; its child starts like a boot task.
      ce.sleepTimestamp = host.jiffies();
      return;
    }
    host.setPolicy(child, parent.policy(), parent.rtPriority());
    host.setNice(child, O1Tunables.prioToNice(pe.staticPrio));
    host.setCpusAllowed(child, parent.cpusAllowed());
    // A loan of priority inheritance is the parent's alone (6.12's sched_fork starts the child
    // at the parent's normal_prio); 2.5.5 copies the dynamic prio, which is the same without one.
    ce.prio = parent.inheritedRtPriority() > 0 ? PriorityCalls.normalPrio(parent, pe, sched.tunables()) : pe.prio;
    ce.staticPrio = pe.staticPrio;
    ce.sleepAvg = pe.sleepAvg;
    ce.array = null;
    ce.timeSlice = (pe.timeSlice + 1) / 2;
    pe.timeSlice /= 2;
    if (pe.timeSlice == 0) {
      // The parent had one tick left: give it that tick and account it at once, which runs
      // the normal tick path (sleep_avg decay, expiry, maybe a busy rebalance).
      pe.timeSlice = 1;
      sched.tick(parent.cpu(), false);
    }
    ce.sleepTimestamp = host.jiffies();
  }

  /**
   * {@code wake_up_forked_process}, or for a boot task (no parent) the {@code wake_up_process}
   * of sched_init: queue on the current CPU's active array.
   */
  @Models(file = "kernel/sched.c", function = "wake_up_forked_process", version = "2.5.5")
  void wakeUpNewTask(TaskView child, TaskView parent) {
    O1Entity ce = entity(child);
    SchedulerHost host = sched.host();
    host.setRunning(child);
    if (parent == null || parent.isIdle()) {
      sched.tryToWakeUp(child, false);
      return;
    }
    if (!ce.isRt()) {
      O1Entity pe = entity(parent);
      pe.sleepAvg = pe.sleepAvg * O1Tunables.PARENT_PENALTY / 100;
      ce.sleepAvg = ce.sleepAvg * O1Tunables.CHILD_PENALTY / 100;
      ce.prio = sched.tunables().effectivePrio(ce.staticPrio, ce.sleepAvg);
    }
    int cpu = host.thisCpu();
    host.setCpu(child, cpu);
    sched.rq(cpu).activateTask(ce, host.jiffies(), sched.tunables());
    // do_fork, after wake_up_forked_process, unless CLONE_VFORK (the seam has no clone flags).
    host.setNeedResched(parent, true);
  }

  /** {@code sched_exit(p)} with {@code current} = the reaper. */
  @Models(file = "kernel/sched.c", function = "sched_exit", version = "2.5.5")
  void schedExit(TaskView reaper, TaskView child) {
    if (reaper.isIdle()) {
      return;
    }
    O1Entity re = entity(reaper);
    O1Entity ce = entity(child);
    re.timeSlice = Math.min(sched.tunables().maxTimesliceTicks(), re.timeSlice + ce.timeSlice);
    if (ce.sleepAvg < re.sleepAvg) {
      re.sleepAvg = (re.sleepAvg * O1Tunables.EXIT_WEIGHT + ce.sleepAvg)
          / (O1Tunables.EXIT_WEIGHT + 1);
    }
  }
}
