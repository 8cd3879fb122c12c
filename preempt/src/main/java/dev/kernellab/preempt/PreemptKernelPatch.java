package dev.kernellab.preempt;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;

/**
 * Robert Love's preempt-kernel patch, registered as {@code preempt}: makes kernel code
 * preemptible wherever {@code preempt_count} is zero.
 *
 * <pre>{@code
 * new KernelBuilder(machine, seed).scheduler("o1").patch("preempt")...
 * }</pre>
 *
 * <p>Models preempt-kernel-rml-2.4.17-1 with the 2.4.17 goodness scheduler, and
 * preempt-kernel-O1-rml-2.4.18-2 (Love, LKML 23 Jul 2002, against 2.4.18 with the O(1)
 * scheduler) with the O(1) one. The two agree on every rule this model has; where their text
 * differs it does not change what happens:
 *
 * <ul>
 *   <li>{@code PREEMPT_ACTIVE} is 0x40000000 in 2.4.17-1 and 0x4000000 in the O(1) patch, a bit
 *       above the count either way. 2.4.17-1's schedule() tests it before
 *       {@code switch (prev->state)} ({@code goto treat_like_run}, which skips the signal check
 *       and the dequeue); the O(1) patch right after {@code spin_lock_irq(&rq->lock)}
 *       ({@code goto pick_next_task}). kernel-core's generic schedule() skips the dequeue of a
 *       task with PREEMPT_ACTIVE set, for both;
 *   <li>2.4.17-1's preempt_schedule() is {@code while (need_resched)} around schedule() with
 *       PREEMPT_ACTIVE + 1; the O(1) one adds PREEMPT_ACTIVE, schedules, and
 *       {@code goto need_resched} if it is set again (George Anzinger's barrier and re-check,
 *       preempt-kernel ChangeLog, 7 Feb 2002). kernel-core adds 2.4.17-1's + 1 under both: the
 *       extra count is seen only by a tracer reading a preempted task's count, no decision
 *       tells a count of PREEMPT_ACTIVE from one of PREEMPT_ACTIVE + 1;
 *   <li>schedule_tail() drops the child's initial count with {@code preempt_enable()} after the
 *       tail in 2.4.17-1, inside {@code spin_unlock_irq(&rq->frozen)} in the O(1) patch;
 *   <li>the O(1) patch wraps {@code task_rq_lock}/{@code task_rq_unlock}, {@code resched_task},
 *       {@code wake_up_forked_process}, {@code sys_sched_yield} and {@code set_cpus_allowed}
 *       in preempt_disable/enable; scheduler calls are atomic here, so that changes nothing.
 * </ul>
 *
 * <p>The O(1) combination follows the 2.4.18-O1 patch, not mainline 2.5.5 (where the patch had
 * been merged at 2.5.4-pre6 and its {@code resume_kernel} path in arch/i386/kernel/entry.S
 * took over the 2.4 patch's test): the differences of mainline that change a latency, an
 * {@code irqs_disabled()} test in kernel/sched.c {@code preempt_schedule()} and the IF test of
 * the interrupted context in {@code resume_kernel}, belong to later 2.5 and 2.6 kernels
 * (arch/i386/kernel/entry.S of 2.6.0) and are not modelled.
 *
 * <p>What the patch changed and where it lives here:
 *
 * <ul>
 *   <li>the two preemption points ({@link PreemptKernelModel}), installed by this patch;
 *   <li>{@code preempt_schedule()} with {@code PREEMPT_ACTIVE}, so a task preempted between
 *       {@code set_current_state()} and {@code schedule()} is not dequeued: the mechanism is
 *       kernel-core's generic {@code schedule()}, which every scheduler shares;
 *   <li>spinlocks as preempt-off regions on UP as well as SMP: kernel-core keeps the count in
 *       every configuration, so this patch only has to act on it;
 *   <li>the big kernel lock as a spinlock on UP too (its include/linux/smp_lock.h hunk), so a
 *       holder is not preemptible: kernel-core's {@code lock_kernel()} takes {@code kernel_flag}
 *       on UP when the installed model {@link PreemptKernelModel#preemptsKernelCode preempts
 *       kernel code}, and {@code schedule()} releases it after its own preempt_disable();
 *   <li>{@code local_bh_enable()} and do_softirq's {@code __local_bh_enable()} ending in
 *       {@code preempt_enable()} (include/asm-i386/softirq.h): kernel-core's preemption checks
 *       there, which this patch's model answers;
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
  public void apply(Patching kernel) {
    kernel.preemptionModel(new PreemptKernelModel());
  }
}
