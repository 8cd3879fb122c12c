package dev.kernellab.preempt;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.TaskView;

/**
 * The preemption decisions of CONFIG_PREEMPT.
 *
 * <p>Models preempt-kernel-rml-2.4.17-1 (Robert Love after MontaVista and Nigel Gamble; the
 * patch for the 2.4.17 goodness kernel) and preempt-kernel-O1-rml-2.4.18-2 (its O(1) variant),
 * which take the same two decisions:
 *
 * <ul>
 *   <li>arch/i386/kernel/entry.S {@code ret_from_intr}, falling into
 *       {@code ret_from_exception}, returning to kernel mode: after {@code cli; decl
 *       preempt_count}, preempt when {@code preempt_count == 0}, need_resched is set, and
 *       {@code local_irq_count + local_bh_count == 0} (here those are bits of the same count,
 *       so "count == 0" covers all three); then {@code incl preempt_count; sti; call
 *       preempt_schedule}. The saved EFLAGS' IF bit is not tested: an interrupt arrives only
 *       with interrupts on, but an exception (a page fault) may come from a {@code cli} region
 *       and is preempted all the same;
 *   <li>include/linux/spinlock.h {@code preempt_enable()}: 2.4.17-1 tests
 *       {@code preempt_count == 0 && need_resched}, the O(1) patch
 *       {@code preempt_count < need_resched}, the same thing for a 0/1 flag. Neither tests the
 *       interrupt flag, and {@code spin_unlock_irq*} run {@code spin_unlock()} before the irq
 *       restore: a count that reaches zero inside a {@code cli} or {@code local_irq_save}
 *       region preempts there, and the task comes back with interrupts on because
 *       {@code schedule()} ends in {@code spin_unlock_irq}. Later 2.5 kernels added an
 *       {@code irqs_disabled()} test to {@code preempt_schedule()}; these patches have none.
 * </ul>
 *
 * <p>Everything that stays non-preemptible does so through the count (spinlocks, explicit
 * {@code preempt_disable()}, bh-disabled regions, softirq and hardirq context) or through the
 * interrupt flag (no interrupt arrives to request the preemption).
 */
public final class PreemptKernelModel implements PreemptionModel {

  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_intr",
      version = "preempt-kernel-rml-2.4.17-1")
  @Override
  public boolean preemptOnIrqReturn(CpuView cpu, TaskView current) {
    return current.preemptCount() == 0 && current.needResched();
  }

  @Models(file = "include/linux/spinlock.h", function = "preempt_enable",
      version = "preempt-kernel-rml-2.4.17-1")
  @Override
  public boolean preemptOnEnable(CpuView cpu, TaskView current) {
    return current.preemptCount() == 0 && current.needResched();
  }

  /** CONFIG_PREEMPT: kernel code is preemptible wherever its count is zero. */
  @Override
  public boolean preemptsKernelCode() {
    return true;
  }

  @Override
  public String toString() {
    return "CONFIG_PREEMPT";
  }
}
