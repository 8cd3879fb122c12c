package dev.kernellab.preempt;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPatch;

/**
 * Robert Love's preempt-kernel patch, registered as {@code preempt}: makes kernel code
 * preemptible wherever {@code preempt_count} is zero.
 *
 * <pre>{@code
 * new KernelBuilder(machine, seed).scheduler("o1").patch("preempt")...
 * }</pre>
 *
 * <p>Models preempt-kernel-rml-2.4.18-2 and preempt-kernel-rml-2.5.2-pre11-1 (reference
 * preempt-lowlat-hw.md section 1). What the patch changed and where it lives here:
 *
 * <ul>
 *   <li>the two preemption points ({@link PreemptKernelModel}), installed by this patch;
 *   <li>{@code preempt_schedule()} with {@code PREEMPT_ACTIVE}, so a task preempted between
 *       {@code set_current_state()} and {@code schedule()} is not dequeued: the mechanism is
 *       kernel-core's generic {@code schedule()}, which every scheduler shares;
 *   <li>spinlocks as preempt-off regions on UP as well as SMP: kernel-core keeps the count in
 *       every configuration, so this patch only has to act on it;
 *   <li>per-CPU data and the runqueue accesses the patch had to protect
 *       ({@code task_rq_lock}, {@code resched_task}, {@code wake_up_forked_process},
 *       {@code sys_sched_yield}...; preempt-locking.txt): scheduler methods run atomically in
 *       the model (their calling conditions say the runqueue lock is held with interrupts off),
 *       so no preemption can split them;
 *   <li>its debug checks ("scheduling while atomic", a non-zero count at exit and at system-call
 *       exit) are kernel-core's {@code DebugChecks}, on by default.
 * </ul>
 */
public final class PreemptKernelPatch implements KernelPatch {

  /** The name the patch is registered under. */
  public static final String NAME = "preempt";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void apply(KernelBuilder.Patching kernel) {
    kernel.preemptionModel(new PreemptKernelModel());
  }
}
