package dev.kernellab.paths.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.CatalogEntry;
import java.util.List;

/**
 * Models kernel/sched.c {@code sys_sched_yield()} (2.4.17): the system call's own work, then
 * the policy's yield and the {@code schedule()} it leads to, which are the scheduler's
 * ({@code Scheduler.yield}, run by kernel-core's {@code schedYield()} operation).
 *
 * <pre>{@code
 * KernelPath.userProgram("worker").compute(100_000).syscall(Sched.sysSchedYield()).build();
 * }</pre>
 */
public final class Sched {

  /*
   * Implementation overview
   *
   * 2.4.17's sys_sched_yield counts the runnable tasks that are not running (nr_running less
   * the busy CPUs); if there is one, it sets SCHED_YIELD on a SCHED_OTHER caller (goodness()
   * then ranks it below everyone for one pass), sets need_resched, and moves the caller to
   * the tail of the runqueue under spin_lock_irq(&runqueue_lock); ret_from_sys_call then
   * schedules. With nobody waiting it returns at once. 2.5.5's (the O(1) scheduler) moves the
   * caller one priority level down in the active array (an RT task to the tail of its level)
   * and calls schedule() itself. Which of these happens is the
   * scheduler's; this path is what every policy shares: the call's own bookkeeping, then the
   * operation. The interrupts-off stretch of the list move is a few cached writes, left inside
   * the operation's instant.
   */

  /**
   * The call's own work: the nr_running test, the policy and need_resched writes, the
   * spin_lock_irq / spin_unlock_irq pair of runqueue_lock and move_last_runqueue's four pointer
   * writes. Assumption: ten cache lines that hit in L2 (the runqueue is hot: every schedule()
   * walks it), 10 x {@link Calibration#L2_HIT_NS}; a cold runqueue would pay DRAM misses, and
   * 2.4.17 on SMP also reads each CPU's schedule_data line. No era measurement of sched_yield
   * alone is cited (lmbench's lat_ctx includes the switch).
   */
  public static final long SCHED_YIELD_NS = 10 * Calibration.L2_HIT_NS;

  private Sched() {}

  /**
   * sched_yield(2): a new path each call, as the catalog's other system calls are built. The
   * catalog is 2.4.17's; under the O(1) scheduler the same path runs, with 2.5.5's policy half
   * (sched-o1's yield) and this path's 2.4.17 cost.
   */
  @Models(file = "kernel/sched.c", function = "sys_sched_yield", version = "2.4.17")
  public static KernelPath sysSchedYield() {
    return KernelPath.path("kernel/sched.c", "sys_sched_yield")
        .compute(SCHED_YIELD_NS)
        .schedYield()
        .build();
  }

  /** The rows of this file. */
  public static List<CatalogEntry> entries() {
    return List.of(
        new CatalogEntry(
            "sys_sched_yield", sysSchedYield(), List.of(),
            SCHED_YIELD_NS, SCHED_YIELD_NS,
            "none: fixed (the switch that follows is schedule()'s, whoever runs next)",
            "assumption: ten L2 hits (lmbench L2 latency, Calibration.L2_HIT_NS)"));
  }
}
