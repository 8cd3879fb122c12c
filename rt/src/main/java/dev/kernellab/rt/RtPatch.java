package dev.kernellab.rt;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import java.util.List;

/**
 * The realtime-preempt patch set, as far as it is modelled: its threaded interrupts and
 * softirqs. Every device interrupt's handler runs in a kernel thread {@code irq/N-name} at
 * SCHED_FIFO 50 (each line's priority settable, as {@code chrt} on the thread does), with
 * interrupts on and preemptible; the hard interrupt only wakes the thread; the timer's interrupt
 * stays hard. No softirq runs on the way out of a hard interrupt: the timer's wait for
 * {@code ktimers/N} (SCHED_FIFO 1), the others for ksoftirqd, and a handler thread runs what it
 * raised itself when it enables bottom halves.
 *
 * <p>What the SPI had to learn for it is two general switches, {@link Patching#threadInterrupts()}
 * and {@link Patching#threadSoftirqs()}: the mechanisms are the kernel's (mainline has the first
 * as {@code threadirqs} since 2.6.39), and the patch is what turns them on, as
 * {@code CONFIG_PREEMPT_RT} forces them ({@code force_irqthreads}, kernel/irq/manage.c;
 * {@code invoke_softirq}, kernel/softirq.c).
 *
 * <p>Not yet modelled, so not claimed: spinlocks as sleeping {@code rt_mutex}es with priority
 * inheritance (the rt_mutex itself is kernel-core's {@code RtMutex}; the catalog's spinlocks do
 * not use it yet), and the BKL as a semaphore; here a spinlock still spins and disables
 * preemption.
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
    kernel.threadSoftirqs();
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
