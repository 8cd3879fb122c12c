package dev.kernellab.preempt;

import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.PreemptionModel;
import dev.kernellab.kernel.Task;

/**
 * The preemption decisions of CONFIG_PREEMPT.
 *
 * <p>Models the preempt-kernel patch (preempt-kernel-rml-2.4.18 / 2.5.2-pre11, Robert Love
 * after MontaVista and Nigel Gamble; reference preempt-lowlat-hw.md section 1.4):
 *
 * <ul>
 *   <li>arch/i386/kernel/entry.S {@code ret_from_intr} returning to kernel mode: preempt when
 *       {@code preempt_count == 0}, need_resched is set, and no hardirq or softirq is in
 *       progress on this CPU ({@code local_irq_count + local_bh_count == 0}; in the 2.5 layout
 *       those are bits of the same count, so "count == 0" covers all three). Interrupts were
 *       on in the interrupted context, or the interrupt could not have been taken;
 *   <li>include/linux/spinlock.h {@code preempt_enable()}: when the count drops to zero with
 *       need_resched set, {@code preempt_schedule()}. The 2.4 patch tested only
 *       {@code count < need_resched}; later 2.5 added "and interrupts are enabled" to
 *       {@code preempt_schedule()}, which this model keeps, because a switch from inside a
 *       {@code local_irq_save} region would run the next task with interrupts off.
 * </ul>
 *
 * <p>Everything that stays non-preemptible does so through the count (spinlocks, explicit
 * {@code preempt_disable()}, bh-disabled regions, softirq and hardirq context) or through the
 * interrupt flag (no interrupt arrives to request the preemption).
 */
public final class PreemptKernelModel implements PreemptionModel {

  @Override
  public boolean preemptOnIrqReturn(KernelCpu cpu, Task current) {
    return current.preemptCount() == 0 && current.needResched();
  }

  @Override
  public boolean preemptOnEnable(KernelCpu cpu, Task current) {
    return current.preemptCount() == 0
        && current.needResched()
        && cpu.hardware().interruptsEnabled();
  }

  @Override
  public String toString() {
    return "CONFIG_PREEMPT";
  }
}
