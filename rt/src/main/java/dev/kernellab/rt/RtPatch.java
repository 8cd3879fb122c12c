package dev.kernellab.rt;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import java.util.List;

/**
 * The realtime-preempt patch set, as far as it is modelled: its threaded interrupts. Every
 * device interrupt's handler runs in a kernel thread {@code irq/N-name} at SCHED_FIFO 50 (each
 * line's priority settable, as {@code chrt} on the thread does), with interrupts on and
 * preemptible; the hard interrupt only wakes the thread; the timer's interrupt stays hard.
 *
 * <p>What the SPI had to learn for it is one general switch, {@link Patching#threadInterrupts()}:
 * the mechanism is the kernel's (mainline has it as {@code threadirqs} since 2.6.39), and the
 * patch is what turns it on for every line, as {@code CONFIG_PREEMPT_RT} forces it
 * ({@code force_irqthreads}, kernel/irq/manage.c).
 *
 * <p>Not yet modelled, so not claimed: spinlocks as sleeping {@code rt_mutex}es with priority
 * inheritance, the BKL as a semaphore, and softirqs in threads of their own; here a spinlock
 * still spins and disables preemption, and softirqs run where 2.4 runs them (at irq exit, at
 * {@code local_bh_enable}, in ksoftirqd), which in a threaded handler is its own
 * {@code local_bh_enable}.
 *
 * <p>It requires preempt: realtime-preempt builds on a fully preemptible kernel
 * ({@code CONFIG_PREEMPT_RT} selects {@code PREEMPTION}, kernel/Kconfig.preempt), and in 2.4.17
 * that is Love's patch. It conflicts with lowlat, lockbreak and voluntary: their reschedule
 * points answer the latency of non-preemptible sections, which realtime-preempt removes instead,
 * and {@code PREEMPT_RT} and {@code PREEMPT_VOLUNTARY} are exclusive choices of Kconfig.preempt.
 */
@Models(file = "include/linux/interrupt.h", function = "force_irqthreads", version = "6.12")
public final class RtPatch implements KernelPatch {

  /** The name users pass. */
  public static final String NAME = "rt";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void apply(Patching kernel) {
    kernel.threadInterrupts();
  }

  @Override
  public List<String> requires() {
    return List.of("preempt");
  }

  @Override
  public List<String> conflicts() {
    return List.of("lowlat", "lockbreak", "voluntary");
  }

  @Override
  public String toString() {
    return NAME;
  }
}
