package dev.kernellab.sched.o1;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models {@code struct runqueue}, kernel/sched.c (2.5.5, K3): one per CPU, owning two
 * {@link PrioArray}s. The lock is implicit: the simulation is single-threaded, and every
 * scheduler method runs as if this runqueue's lock were held with interrupts off.
 */
@Models(file = "kernel/sched.c", function = "struct runqueue", version = "2.5.5")
final class Runqueue {

  final int cpu;
  int nrRunning; // active.nrActive + expired.nrActive; counts the running task, never idle
  long nrSwitches; // context switches (statistics only)
  long expiredTimestamp; // jiffies of the first expiry into the current expired array; 0 = none
  TaskView curr; // the task running here: idle, or a task queued in this runqueue
  TaskView idle;
  PrioArray active = new PrioArray(); // active/expired are arrays[0..1]; a switch swaps them
  PrioArray expired = new PrioArray();
  final int[] prevNrRunning; // every CPU's nr_running as seen at this CPU's last load_balance

  Runqueue(int cpu, int cpus) {
    this.cpu = cpu;
    this.prevNrRunning = new int[cpus];
  }

  /** The array switch of {@code schedule()}: swap two references, forget the expiry stamp. */
  void switchArrays() {
    PrioArray a = active;
    active = expired;
    expired = a;
    expiredTimestamp = 0;
  }

  /**
   * {@code EXPIRED_STARVING(rq)}: the oldest expired task has waited STARVATION_LIMIT per
   * runnable task. A stamp of 0 reads as "none" (2.5.5 kernel/sched.c EXPIRED_STARVING), so
   * an expiry stamped while jiffies is still 0 (kernel/timer.c starts it there) is not seen.
   */
  @Models(file = "kernel/sched.c", function = "EXPIRED_STARVING", version = "2.5.5")
  boolean expiredStarving(long jiffies, int starvationLimitTicks) {
    return expiredTimestamp != 0
        && jiffies - expiredTimestamp >= (long) starvationLimitTicks * nrRunning + 1;
  }

  /** {@code activate_task}: credit whole ticks slept (not RT), new prio, into active. */
  @Models(file = "kernel/sched.c", function = "activate_task", version = "2.5.5")
  void activateTask(O1Entity e, long jiffies, O1Tunables tunables) {
    long sleepTime = jiffies - e.sleepTimestamp;
    if (!e.isRt() && sleepTime > 0) {
      e.sleepAvg = (int) Math.min(tunables.maxSleepAvgTicks(), e.sleepAvg + sleepTime);
      e.prio = tunables.effectivePrio(e.staticPrio, e.sleepAvg);
    }
    active.enqueue(e);
    nrRunning++;
  }

  /** {@code deactivate_task}: off its array; the caller stamps nothing (schedule() does). */
  @Models(file = "kernel/sched.c", function = "deactivate_task", version = "2.5.5")
  void deactivateTask(O1Entity e) {
    nrRunning--;
    e.array.dequeue(e);
    e.array = null;
  }
}
