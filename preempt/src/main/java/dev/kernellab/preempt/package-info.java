/**
 * Robert Love's preempt-kernel patch, registered as {@code preempt}: {@code PreemptKernelPatch}
 * installs {@code PreemptKernelModel}, which preempts kernel code where {@code preempt_count}
 * falls to zero with need_resched set. The mechanism, {@code preempt_schedule()} with
 * {@code PREEMPT_ACTIVE}, is kernel-core's. {@code PreemptStats} keeps the 20 longest intervals
 * with preemption off and the paths that began and ended them.
 *
 * <p>Models preempt-kernel-rml-2.4.17-1 with the goodness scheduler and
 * preempt-kernel-O1-rml-2.4.18-2 (Love, LKML 23 Jul 2002) with the O(1) one: the return from an
 * interrupt into kernel mode (arch/i386/kernel/entry.S {@code ret_from_intr}) and
 * {@code preempt_enable()} (include/linux/spinlock.h); and the companion preempt-stats patch
 * (preempt-stats-rml-2.4.17-2, kernel/latency.c).
 *
 * <p>Start reading with {@code PreemptKernelPatch}, then {@code PreemptKernelModel}.
 */
package dev.kernellab.preempt;
