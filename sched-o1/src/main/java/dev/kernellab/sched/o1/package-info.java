/**
 * Ingo Molnar's O(1) scheduler, registered as {@code o1}. {@code O1Scheduler} keeps one
 * {@code Runqueue} per CPU with active and expired {@code PrioArray}s and their priority bitmaps,
 * the {@code sleep_avg} interactivity estimate, {@code EXPIRED_STARVING} and pull-only SMP load
 * balancing ({@code LoadBalancer}); {@code SchedulerTick}, {@code ForkAndExit} and
 * {@code PriorityCalls} hold the tick, the fork and exit hooks and the priority calls.
 * {@code O1Invariants} checks properties 1-5 and the bounds of 6-8 of
 * docs/scheduler-invariants.md.
 *
 * <p>Models kernel/sched.c and include/linux/sched.h of Linux 2.5.5 (tag v2.5.5, 19 Feb 2002:
 * his K3 scheduler plus two small fixes), with include/asm-i386/mmu_context.h
 * ({@code sched_find_first_bit()}), bitops.h ({@code find_next_bit()}) and the hooks in
 * kernel/fork.c.
 *
 * <p>Start reading with {@code O1Scheduler}, then {@code Runqueue}, {@code PrioArray} and
 * {@code SchedulerTick}.
 */
package dev.kernellab.sched.o1;
