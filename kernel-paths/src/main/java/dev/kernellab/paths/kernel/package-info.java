/**
 * Timing models of the process and timer paths the loads exercise: {@code Fork} ({@code do_fork()}
 * with {@code dup_mmap()} and {@code copy_page_range()}, then linking the child under
 * {@code tasklist_lock}), {@code Exit} ({@code do_exit()}: {@code exit_mmap()}, then
 * {@code close_files()} and {@code exit_notify()} under the big kernel lock), {@code Timer}
 * ({@code sys_nanosleep()}) and {@code Sched} ({@code sys_sched_yield()}). The timer interrupt
 * itself (arch/i386/kernel/time.c {@code timer_interrupt()}) is installed by kernel-core;
 * {@code Timer} only lists it.
 *
 * <p>Models Linux 2.4.17: kernel/fork.c, kernel/exit.c, kernel/timer.c and kernel/sched.c.
 *
 * <p>Start reading with {@code Fork}, the worst case the low-latency patch leaves.
 */
package dev.kernellab.paths.kernel;
