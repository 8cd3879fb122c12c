/**
 * The 2.4 scheduler, the one in the kernel that Clark Williams' Red Hat whitepaper of March 2002
 * measured and the baseline the O(1) scheduler replaced, registered as {@code goodness}.
 * {@code GoodnessScheduler} keeps one global runqueue ({@code RunqueueList}) that every CPU's
 * {@code schedule()} walks, comparing {@code goodness()} ({@code Goodness}), with an epoch
 * recalculation over all tasks ({@code ScheduleLoop}) and wake-up placement by
 * {@code reschedule_idle()} ({@code RescheduleIdle}). Its invariants are
 * docs/scheduler-invariants.md 17.
 *
 * <p>Models Linux 2.4.17: kernel/sched.c and the scheduler's fields of include/linux/sched.h,
 * with its hooks in kernel/fork.c, exit.c, sys.c and timer.c.
 *
 * <p>Start reading with {@code GoodnessScheduler}, then {@code ScheduleLoop} and
 * {@code Goodness}.
 */
package dev.kernellab.sched.goodness;
