/**
 * The Linux 2.4.17 scheduler (kernel/sched.c), the one in the kernel that Clark Williams' Red Hat
 * whitepaper of March 2002 measured and the baseline the O(1) scheduler replaced, registered as
 * {@code goodness}. {@code GoodnessScheduler} keeps one global runqueue ({@code RunqueueList})
 * that every CPU's {@code schedule()} walks, comparing {@code goodness()} ({@code Goodness}),
 * with an epoch recalculation over all tasks ({@code ScheduleLoop}) and wake-up placement by
 * {@code reschedule_idle()} ({@code RescheduleIdle}). {@code GoodnessEntity} holds the 2.4 fields
 * of {@code task_struct} (include/linux/sched.h {@code counter}, {@code SCHED_YIELD}) and
 * {@code GoodnessTunables} constants such as {@code NICE_TO_TICKS} and {@code MAX_COUNTER}. Its
 * invariants are docs/scheduler-invariants.md 17.
 */
package dev.kernellab.sched.goodness;
