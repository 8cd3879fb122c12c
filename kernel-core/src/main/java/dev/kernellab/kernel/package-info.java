/**
 * The generic kernel that every configuration shares: {@code Task}, {@code PreemptCount},
 * {@code SpinLock}, {@code Semaphore}, {@code WaitQueue} and {@code KernelTimer}, kernel code as
 * data ({@code KernelPath}) and its interpreter in {@code Kernel}, interrupt and softirq entry
 * and exit, the generic half of {@code schedule()}, block I/O, and the debug checks that raise a
 * {@code KernelBug}. It models Linux 2.4.17: kernel/sched.c, softirq.c, timer.c, fork.c and
 * exit.c, include/linux/sched.h, spinlock.h and interrupt.h, and arch/i386/kernel/entry.S and
 * irq.c; the layout of {@code preempt_count} is that of later 2.5 include/asm-i386/hardirq.h,
 * with the nesting rules of Robert Love's preempt-kernel-rml-2.4.17-1 patch. The seams are
 * where the scheduler and patch modules plug in: a scheduler, a preemption model, a tracer, a
 * patch and an operation implement the service-provider package {@link dev.kernellab.kernel.spi}
 * and see the kernel through its read-only views. The code a patch adds is written in this
 * package's path language ({@code KernelPath}, {@code TaskSpec}), which the SPI sees as
 * {@code PathView} and {@code TaskSpecView}. {@code KernelBuilder} is the one place a kernel is
 * composed.
 *
 * <p>Start reading with {@code KernelBuilder} (how a kernel is put together), then {@code Kernel}
 * (the booted kernel a user drives), {@code KernelPath} and {@code Interpreter} (how kernel code
 * runs as data), and {@code PreemptCount}. Each modelled function is listed in docs/xref.md.
 */
package dev.kernellab.kernel;
