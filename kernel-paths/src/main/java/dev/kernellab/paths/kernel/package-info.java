/**
 * Timing models of the Linux 2.4.17 process and timer paths the loads exercise: {@code Fork}
 * (kernel/fork.c {@code do_fork()} with {@code dup_mmap()} and mm/memory.c
 * {@code copy_page_range()}, then linking the child under {@code tasklist_lock}), {@code Exit}
 * (kernel/exit.c {@code do_exit()}: {@code exit_mmap()}, then {@code close_files()} and
 * {@code exit_notify()} under the big kernel lock), {@code Timer} (kernel/timer.c
 * {@code sys_nanosleep()}) and {@code Sched} (kernel/sched.c {@code sys_sched_yield()}). The timer interrupt itself (arch/i386/kernel/time.c
 * {@code timer_interrupt()}) is installed by kernel-core; {@code Timer} only lists it in the
 * catalog.
 */
package dev.kernellab.paths.kernel;
