package dev.kernellab.kernel.spi;

import dev.kernellab.hw.MachineSpec;
import java.util.Optional;

/**
 * What a {@link KernelPatch} may change while the kernel is built: handed to
 * {@link KernelPatch#apply}, valid only while it runs, after every rule on the builder's own
 * parts has been checked and before the kernel is handed its configuration.
 *
 * <p>Part of the service-provider interface; the kernel implements it. The code a patch hands
 * over (a hook, a task's program) is written in the kernel's path language ({@code KernelPath},
 * {@code TaskSpec}) and seen here through its views; a view the kernel did not build is refused.
 */
public interface Patching {

  /**
   * Installs the preemption decisions (one patch may own them).
   *
   * @throws IllegalStateException if another patch already did
   */
  void preemptionModel(PreemptionModel m);

  /**
   * Runs {@code hook} between the iterations of every loop at {@code site}, or once where a path
   * reaches {@code site} as a point. Two patches hooking one site run in the order they were
   * applied.
   *
   * @param hook a kernel path built with {@code KernelPath}
   * @throws IllegalArgumentException if no path of this kernel has {@code site}, or if
   *     {@code hook} is not a kernel path the kernel built
   */
  void hookSite(Site site, PathView hook);

  /**
   * Registers a run-time switch under its /proc/sys name.
   *
   * @throws IllegalStateException if one of that name is registered already
   */
  Sysctl sysctl(String name, boolean initial);

  /**
   * Adds a boot-time task (a kernel thread the patch brings), started after the builder's own
   * tasks.
   *
   * @param spec a {@code TaskSpec}
   * @throws IllegalArgumentException naming the patch if the task breaks a rule of the
   *     builder's tasks (its CPU, its name), or if {@code spec} is not a {@code TaskSpec}
   */
  void task(TaskSpecView spec);

  /**
   * Runs every device interrupt's handler in a kernel thread of its own, {@code irq/N-name} at
   * SCHED_FIFO 50 unless the builder set the line's priority: the hard interrupt only wakes the
   * thread, and the thread runs the handler with interrupts on and preemptible. The timer's
   * interrupt stays hard. This is PREEMPT_RT's forced threading (kernel/irq/manage.c
   * {@code irq_setup_forced_threading}).
   */
  void threadInterrupts();

  /**
   * Runs softirqs in threads, never on the way out of a hard interrupt: what a hard interrupt
   * raises is left to {@code ktimers/N} (SCHED_FIFO 1) where it is the timer's (in 2.4 terms,
   * HI_SOFTIRQ, which runs TIMER_BH) and to {@code ksoftirqd} otherwise; what a thread raises it
   * runs itself when it enables bottom halves. This is PREEMPT_RT's softirq handling
   * (kernel/softirq.c of 6.12: {@code invoke_softirq}, {@code run_ktimerd}).
   *
   * @throws IllegalStateException if the kernel is built without ksoftirqd
   * @throws IllegalArgumentException if a boot task has a {@code ktimers/N} name
   */
  void threadSoftirqs();

  /**
   * Makes every {@code spinlock_t} a sleeping lock, an {@code rt_mutex} with priority
   * inheritance, as PREEMPT_RT's include/linux/spinlock_rt.h does (6.12): its holder stays
   * preemptible, {@code spin_lock_irq} leaves interrupts on and {@code spin_lock_bh} leaves the
   * preempt count alone, and a task that finds it held sleeps and lends the holder its priority.
   * The big kernel lock sleeps too, as CONFIG_PREEMPT_BKL's semaphore (lib/kernel_lock.c of
   * 2.6.12) with the loan: no preempt count, kept by a holder that is preempted, released by
   * {@code schedule()} for a holder that sleeps and retaken, sleeping if need be, when it runs
   * again. An {@code rwlock_t} sleeps as include/linux/rwlock_rt.h's does (6.12): readers get in
   * at once unless a writer has it for write, a writer takes its rt_mutex and then sleeps until
   * the readers have left, lending them nothing. Raw spinlocks ({@code SpinLock.raw}) still spin.
   *
   * @throws IllegalStateException at build if the kernel's interrupts and softirqs are not both
   *     threaded ({@link #threadInterrupts()}, {@link #threadSoftirqs()}): a sleeping lock cannot
   *     be taken in a hard interrupt
   */
  void sleepingSpinlocks();

  /** The machine being built for. */
  MachineSpec machine();

  /** The object of {@code type} attached to the builder, if any (a catalog of kernel paths). */
  <T> Optional<T> attachment(Class<T> type);
}
