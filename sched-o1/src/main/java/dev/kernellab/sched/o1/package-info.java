/**
 * Ingo Molnar's O(1) scheduler as in kernel/sched.c of Linux 2.5.5 (tag v2.5.5, 19 Feb 2002: his
 * K3 scheduler plus two small fixes), registered as {@code o1}. {@code O1Scheduler} keeps one
 * {@code Runqueue} per CPU with active and expired {@code PrioArray}s and their priority bitmaps,
 * the {@code sleep_avg} interactivity estimate, {@code EXPIRED_STARVING} and pull-only SMP load
 * balancing ({@code LoadBalancer}); {@code SchedulerTick}, {@code ForkAndExit} and
 * {@code PriorityCalls} hold {@code scheduler_tick()}, the fork and exit hooks, and
 * {@code set_user_nice()}, {@code setscheduler()}, {@code sys_sched_yield()} and
 * {@code set_cpus_allowed()}. {@code O1Entity} holds the scheduler's fields of
 * {@code task_struct} and {@code O1Tunables} its constants, from kernel/sched.c and
 * include/linux/sched.h of 2.5.5. {@code O1Invariants} checks properties 1-5 and the bounds of
 * 6-8 of docs/scheduler-invariants.md.
 */
package dev.kernellab.sched.o1;
