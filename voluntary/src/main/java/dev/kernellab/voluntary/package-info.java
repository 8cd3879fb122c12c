/**
 * Voluntary preemption (Ingo Molnar, 2004; merged as CONFIG_PREEMPT_VOLUNTARY in 2.6.13) as a
 * {@link dev.kernellab.kernel.spi.KernelPatch} plug-in. Start with {@link
 * dev.kernellab.voluntary.VoluntaryPreemptPatch}; the kernel side is include/linux/kernel.h
 * ({@code might_sleep}, {@code might_resched}) and kernel/sched.c ({@code cond_resched}) of
 * 2.6.13.
 */
package dev.kernellab.voluntary;
