package dev.kernellab.kernel.spi;

/**
 * What a plug-in sees of a spinlock (or the big kernel lock, or a rwlock), read-only: its name,
 * its kind, who holds it, and its hold statistics (the lock-meter figures). The kernel's
 * {@code dev.kernellab.kernel.SpinLock} is the only implementation.
 */
public interface LockView {

  /** The lock's name, as the kernel source names it. */
  String name();

  /** True for {@code kernel_flag}, the big kernel lock. */
  boolean isBigKernelLock();

  /** True for an {@code rwlock_t}. */
  boolean isReaderWriter();

  /** True while a writer (or a spinlock's one holder) holds it. */
  boolean isHeldExclusive();

  /** Readers holding an rwlock now. */
  int readers();

  /** Times taken. */
  long acquisitions();

  /** Times a taker found it held and spun. */
  long contentions();

  /** The longest hold, ns. */
  long maxHoldNs();

  /** The path that held it longest, or null. */
  PathView maxHoldPath();

  /** The sum of all holds, ns. */
  long totalHoldNs();
}
