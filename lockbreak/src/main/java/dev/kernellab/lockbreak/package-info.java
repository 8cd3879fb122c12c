/**
 * Robert Love's lock-break patch for 2.4 (lock-break-rml-2.4.x, include/linux/lock_break.h,
 * CONFIG_LOCK_BREAK, which depends on CONFIG_PREEMPT): the spinlocks of a few long walks are
 * dropped and retaken inside the walk, so that under the preempt patch the drop is a preemption
 * point. A plug-in written only against KernelLab's public seams ({@link
 * dev.kernellab.kernel.KernelBuilder.Patching}, kernel-core's lock-break primitive {@link
 * dev.kernellab.kernel.CondReschedLock}), as docs/extending.md walks through; its table of sites
 * is {@link dev.kernellab.lockbreak.LockBreakSites}.
 */
package dev.kernellab.lockbreak;
