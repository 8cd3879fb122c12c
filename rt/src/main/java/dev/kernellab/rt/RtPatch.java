package dev.kernellab.rt;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import java.util.List;

/**
 * The realtime-preempt patch set, as far as it is modelled: threaded interrupts and softirqs, and
 * spinlocks that sleep. Every device interrupt's handler runs in a kernel thread
 * {@code irq/N-name} at SCHED_FIFO 50 (each line's priority settable, as {@code chrt} on the
 * thread does), with interrupts on and preemptible; the hard interrupt only wakes the thread;
 * the timer's interrupt stays hard. No softirq runs on the way out of a hard interrupt: the
 * timer's wait for {@code ktimers/N} (SCHED_FIFO 1), the others for ksoftirqd, and a handler
 * thread runs what it raised itself when it enables bottom halves. Every {@code spinlock_t} is an
 * {@code rt_mutex} with priority inheritance: its holder stays preemptible, and a task that finds
 * it held sleeps and lends the holder its priority; raw spinlocks (the 8259's, the timer list's)
 * still spin. The big kernel lock sleeps the same way, as CONFIG_PREEMPT_BKL's semaphore
 * (lib/kernel_lock.c of 2.6.12) made priority-inheriting: {@code schedule()} still drops it for a
 * holder that sleeps and retakes it, sleeping on it if need be, when the holder runs again.
 *
 * <p>What the SPI had to learn for it is three general switches, {@link Patching#threadInterrupts()},
 * {@link Patching#threadSoftirqs()} and {@link Patching#sleepingSpinlocks()}, and a priority loan
 * in the scheduler SPI ({@code Scheduler.setInheritedPriority}): the mechanisms are the kernel's
 * (mainline has the first as {@code threadirqs} since 2.6.39, and {@code rt_mutex} since
 * 2.6.18), and the patch is what turns them on, as {@code CONFIG_PREEMPT_RT} forces them
 * ({@code force_irqthreads}, kernel/irq/manage.c; {@code invoke_softirq}, kernel/softirq.c;
 * include/linux/spinlock_rt.h).
 *
 * <p>rwlocks sleep too, as include/linux/rwlock_rt.h's do (6.12): readers share the lock and get
 * in unless a writer has it for write; a writer takes the lock's rt_mutex, then sleeps until the
 * readers inside have left, lending them nothing, and readers that come while it waits still get
 * in; once it has the lock for write, readers sleep on the rt_mutex and lend it their priority
 * (kernel/locking/rwbase_rt.c). In the catalog that is {@code tasklist_lock}.
 *
 * <p>Not yet modelled, so not claimed: {@code local_bh_disable()} as a per-CPU lock (a sleeping spinlock's {@code _bh} form leaves
 * the preempt count alone and nothing else; a softirq a task runs when it enables bottom halves
 * runs in softirq context, not preemptible, which is what the stress load's worst case under rt
 * comes down to).
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
    kernel.sleepingSpinlocks();
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
