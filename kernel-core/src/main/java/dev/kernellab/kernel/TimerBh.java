package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import java.util.Locale;

/**
 * The timer bottom half of 2.4.17, kernel/timer.c {@code timer_bh()}: {@code update_times()}
 * with {@code calc_load()}, whose {@code count_active_tasks()} walks the whole task list every
 * {@code LOAD_FREQ}, and {@code run_timer_list()}, which runs every expired timer. It runs as
 * the HI softirq on every tick ({@code mark_bh(TIMER_BH)} in {@code do_timer}), so what it costs
 * is softirq time that no preemption model can interrupt.
 *
 * <p>Its two loops are at {@link #RUN_TIMER_LIST} and {@link #COUNT_ACTIVE_TASKS}, and each
 * declares its cause, so a latency analysis names them in the load's terms:
 * {@code run_timer_list: 14 timers}, {@code count_active_tasks: 180 tasks}.
 */
@Models(file = "kernel/timer.c", function = "timer_bh", version = "2.4.17")
public final class TimerBh {

  /*
   * Implementation overview
   *
   *   timer_bh()
   *     update_times()        write_lock_irq(xtime_lock) around update_wall_time: a few
   *                           loads, not charged
   *       calc_load(ticks)    count -= ticks; below zero (every LOAD_FREQ = 5 * HZ ticks):
   *         count_active_tasks()   read_lock(tasklist_lock); for_each_task(p) test p->state
   *     run_timer_list()      spin_lock_irq(timerlist_lock); for each expired timer:
   *                           detach_timer, spin_unlock_irq, fn(data), spin_lock_irq
   *
   * run_timer_list takes timerlist_lock with spin_lock_irq (not irqsave: timer_bh knows
   * interrupts are on), so interrupts are off for each detach and back on while the timer's
   * function runs; the whole walk is softirq time. The model's timer list is one queue by
   * expiry (TimerList), so the walk's cascade of the wheel's outer vectors every 256 jiffies
   * (cascade_timers, interrupts off) is not modelled.
   *
   * count_active_tasks takes tasklist_lock for reading; the catalog's tasklist_lock is the
   * catalog's own object, which kernel-core cannot see, so the read side is not modelled (on
   * one CPU it is a no-op; on SMP it could wait for a fork's write_lock).
   *
   * Costs, from the machine's memory latency (CostTable.memoryNs, lmbench 175 ns on a PIII):
   *   - a timer run: detach_timer's list_del touches the timer and a neighbour, two lines that
   *     have not been touched for a jiffy or more: 2 misses (assumption);
   *   - a task walked: p->state and p->next_task sit in different 32-byte lines of the 2.4.17
   *     task_struct (include/linux/sched.h: state first, next_task after run_list and
   *     sleep_time), and a walk every 5 s finds neither cached: 2 misses (assumption).
   *
   * References: [1] 2.4.17 kernel/timer.c timer_bh, update_times, calc_load,
   * count_active_tasks, run_timer_list; [2] include/linux/sched.h LOAD_FREQ, struct
   * task_struct; [3] A. Marathe, "[BENCHMARK] 2.5.62 Lmbench performance", LKML 21 Feb 2003
   * (docs/hardware-and-costs.md, lmbench costs).
   */

  /** run_timer_list's loop over the expired timers ({@code goto repeat}). */
  public static final Site RUN_TIMER_LIST = new Site("kernel/timer.c", "run_timer_list", "run_timer_list");
  /** count_active_tasks' {@code for_each_task} walk. */
  public static final Site COUNT_ACTIVE_TASKS =
      new Site("kernel/timer.c", "count_active_tasks", "for_each_task");

  /** {@code LOAD_FREQ} of include/linux/sched.h (2.4.17): 5 s of ticks. */
  public static final int LOAD_FREQ_SECONDS = 5;
  /** DRAM misses of one timer run (detach_timer): assumption, 2. */
  public static final int MISSES_PER_TIMER = 2;
  /** DRAM misses of one task walked (p->state, p->next_task): assumption, 2. */
  public static final int MISSES_PER_TASK = 2;

  /** What the analysis names for a long run of the timer list: how many timers ran. */
  public record RunTimerList() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return on(h, h.iterations() > 0
          ? String.format(Locale.ROOT, "run_timer_list: %,d timers", h.iterations())
          : "run_timer_list: the timers expired this tick");
    }
  }

  /** What the analysis names for calc_load's walk: how many tasks it visited. */
  public record CountActiveTasks() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return on(h, h.iterations() > 0
          ? String.format(Locale.ROOT, "count_active_tasks: %,d tasks", h.iterations())
          : "count_active_tasks: the walk of every task (calc_load, every 5 s)");
    }
  }

  /** {@code what}, then whose CPU time it was and how much: {@code (on swapper[0], 700.0 us)}. */
  static String on(LatencyCause.Hold h, String what) {
    return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
  }

  private final Kernel k;
  private final TimerList timers;
  // the timer list's lock: raw where spinlocks sleep, as 6.12's struct timer_base has its
  // raw_spinlock_t lock (kernel/time/timer.c)
  private final SpinLock timerlistLock = SpinLock.raw("timerlist_lock");
  private long loadCount; // calc_load's static count, in ticks

  /** {@code timer_bh} itself, the HI softirq's handler. */
  final KernelPath timerBh;

  TimerBh(Kernel k, TimerList timers, int hz) {
    this.k = k;
    this.timers = timers;
    long loadFreq = (long) LOAD_FREQ_SECONDS * hz;
    this.loadCount = loadFreq;
    long timerNs = MISSES_PER_TIMER * k.costs().memoryNs();
    long taskNs = MISSES_PER_TASK * k.costs().memoryNs();
    KernelPath countActiveTasks =
        KernelPath.path("kernel/timer.c", "count_active_tasks")
            .cause(new CountActiveTasks())
            // for_each_task starts after init_task, the list's head
            .loop(COUNT_ACTIVE_TASKS, c -> Math.max(0, k.allTasks().size() - 1), p -> p.compute(taskNs))
            .build();
    KernelPath calcLoad =
        KernelPath.path("kernel/timer.c", "calc_load")
            .callIf("count < 0: LOAD_FREQ ticks have passed", c -> {
              loadCount--;
              if (loadCount < 0) {
                loadCount += loadFreq;
                return true;
              }
              return false;
            }, countActiveTasks)
            .build();
    KernelPath runTimerList =
        KernelPath.path("kernel/timer.c", "run_timer_list")
            .cause(new RunTimerList())
            .spinLockIrq(timerlistLock)
            .loopWhile(RUN_TIMER_LIST, c -> Long.MAX_VALUE, c -> timers.hasExpired(k.jiffies()), t -> t
                .compute(timerNs)
                .spinUnlockIrq(timerlistLock)
                .effect("fn(data)", c -> timers.runOneExpired(c, k.jiffies()))
                .spinLockIrq(timerlistLock))
            .spinUnlockIrq(timerlistLock)
            .build();
    timerBh =
        KernelPath.path("kernel/timer.c", "timer_bh")
            .call(KernelPath.path("kernel/timer.c", "update_times").call(calcLoad).build())
            .call(runTimerList)
            .build();
  }

  /** The lock of the timer list, {@code timerlist_lock}. */
  SpinLock timerlistLock() {
    return timerlistLock;
  }
}
