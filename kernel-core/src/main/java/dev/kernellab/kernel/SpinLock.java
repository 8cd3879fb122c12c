package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.LockView;

/**
 * A kernel spinlock or reader-writer lock ({@code spinlock_t}, {@code rwlock_t}), with the
 * statistics the lab reports: how long it was held, at most and as a histogram, and by which
 * path.
 *
 * <p>Models include/asm-i386/spinlock.h and include/linux/spinlock.h (2.4.17). On SMP a
 * contended lock makes the acquiring CPU spin (busy time, visible in traces). On UP the 2.4
 * lock itself compiles to nothing: acquiring never waits, and only the side effects of the
 * {@code _irq}, {@code _irqsave} and {@code _bh} forms (and, with the preempt patch, the
 * preempt count) remain. The model still records holders on UP, so that hold times and the
 * debug checks work in every configuration.
 *
 * <pre>{@code
 * final SpinLock dcacheLock = SpinLock.spin("dcache_lock"); // one per kernel
 * path("fs/dcache.c", "prune_dcache").spinLock(dcacheLock) ... .spinUnlock(dcacheLock)
 * }</pre>
 */
@Models(file = "include/asm-i386/spinlock.h", function = "spin_lock", version = "2.4.17")
@Models(file = "include/asm-i386/spinlock.h", function = "spin_unlock", version = "2.4.17")
public final class SpinLock implements LockView {

  /** Number of log2 buckets of the hold-time histogram (1 ns .. 2^40 ns). */
  public static final int HISTOGRAM_BUCKETS = 41;

  private final String name;
  private final boolean readerWriter;
  private final boolean bigKernelLock;
  private final boolean raw;
  // What a spinlock_t is where a patch makes spinlocks sleep (Patching.sleepingSpinlocks): the
  // rt_mutex of include/linux/spinlock_rt.h; unused otherwise.
  final RtMutex sleeper;

  // Holder state. A spinlock has at most one holder; an rwlock one writer or many readers.
  int writerCpu = -1; // CPU holding it for write (or as a spinlock), -1 when free
  int readers;
  // Where rwlocks sleep: the writer that owns `sleeper` has the lock for write (WRITER_BIAS of
  // kernel/locking/rwbase_rt.c); an owner without it still waits for the readers to leave
  boolean writeLocked;
  int nested; // UP only, with lock debugging off: re-acquisitions on the holding CPU
  LockOps.Form heldForm = LockOps.Form.PLAIN; // how the writer took it: spin_lock, _irq, ...
  long acquiredNs;
  KernelPath acquiredBy;
  // CPUs spinning on this lock, FIFO (stand-in for test-and-set arbitration; see Kernel).
  final int[] spinners = new int[64];
  int spinnerCount;

  // Statistics.
  // The kernel that last took it: one another kernel holds is refused (SpinLocks.claim).
  Kernel kernel;
  private long acquisitions;
  private long contentions;
  private long maxHoldNs;
  private KernelPath maxHoldPath;
  private long totalHoldNs;
  private final long[] holdHistogram = new long[HISTOGRAM_BUCKETS];

  private SpinLock(String name, boolean readerWriter, boolean bigKernelLock, boolean raw) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          (readerWriter ? "an rwlock_t" : "a spinlock_t") + " needs its kernel name, got "
              + (name == null ? "null" : "\"" + name + "\""));
    }
    this.name = name;
    this.readerWriter = readerWriter;
    this.bigKernelLock = bigKernelLock;
    this.raw = raw;
    this.sleeper = new RtMutex(this);
  }

  /** A {@code spinlock_t}. */
  public static SpinLock spin(String name) {
    return new SpinLock(name, false, false, false);
  }

  /**
   * A {@code raw_spinlock_t}: a spinlock that spins under every patch, realtime preemption's
   * included, for the locks taken where nothing may sleep (the timer's hard interrupt, the
   * scheduler). In a 2.4 kernel it is an ordinary {@code spinlock_t}.
   */
  @Models(file = "include/linux/spinlock_types_raw.h", function = "raw_spinlock_t", version = "6.12")
  public static SpinLock raw(String name) {
    return new SpinLock(name, false, false, true);
  }

  /** An {@code rwlock_t}. */
  public static SpinLock readerWriter(String name) {
    return new SpinLock(name, true, false, false);
  }

  /**
   * {@code kernel_flag}, the big kernel lock that {@code lock_kernel()} takes: a spinlock on
   * SMP (include/asm-i386/smplock.h, 2.4.17), and under the preempt-kernel patch on UP too. A
   * kernel has one; the catalog that models it creates it.
   */
  @Models(file = "include/asm-i386/smplock.h", function = "lock_kernel", version = "2.4.17")
  public static SpinLock bigKernelLock() {
    return new SpinLock("kernel_flag", false, true, false);
  }

  /** The lock's kernel name, e.g. {@code "pagecache_lock"}. */
  @Override
  public String name() {
    return name;
  }

  /** True for the big kernel lock ({@link #bigKernelLock()}). */
  @Override
  public boolean isBigKernelLock() {
    return bigKernelLock;
  }

  /** True for a {@code raw_spinlock_t} ({@link #raw}). */
  public boolean isRaw() {
    return raw;
  }

  /** True for an {@code rwlock_t}. */
  @Override
  public boolean isReaderWriter() {
    return readerWriter;
  }

  /** True while any CPU holds it (for write, or as a spinlock). */
  @Override
  public boolean isHeldExclusive() {
    return writerCpu >= 0;
  }

  /** Number of read holders. */
  @Override
  public int readers() {
    return readers;
  }

  /** Successful acquisitions. */
  @Override
  public long acquisitions() {
    return acquisitions;
  }

  /**
   * Acquisitions that had to spin first, counted when the spin starts: a CPU that spins for
   * ever (a deadlock) is one.
   */
  @Override
  public long contentions() {
    return contentions;
  }

  /** Longest hold, ns. */
  @Override
  public long maxHoldNs() {
    return maxHoldNs;
  }

  /** The path that held it longest, or null if never held. */
  @Override
  public KernelPath maxHoldPath() {
    return maxHoldPath;
  }

  /** Sum of hold times, ns. */
  @Override
  public long totalHoldNs() {
    return totalHoldNs;
  }

  /** Hold-time histogram: bucket b counts holds of {@code [2^(b-1), 2^b)} ns (b = 0: 0 ns). */
  public long[] holdHistogram() {
    return holdHistogram.clone();
  }

  boolean hasSpinners() {
    return spinnerCount > 0;
  }

  void recordContention() {
    contentions++;
  }

  void recordAcquire(long now, KernelPath path) {
    acquisitions++;
    acquiredNs = now;
    acquiredBy = path;
  }

  void recordRelease(long now) {
    long held = now - acquiredNs;
    totalHoldNs += held;
    if (held > maxHoldNs || maxHoldPath == null) {
      maxHoldNs = held;
      maxHoldPath = acquiredBy;
    }
    holdHistogram[held == 0 ? 0 : Math.min(HISTOGRAM_BUCKETS - 1, 64 - Long.numberOfLeadingZeros(held))]++;
  }

  void addSpinner(int cpu) {
    for (int i = 0; i < spinnerCount; i++) {
      if (spinners[i] == cpu) {
        return;
      }
    }
    spinners[spinnerCount++] = cpu;
  }

  void removeSpinner(int cpu) {
    for (int i = 0; i < spinnerCount; i++) {
      if (spinners[i] == cpu) {
        System.arraycopy(spinners, i + 1, spinners, i, spinnerCount - i - 1);
        spinnerCount--;
        return;
      }
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
