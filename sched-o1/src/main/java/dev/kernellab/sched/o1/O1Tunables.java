package dev.kernellab.sched.o1;

import dev.kernellab.hw.Models;

/**
 * Models the "tuning knobs" block and the priority macros of kernel/sched.c and
 * include/linux/sched.h (2.5.5, K3): every constant of the O(1) scheduler, with the values that
 * depend on HZ computed from HZ.
 *
 * <p>HZ-independent constants are static and keep their kernel names. The ones the kernel
 * writes as {@code ms * HZ / 1000} are components of this record in ticks, computed by
 * {@link #forHz(int)} from the {@code _MS} constants; {@code cache_decay_ticks} is a machine
 * parameter (i386 computes it at SMP boot from the cache size and clock; for 2002 hardware it
 * is 0 at HZ=100 and a few ticks at HZ=1000).
 *
 * <pre>{@code
 * O1Tunables t = O1Tunables.forHz(100);          // i386 in 2.5.5
 * t.taskTimeslice(O1Tunables.niceToPrio(0));     // 15 ticks
 * O1Tunables hot = t.withCacheDecayTicks(2);
 * }</pre>
 *
 * @param hz timer ticks per second
 * @param minTimesliceTicks {@code MIN_TIMESLICE}: 10 ms
 * @param maxTimesliceTicks {@code MAX_TIMESLICE}: 300 ms, also the cap of {@code sched_exit}
 * @param maxSleepAvgTicks {@code MAX_SLEEP_AVG}: 2 s, the cap of {@code sleep_avg}
 * @param starvationLimitTicks {@code STARVATION_LIMIT}: 2 s per runnable task
 * @param busyRebalanceTicks {@code BUSY_REBALANCE_TICK}: HZ/4 (250 ms), at least 1
 * @param idleRebalanceTicks {@code IDLE_REBALANCE_TICK}: HZ/1000 (1 ms), at least 1
 * @param cacheDecayTicks {@code cache_decay_ticks}: a task that left a CPU within this many
 *     ticks is cache-hot and is not migrated by {@code load_balance}
 */
public record O1Tunables(
    int hz,
    int minTimesliceTicks,
    int maxTimesliceTicks,
    int maxSleepAvgTicks,
    int starvationLimitTicks,
    int busyRebalanceTicks,
    int idleRebalanceTicks,
    int cacheDecayTicks) {

  /** {@code MAX_RT_PRIO}: prios 0..99 are real-time. */
  public static final int MAX_RT_PRIO = 100;
  /** {@code MAX_PRIO}: prios 100..139 are SCHED_OTHER; 140 is the idle task and the delimiter. */
  public static final int MAX_PRIO = 140;
  /** {@code MAX_USER_RT_PRIO}: {@code prio = MAX_USER_RT_PRIO - 1 - rt_priority}. */
  public static final int MAX_USER_RT_PRIO = 100;
  /** {@code MAX_USER_PRIO}: the 40 nice levels. */
  public static final int MAX_USER_PRIO = 40;
  /** {@code CHILD_PENALTY}: percent of the parent's sleep_avg a forked child keeps. */
  public static final int CHILD_PENALTY = 95;
  /** {@code PARENT_PENALTY}: percent of its sleep_avg a forking parent keeps (a no-op in 2.5.5). */
  public static final int PARENT_PENALTY = 100;
  /** {@code EXIT_WEIGHT}: parent:child weight when a CPU-hog child is reaped. */
  public static final int EXIT_WEIGHT = 3;
  /** {@code PRIO_BONUS_RATIO}: percent of the 40 nice levels the sleep bonus spans (10 = ±5). */
  public static final int PRIO_BONUS_RATIO = 25;
  /** {@code INTERACTIVE_DELTA}: bonus levels beyond the nice-scaled delta to count as interactive. */
  public static final int INTERACTIVE_DELTA = 2;
  /** {@code MIN_TIMESLICE} in milliseconds. */
  public static final int MIN_TIMESLICE_MS = 10;
  /** {@code MAX_TIMESLICE} in milliseconds. */
  public static final int MAX_TIMESLICE_MS = 300;
  /** {@code MAX_SLEEP_AVG} in milliseconds. */
  public static final int MAX_SLEEP_AVG_MS = 2_000;
  /** {@code STARVATION_LIMIT} in milliseconds. */
  public static final int STARVATION_LIMIT_MS = 2_000;
  /** {@code BUSY_REBALANCE_TICK} in milliseconds. */
  public static final int BUSY_REBALANCE_TICK_MS = 250;
  /** {@code IDLE_REBALANCE_TICK} in milliseconds. */
  public static final int IDLE_REBALANCE_TICK_MS = 1;
  /** Words of {@code BITMAP_SIZE}: 141 bits (140 priorities and the delimiter) in longs. */
  public static final int BITMAP_WORDS = (MAX_PRIO + 1 + 63) / 64;

  /** Validates that every tick count is positive (cache_decay_ticks may be 0). */
  public O1Tunables {
    if (hz < 1 || minTimesliceTicks < 1 || maxTimesliceTicks < minTimesliceTicks
        || maxSleepAvgTicks < 1 || starvationLimitTicks < 1 || busyRebalanceTicks < 1
        || idleRebalanceTicks < 1 || cacheDecayTicks < 0) {
      throw new IllegalArgumentException(hz >= 1 && minTimesliceTicks < 1
          ? "the O(1) scheduler needs HZ of " + (1000 / MIN_TIMESLICE_MS) + " or more (MIN_TIMESLICE, "
              + MIN_TIMESLICE_MS + " ms, is at least one tick), got " + hz
          : "invalid O(1) tunables at HZ=" + hz);
    }
  }

  /**
   * The 2.5.5 values at {@code hz}, with {@code cache_decay_ticks} 0 (the i386 value for 2002
   * hardware at HZ=100). The kernel's integer arithmetic: {@code 10 * HZ / 1000}, and the
   * rebalance ticks {@code HZ/4 ?: 1}, {@code HZ/1000 ?: 1}.
   */
  public static O1Tunables forHz(int hz) {
    return new O1Tunables(
        hz,
        MIN_TIMESLICE_MS * hz / 1000,
        MAX_TIMESLICE_MS * hz / 1000,
        MAX_SLEEP_AVG_MS * hz / 1000,
        STARVATION_LIMIT_MS * hz / 1000,
        Math.max(1, BUSY_REBALANCE_TICK_MS * hz / 1000),
        Math.max(1, IDLE_REBALANCE_TICK_MS * hz / 1000),
        0);
  }

  /** The same tunables with another {@code cache_decay_ticks}. */
  public O1Tunables withCacheDecayTicks(int ticks) {
    return new O1Tunables(hz, minTimesliceTicks, maxTimesliceTicks, maxSleepAvgTicks,
        starvationLimitTicks, busyRebalanceTicks, idleRebalanceTicks, ticks);
  }

  /** {@code NICE_TO_PRIO(nice)}: nice -20..19 to static prio 100..139. */
  @Models(file = "kernel/sched.c", function = "NICE_TO_PRIO", version = "2.5.5")
  public static int niceToPrio(int nice) {
    return MAX_RT_PRIO + nice + 20;
  }

  /** {@code PRIO_TO_NICE(prio)}, and {@code TASK_NICE(p)} applied to {@code static_prio}. */
  @Models(file = "kernel/sched.c", function = "PRIO_TO_NICE", version = "2.5.5")
  public static int prioToNice(int prio) {
    return prio - MAX_RT_PRIO - 20;
  }

  /** The RT mapping of setscheduler: rt_priority 99 is prio 0, rt_priority 1 is prio 98. */
  public static int rtPrio(int rtPriority) {
    return MAX_USER_RT_PRIO - 1 - rtPriority;
  }

  /**
   * {@code TASK_TIMESLICE(p)}: from the static priority only, never the dynamic bonus; integer
   * arithmetic with the multiplication first, as the macro expands.
   */
  @Models(file = "kernel/sched.c", function = "TASK_TIMESLICE", version = "2.5.5")
  public int taskTimeslice(int staticPrio) {
    return minTimesliceTicks
        + (maxTimesliceTicks - minTimesliceTicks) * (MAX_PRIO - 1 - staticPrio)
            / (MAX_USER_PRIO - 1);
  }

  /**
   * The sleep bonus of {@code effective_prio}, -5..+5. The C first term is unsigned and the
   * subtraction wraps back to a negative int; signed longs give the same numbers.
   */
  public int bonus(int sleepAvg) {
    long first = (long) MAX_USER_PRIO * PRIO_BONUS_RATIO * sleepAvg / maxSleepAvgTicks / 100;
    return (int) (first - MAX_USER_PRIO * PRIO_BONUS_RATIO / 100 / 2);
  }

  /** {@code effective_prio} for a SCHED_OTHER task: static_prio minus the bonus, clamped. */
  @Models(file = "kernel/sched.c", function = "effective_prio", version = "2.5.5")
  public int effectivePrio(int staticPrio, int sleepAvg) {
    int prio = staticPrio - bonus(sleepAvg);
    return Math.max(MAX_RT_PRIO, Math.min(MAX_PRIO - 1, prio));
  }

  /**
   * {@code DELTA(p)}: {@code SCALE(TASK_NICE(p), 40, 10) + INTERACTIVE_DELTA}. Java's division
   * truncates toward zero like C's, so nice -1..-3 scale to 0, not -1.
   */
  @Models(file = "kernel/sched.c", function = "DELTA", version = "2.5.5")
  public static int delta(int staticPrio) {
    return prioToNice(staticPrio) * (MAX_USER_PRIO * PRIO_BONUS_RATIO / 100) / MAX_USER_PRIO
        + INTERACTIVE_DELTA;
  }

  /** {@code TASK_INTERACTIVE(p)}: the prio is at least DELTA levels better than static_prio. */
  @Models(file = "kernel/sched.c", function = "TASK_INTERACTIVE", version = "2.5.5")
  public static boolean taskInteractive(int prio, int staticPrio) {
    return prio <= staticPrio - delta(staticPrio);
  }
}
