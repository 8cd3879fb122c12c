package dev.kernellab.sched.goodness;

import static dev.kernellab.sched.goodness.GoodnessTunables.IDLE_NICE;
import static dev.kernellab.sched.goodness.GoodnessTunables.PROC_CHANGE_PENALTY;
import static dev.kernellab.sched.goodness.GoodnessTunables.RT_GOODNESS_BASE;
import static dev.kernellab.sched.goodness.GoodnessTunables.YIELD_GOODNESS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.MmView;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskView;
import java.util.Objects;

/**
 * Models kernel/sched.c: {@code goodness()} and {@code preemption_goodness()} (2.4.17): how
 * much a task deserves a CPU, the single number every 2.4 scheduling decision compares.
 *
 * <pre>{@code
 * int w = Goodness.goodness(p, cpu, activeMm, smp);  // 1000 + rt_priority for RT tasks
 * }</pre>
 *
 * <p>Reference: 2.4.17 kernel/sched.c {@code goodness()}, {@code preemption_goodness()}, and
 * the UP branch of {@code reschedule_idle()} that compares them.
 */
public final class Goodness {

  /*
   * Implementation overview
   *
   *   SCHED_YIELD bit set ........................ -1   (after all others, before idle,
   *                                                      and never a reason to recalculate)
   *   SCHED_OTHER, counter == 0 .................. 0    (slice used up: nothing is added,
   *                                                      so "best == 0" means "recalculate")
   *   SCHED_OTHER, counter > 0 ................... counter
   *                                                + PROC_CHANGE_PENALTY if SMP and p last
   *                                                  ran on this CPU (cache affinity)
   *                                                + 1 if p.mm == this_mm or p has no mm
   *                                                  (no TLB flush on the switch)
   *                                                + 20 - nice
   *   SCHED_FIFO / SCHED_RR ...................... 1000 + rt_priority (RT beats all others)
   *
   * this_mm is the active_mm of the CPU doing the pick (the mm of the task leaving it, or the
   * mm a kernel thread or the idle task borrowed there). The idle task scores with the counter
   * and nice that cpu_idle() gives it (-100 and 20): it only matters in UP reschedule_idle(),
   * where it makes every woken task preempt idle.
   */

  private Goodness() {}

  /**
   * {@code goodness(p, this_cpu, this_mm)}.
   *
   * @param p a task with a {@link GoodnessEntity}
   * @param thisCpu the CPU that would run p
   * @param thisMm the active mm of that CPU; null for init_mm, which no user task shares
   * @param smp true for a CONFIG_SMP kernel (adds the PROC_CHANGE_PENALTY term)
   */
  @Models(file = "kernel/sched.c", function = "goodness", version = "2.4.17")
  public static int goodness(TaskView p, int thisCpu, MmView thisMm, boolean smp) {
    GoodnessEntity e = GoodnessEntity.of(p);
    if (e.schedYield) {
      return YIELD_GOODNESS;
    }
    if (p.policy() != SchedPolicy.OTHER || p.inheritedRtPriority() > 0) {
      // A loan of priority inheritance (6.12's rt_mutex_setprio; 2.4 had none) counts as the
      // real-time weight it lends, so a boosted SCHED_OTHER owner outranks every task the
      // waiter outranks.
      return RT_GOODNESS_BASE + p.effectiveRtPriority();
    }
    int weight = e.counter;
    if (weight == 0) {
      return 0;
    }
    if (smp && p.cpu() == thisCpu) {
      weight += PROC_CHANGE_PENALTY;
    }
    if (p.mm() == null || Objects.equals(p.mm(), thisMm)) {
      weight += 1;
    }
    return weight + 20 - nice(p);
  }

  /**
   * {@code preemption_goodness(curr, p, cpu)} = goodness(p) - goodness(curr), both against the
   * active mm of {@code cpu}, where {@code curr} runs. Positive means p should preempt curr.
   */
  @Models(file = "kernel/sched.c", function = "preemption_goodness", version = "2.4.17")
  public static int preemptionGoodness(TaskView curr, TaskView p, int cpu, MmView activeMm, boolean smp) {
    return goodness(p, cpu, activeMm, smp) - goodness(curr, cpu, activeMm, smp);
  }

  /** The task's nice as goodness() sees it: cpu_idle() sets 20 on the idle task. */
  static int nice(TaskView p) {
    return p.isIdle() ? IDLE_NICE : p.nice();
  }
}
