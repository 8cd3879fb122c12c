package dev.kernellab.sched.goodness;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models kernel/sched.c: {@code reschedule_idle()} (2.4.17): where a task that became runnable
 * (woken, forked, or preempted and pushed away) should run, and whose need_resched to set.
 *
 * <p>Called with runqueue_lock held, from try_to_wake_up() and from the tail of schedule().
 * The IPI mechanics are the host's: to an idle CPU only if its flag was clear
 * ({@code send_now_idle}: the idle loop watches the flag; {@link SchedulerHost#reschedule(int)}),
 * to a busy CPU always ({@link SchedulerHost#rescheduleAndInterrupt(int)}).
 *
 * <p>Reference: 2.4.17 kernel/sched.c {@code reschedule_idle()}, {@code try_to_wake_up()}.
 */
final class RescheduleIdle {

  /*
   * Implementation overview
   *
   * UP: one comparison, preemption_goodness(current, p) > 0 sets current's need_resched.
   *
   * SMP, in order (the first that applies wins):
   *   (a) p's last CPU (p->processor) may run p and is idle: kick that idle CPU. Its cache is
   *       most likely still warm with p.
   *   (b) among the CPUs allowed for p, the idle one with the smallest last_schedule: the CPU
   *       idle longest, whose cache p pollutes least. Equal stamps: the lower CPU number wins
   *       (strict <, CPUs scanned in order, as the C loop does).
   *   (c) no allowed CPU idle: the CPU whose current task has the largest positive
   *       preemption_goodness(curr, p); ties to the lower CPU number. None positive: nobody
   *       is disturbed, and p waits on the list for the next schedule() anywhere.
   *
   * Not modelled: the hyper-threading sibling shortcut of (b), which needs a sibling map the
   * machine does not have.
   */

  private final SchedulerHost host;
  private final ScheduleData data;
  private final RunqueueList runqueue;
  private final boolean smp;

  RescheduleIdle(SchedulerHost host, ScheduleData data, RunqueueList runqueue, boolean smp) {
    this.host = host;
    this.data = data;
    this.runqueue = runqueue;
    this.smp = smp;
  }

  /** {@code reschedule_idle(p)}: p is runnable and not running; maybe ask a CPU to pick it. */
  @Models(file = "kernel/sched.c", function = "reschedule_idle", version = "2.4.17")
  void run(TaskView p) {
    runqueue.assertLocked();
    if (!smp) {
      int cpu = host.thisCpu();
      if (Goodness.preemptionGoodness(data.curr(cpu), p, cpu, data.activeMm(cpu), false) > 0) {
        resched(cpu);
      }
      return;
    }
    GoodnessEntity e = GoodnessEntity.of(p);
    int last = p.cpu();
    if (e.canSchedule(last) && data.isIdle(last)) {
      resched(last);
      return;
    }
    boolean idleFound = false;
    long oldestIdleNs = 0;
    boolean busyFound = false;
    int maxPrio = 0;
    int target = 0;
    for (int cpu = 0; cpu < data.cpus(); cpu++) {
      if (!e.canSchedule(cpu)) {
        continue;
      }
      TaskView tsk = data.curr(cpu);
      if (tsk.isIdle()) {
        if (!idleFound || data.lastScheduleNs(cpu) < oldestIdleNs) {
          idleFound = true;
          oldestIdleNs = data.lastScheduleNs(cpu);
          target = cpu;
        }
      } else if (!idleFound) {
        int prio = Goodness.preemptionGoodness(tsk, p, cpu, data.activeMm(cpu), true);
        if (prio > maxPrio) {
          maxPrio = prio;
          busyFound = true;
          target = cpu;
        }
      }
    }
    if (idleFound) {
      resched(target);
    } else if (busyFound) {
      reschedBusy(target);
    }
  }

  /** The busy path: {@code tsk->need_resched = 1; smp_send_reschedule()}, flag set or not. */
  private void reschedBusy(int cpu) {
    TaskView t = data.curr(cpu);
    if (host.current(cpu) == t) {
      host.rescheduleAndInterrupt(cpu);
    } else {
      host.setNeedResched(t, true);
    }
  }

  /**
   * {@code resched_task(cpu_curr(cpu))}. Inside schedule() this CPU's {@code cpu_curr} is
   * already the incoming task while the host still shows the outgoing one: that flag is set
   * directly, as the kernel does for its own CPU (no IPI is ever sent to oneself).
   */
  private void resched(int cpu) {
    TaskView t = data.curr(cpu);
    if (host.current(cpu) == t) {
      host.reschedule(cpu);
    } else {
      host.setNeedResched(t, true);
    }
  }
}
