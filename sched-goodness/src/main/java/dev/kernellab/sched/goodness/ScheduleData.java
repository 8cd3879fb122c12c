package dev.kernellab.sched.goodness;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.MmView;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models kernel/sched.c: {@code struct schedule_data} in {@code aligned_data[NR_CPUS]}
 * ({@code curr}, {@code last_schedule}) and each CPU's {@code active_mm} (2.4.17).
 *
 * <p>{@code cpu_curr(cpu)} is the scheduler's own record of who runs where; it changes inside
 * schedule() before the generic half switches, which is what lets the post-switch
 * {@code reschedule_idle(prev)} see the incoming task as the CPU's current.
 */
@Models(file = "kernel/sched.c", function = "struct schedule_data", version = "2.4.17")
final class ScheduleData {

  /*
   * Implementation overview
   *
   * One slot per CPU. last_schedule is the time of the CPU's last switch (get_cycles() in C,
   * host.now() here): reschedule_idle() sends a woken task to the idle CPU with the smallest
   * one, the CPU idle longest and so with the coldest cache. active_mm follows the lazy-TLB
   * rule: switching to a task with an mm loads it; switching to a kernel thread or the idle
   * task keeps the previous one (they borrow it), so a user task that comes back right after a
   * kernel thread still earns goodness()'s same-mm bonus. null stands for init_mm, the boot
   * page tables no user task shares.
   */

  private final TaskView[] curr; // cpu_curr(cpu): idle, or a task whose cpus_runnable is 1 << cpu
  private final long[] lastScheduleNs; // time of the CPU's last switch; 0 before any
  private final MmView[] activeMm; // mm loaded on the CPU; null = init_mm

  ScheduleData(int cpus) {
    curr = new TaskView[cpus];
    lastScheduleNs = new long[cpus];
    activeMm = new MmView[cpus];
  }

  /** {@code init_idle}: the CPU starts in its idle task. */
  @Models(file = "kernel/sched.c", function = "init_idle", version = "2.4.17")
  void initIdle(int cpu, TaskView idle) {
    curr[cpu] = idle;
  }

  /** {@code cpu_curr(cpu)}. */
  @Models(file = "kernel/sched.c", function = "cpu_curr", version = "2.4.17")
  TaskView curr(int cpu) {
    return curr[cpu];
  }

  /** {@code last_schedule(cpu)}, ns. */
  @Models(file = "kernel/sched.c", function = "last_schedule", version = "2.4.17")
  long lastScheduleNs(int cpu) {
    return lastScheduleNs[cpu];
  }

  /** The CPU's {@code active_mm}; null for init_mm. */
  MmView activeMm(int cpu) {
    return activeMm[cpu];
  }

  /** schedule() switches {@code cpu} to {@code next} at {@code nowNs}. */
  void switchTo(int cpu, TaskView next, long nowNs) {
    curr[cpu] = next;
    lastScheduleNs[cpu] = nowNs;
    if (next.mm() != null) {
      activeMm[cpu] = next.mm();
    }
  }

  /** True if {@code cpu} runs its idle task. */
  boolean isIdle(int cpu) {
    return curr[cpu].isIdle();
  }

  /** CPUs running a task other than their idle task. */
  int busyCpus() {
    int n = 0;
    for (TaskView t : curr) {
      if (!t.isIdle()) {
        n++;
      }
    }
    return n;
  }

  /** Number of CPUs. */
  int cpus() {
    return curr.length;
  }

  /** Checks that cpu_curr agrees with the host and with cpus_runnable; throws otherwise. */
  void check(SchedulerHost host) {
    for (int cpu = 0; cpu < curr.length; cpu++) {
      TaskView t = curr[cpu];
      if (t != host.current(cpu)) {
        throw new IllegalStateException("cpu_curr(" + cpu + ") is " + t + " but cpu" + cpu
            + " runs " + host.current(cpu));
      }
      if (!t.isIdle() && GoodnessEntity.of(t).cpusRunnable != 1L << cpu) {
        throw new IllegalStateException(t + " runs on cpu" + cpu + " but cpus_runnable is "
            + Long.toHexString(GoodnessEntity.of(t).cpusRunnable));
      }
    }
  }
}
