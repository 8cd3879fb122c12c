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
 *     recursion on SMP
 * @param lockOrder the same two locks taken in both orders (a light lockdep)
 * @param preemptCount preempt_count underflow, a task exiting with a non-zero count, a softirq
 *     run with interrupts off
 * @param recentEvents keep a ring of the last kernel events, printed in every bug report
 */
public record DebugChecks(
    boolean atomicSchedule,
    boolean lockOwnership,
    boolean lockOrder,
    boolean preemptCount,
    boolean recentEvents) {

  /** Everything on: the default in tests. */
  public static DebugChecks all() {
    return new DebugChecks(true, true, true, true, true);
  }

  /** Everything off: a production kernel of the era. */
  public static DebugChecks none() {
    return new DebugChecks(false, false, false, false, false);
  }
}
