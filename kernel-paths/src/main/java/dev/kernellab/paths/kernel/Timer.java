package dev.kernellab.paths.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TimerBh;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.CatalogEntry;
import java.util.List;

/**
 * Models kernel/timer.c {@code sys_nanosleep()} (2.4.17), and lists the timer interrupt
 * (arch/i386/kernel/time.c {@code timer_interrupt}, {@code do_timer}) and the timer bottom
 * half's two loops ({@code run_timer_list}, {@code calc_load}'s {@code count_active_tasks}),
 * which kernel-core installs itself ({@code TimerBh}); their rows use the catalog's memory
 * latency where the kernel charges its machine's.
 */
public final class Timer {

  /** copy_from_user of the timespec, timespec_to_jiffies: assumption, 300 ns. */
  public static final long NANOSLEEP_SETUP_NS = 300;
  /** Timers run per tick, for the table's row: assumption, 1 typical, 1,000 in the tail. */
  static final long TYPICAL_TIMERS = 1;
  static final long TAIL_TIMERS = 1_000;
  /** Tasks count_active_tasks walks, for the table's row: assumption, 60 typical, 1,000 in the tail. */
  static final long TYPICAL_TASKS = 60;
  static final long TAIL_TASKS = 1_000;

  private Timer() {}

  /**
   * nanosleep(2) of {@code ns}: rounded up to jiffies plus one, or a udelay busy-wait for a
   * real-time task asking for 2 ms or less, as 2.4.17 does.
   */
  @Models(file = "kernel/timer.c", function = "sys_nanosleep", version = "2.4.17")
  public static KernelPath sysNanosleep(long ns) {
    return KernelPath.path("kernel/timer.c", "sys_nanosleep")
        .compute(NANOSLEEP_SETUP_NS)
        .nanosleep(Distribution.fixed(ns))
        .build();
  }

  /** The rows of this file; {@code pitReadNs} is the machine's PIT latch cost. */
  public static List<CatalogEntry> entries(long pitReadNs) {
    KernelPath listing =
        KernelPath.path("arch/i386/kernel/time.c", "timer_interrupt")
            .compute(pitReadNs)
            .build();
    long timerNs = TimerBh.MISSES_PER_TIMER * Calibration.MEMORY_MISS_NS;
    long taskNs = TimerBh.MISSES_PER_TASK * Calibration.MEMORY_MISS_NS;
    KernelPath runTimerList =
        KernelPath.path("kernel/timer.c", "run_timer_list").compute(timerNs).build();
    KernelPath countActiveTasks =
        KernelPath.path("kernel/timer.c", "count_active_tasks").compute(taskNs).build();
    return List.of(
        new CatalogEntry(
            "run_timer_list (kernel-core, timer_bh)", runTimerList, List.of("softirq (bh count)",
                "irqs off per timer (timerlist_lock, spin_lock_irq)"),
            TYPICAL_TIMERS * timerNs, TAIL_TIMERS * timerNs,
            "many timers due on one tick: per-socket TCP timers, a server's timeouts",
            "2 DRAM misses a timer (detach_timer; lmbench 175 ns), the handler's own work apart;"
                + " timers per tick from the load (assumption for the row: 1, tail 1,000)"),
        new CatalogEntry(
            "count_active_tasks (kernel-core, calc_load)", countActiveTasks, List.of("softirq (bh count)"),
            TYPICAL_TASKS * taskNs, TAIL_TASKS * taskNs,
            "every task walked every 5 s (LOAD_FREQ), however many sleep: a server of 1,000 tasks",
            "2 DRAM misses a task (p->state, p->next_task; lmbench 175 ns); the row's task counts"
                + " are assumptions (60, tail 1,000)"),
        new CatalogEntry(
            "sys_nanosleep", sysNanosleep(1_000_000), List.of(),
            NANOSLEEP_SETUP_NS, NANOSLEEP_SETUP_NS, "none: fixed (the sleep is not CPU time)",
            "assumption"),
        new CatalogEntry(
            "timer_interrupt (kernel-core)", listing, List.of("irqs off (SA_INTERRUPT)"),
            pitReadNs, pitReadNs, "none; the timer softirq it raises runs the timer list",
            "PIT latch read, CostTable.pitReadNs (docs/hardware-and-costs.md, PIT)"));
  }
}
