/**
 * Robert Love's lock-break patch for 2.4 (CONFIG_LOCK_BREAK, which depends on CONFIG_PREEMPT):
 * the spinlocks of a few long walks are dropped and retaken inside the walk, so that under the
 * preempt patch the drop is a preemption point. A plug-in written only against KernelLab's
 * public seams ({@link Patching}, kernel-core's lock-break
 * primitive {@link dev.kernellab.kernel.CondReschedLock}), as docs/extending.md walks through.
 *
 * <p>Models lock-break-rml for 2.4.17/2.4.18: include/linux/lock_break.h and its hunks in
 * fs/buffer.c, fs/dcache.c, fs/inode.c, kernel/exit.c, mm/memory.c, mm/swapfile.c and
 * mm/vmscan.c.
 *
 * <p>Start reading with {@code LockBreakSites}, the patch's hunks as a table, then
 * {@code LockBreakPatch}, which installs them.
 */
package dev.kernellab.lockbreak;
