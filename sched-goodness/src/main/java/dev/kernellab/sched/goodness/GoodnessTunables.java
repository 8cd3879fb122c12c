package dev.kernellab.sched.goodness;

import dev.kernellab.hw.Models;

/**
 * Models kernel/sched.c and include/linux/sched.h: the tuning knobs of the 2.4 scheduler
 * (2.4.17), for any HZ, plus the cost assumptions of this model.
 *
 * <p>The kernel writes the HZ-dependent ones as function-like macros; they keep their kernel
 * names here so that a reader can grep for them in both trees:
 *
 * <pre>{@code
 * int slice = GoodnessTunables.NICE_TO_TICKS(0, 100);   // 6 ticks = 60 ms at HZ=100
 * int cap = GoodnessTunables.MAX_COUNTER(100);          // 20 ticks
 * }</pre>
 *
 * <p>Reference: 2.4.17 kernel/sched.c {@code TICK_SCALE}, {@code NICE_TO_TICKS}; 2.4.17
 * include/linux/sched.h {@code DEF_COUNTER}, {@code MAX_COUNTER}; include/asm-i386/param.h
 * {@code HZ}.
 */
public final class GoodnessTunables {

  /*
   * Implementation overview
   *
   * TICK_SCALE turns "20 - nice" (1..40) into ticks so that a nice-0 slice stays near 50-60 ms
   * at HZ = 100, 200, 400, 800, 1600 (and never below half that in between): at HZ=100 it
   * divides by 4, and each doubling of HZ doubles the scale.
   * NICE_TO_TICKS adds one so that even nice 19 gets a tick. The epoch recalculation
   * counter = counter / 2 + NICE_TO_TICKS(nice) has the fixed point 2 * NICE_TO_TICKS - 1 or
   * 2 * NICE_TO_TICKS, which is why sleepers' credit stays bounded
   * (docs/scheduler-invariants.md 17).
   *
   * The cost constants at the bottom are not kernel constants: they are what this model charges
   * for the work the C code does, stated as loads of the machine's cost table.
   */

  /**
   * Bonus for a task that last ran on the CPU doing the pick, SMP only (include/asm-i386/
   * smp.h: {@code PROC_CHANGE_PENALTY}, 15 on i386): cache affinity in goodness units.
   */
  public static final int PROC_CHANGE_PENALTY = 15;

  /**
   * {@code current->counter = -100} in cpu_idle() (arch/i386/kernel/process.c, 2.4.17): the
   * idle task's counter, so that any woken task beats it in preemption_goodness().
   */
  public static final int IDLE_COUNTER = -100;

  /** {@code current->nice = 20} in cpu_idle(): outside the -20..19 users may set. */
  public static final int IDLE_NICE = 20;

  /** goodness() of a task that called sched_yield(): after everybody else, before idle. */
  public static final int YIELD_GOODNESS = -1;

  /** goodness() base of SCHED_FIFO and SCHED_RR tasks: 1000 + rt_priority. */
  public static final int RT_GOODNESS_BASE = 1000;

  /** schedule()'s starting best weight ({@code c = -1000}): below every task but never chosen. */
  public static final int NO_CANDIDATE_GOODNESS = -1000;

  // Model cost assumptions (not kernel constants). The 2.4 task_struct keeps counter, nice,
  // policy, mm, processor, cpus_runnable, cpus_allowed and run_list together at its head, so
  // one scanned task is one dependent pointer chase plus reads of that line: two loads, which
  // stay in L2 because schedule() walks the same list every few milliseconds.

  /** Loads per task the goodness loop of schedule() walks ({@code list_for_each}). */
  public static final int SCAN_LOADS_PER_TASK = 2;

  /**
   * Memory loads per task the recalculation walks ({@code for_each_task}): one line per task,
   * from main memory, because most tasks have not run since the last epoch (tens of ms ago).
   */
  public static final int RECALC_MEMORY_LOADS_PER_TASK = 1;

  /** L2 loads of one try_to_wake_up besides reschedule_idle's per-CPU reads: the list insert. */
  public static final int WAKEUP_LOADS = 4;

  private GoodnessTunables() {}

  /**
   * {@code TICK_SCALE(x)} (kernel/sched.c, 2.4.17): x/4 for HZ &lt; 200, x/2 for HZ &lt; 400, x
   * for HZ &lt; 800, 2x for HZ &lt; 1600, else 4x.
   */
  @Models(file = "kernel/sched.c", function = "TICK_SCALE", version = "2.4.17")
  public static int TICK_SCALE(int x, int hz) {
    requireHz(hz);
    if (hz < 200) {
      return x >> 2;
    } else if (hz < 400) {
      return x >> 1;
    } else if (hz < 800) {
      return x;
    } else if (hz < 1600) {
      return x << 1;
    }
    return x << 2;
  }

  /** {@code NICE_TO_TICKS(nice)} = TICK_SCALE(20 - nice) + 1: a full slice for {@code nice}. */
  @Models(file = "kernel/sched.c", function = "NICE_TO_TICKS", version = "2.4.17")
  public static int NICE_TO_TICKS(int nice, int hz) {
    return TICK_SCALE(20 - nice, hz) + 1;
  }

  /** {@code DEF_COUNTER} = 10 * HZ / 100: the init task's counter (about 100 ms). */
  @Models(file = "include/linux/sched.h", function = "DEF_COUNTER", version = "2.4.17")
  public static int DEF_COUNTER(int hz) {
    requireHz(hz);
    return 10 * hz / 100;
  }

  /** {@code MAX_COUNTER} = 20 * HZ / 100: the cap on a reaper's reclaimed counter. */
  @Models(file = "include/linux/sched.h", function = "MAX_COUNTER", version = "2.4.17")
  public static int MAX_COUNTER(int hz) {
    requireHz(hz);
    return 20 * hz / 100;
  }

  /**
   * The bound of docs/scheduler-invariants.md 17 on a task's counter at a fixed nice:
   * max(MAX_COUNTER, 2 * NICE_TO_TICKS(nice)).
   */
  public static int counterBound(int nice, int hz) {
    return Math.max(MAX_COUNTER(hz), 2 * NICE_TO_TICKS(nice, hz));
  }

  private static void requireHz(int hz) {
    if (hz < 1) {
      throw new IllegalArgumentException("HZ must be >= 1, got " + hz);
    }
  }
}
