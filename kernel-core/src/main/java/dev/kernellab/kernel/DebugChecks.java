package dev.kernellab.kernel;

/**
 * Which of the kernel's own debug checks are on ({@code CONFIG_DEBUG_SPINLOCK}, the preempt
 * patch's debug, 2.5's {@code schedule()} checks; performed by {@code KernelChecks} and
 * {@code SpinLocks}). A violation raises a {@link KernelBug}.
 *
 * @param atomicSchedule "Scheduling in interrupt" (kernel/sched.c 2.4.17 {@code schedule()}) and
 *     "scheduling while atomic" (a spinlock or preempt_disable held: 2.5's {@code schedule()}
 *     check, a real bug in 2.4 too, where nothing caught it). Calling schedule() with
 *     interrupts off is not a bug in 2.4: {@code sleep_on()} does it.
 * @param lockOwnership unlocking a lock that is not held or held by another CPU; spinlock
 *     recursion, on SMP and on UP (where 2.4's spinlocks compile away and nothing notices; a
 *     lock validator would)
 * @param lockOrder the same two locks taken in both orders (a light lockdep)
 * @param preemptCount preempt_count underflow, a task exiting with a non-zero count, a softirq
 *     run with interrupts off
 * @param recentEvents keep a ring of the last kernel events, printed in every bug report
 * @param irqState a return to user mode with interrupts disabled or a {@code local_irq_save}
 *     not restored, naming the lock whose {@code spin_lock_irq} or {@code spin_lock_irqsave} was
 *     released with a plain {@code spin_unlock} if that is what left them off (2.4 leaves this
 *     to the {@code iret}, which quietly re-enables them for user mode)
 * @param softLockup a CPU that runs 2^24 interpreter steps without simulated time advancing (a
 *     loop that takes no time and never ends) is a bug (2.6's kernel/softlockup.c); off, a
 *     finite loop of any number of zero-cost iterations runs, and an endless one runs for ever,
 *     as it would on the machine
 */
public record DebugChecks(
    boolean atomicSchedule,
    boolean lockOwnership,
    boolean lockOrder,
    boolean preemptCount,
    boolean recentEvents,
    boolean irqState,
    boolean softLockup) {

  /** Everything on: the default in tests. */
  public static DebugChecks all() {
    return new DebugChecks(true, true, true, true, true, true, true);
  }

  /** Everything off: a production kernel of the era. */
  public static DebugChecks none() {
    return new DebugChecks(false, false, false, false, false, false, false);
  }
}
