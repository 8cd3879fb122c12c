package dev.kernellab.kernel.spi;

/**
 * The decisions that the 2001-2002 patches change: may the kernel preempt a task at this point?
 * Vanilla 2.4 answers no everywhere ({@link #VANILLA}); the preempt-kernel patch answers yes
 * where {@code preempt_count} is zero.
 *
 * <p>Called by the interpreter with the CPU's state as the kernel would see it at that point
 * (interrupts off on the return-from-interrupt path). Implementations decide only; the
 * mechanism ({@code preempt_schedule()} with {@code PREEMPT_ACTIVE}) is the generic kernel's.
 */
public interface PreemptionModel {

  /**
   * {@code ret_from_intr} returning into kernel code of the current task: preempt it now?
   * (i386 entry.S; vanilla goes straight to {@code restore_all}.)
   */
  boolean preemptOnIrqReturn(CpuView cpu, TaskView current);

  /**
   * {@code preempt_enable()} (and so {@code spin_unlock()}, {@code local_bh_enable()}) just
   * dropped the count: reschedule now?
   */
  boolean preemptOnEnable(CpuView cpu, TaskView current);

  /**
   * An explicit reschedule point ({@code cond_resched()}, {@code conditional_schedule()}, or
   * the test of a lock break) was reached: reschedule here? Default, in every kernel of the era:
   * exactly when need_resched is set.
   */
  default boolean rescheduleAtCondResched(CpuView cpu, TaskView current) {
    return current.needResched();
  }

  /**
   * Whether kernel code whose {@code preempt_count} is zero may be preempted (CONFIG_PREEMPT):
   * what a latency analysis needs to tell a lock or a preempt count that held the CPU from a
   * kernel that could not have been preempted anywhere. False by default, as in every kernel
   * without the preempt-kernel patch.
   */
  default boolean preemptsKernelCode() {
    return false;
  }

  /** Vanilla 2.4/2.5 without CONFIG_PREEMPT: kernel code is never preempted. */
  PreemptionModel VANILLA =
      new PreemptionModel() {
        @Override
        public boolean preemptOnIrqReturn(CpuView cpu, TaskView current) {
          return false;
        }

        @Override
        public boolean preemptOnEnable(CpuView cpu, TaskView current) {
          return false;
        }

        @Override
        public String toString() {
          return "vanilla";
        }
      };
}
