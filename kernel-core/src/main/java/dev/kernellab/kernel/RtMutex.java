package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.TaskView;

/**
 * A sleeping lock with priority inheritance, the realtime-preempt patch's {@code rt_mutex}: a
 * task that finds it owned sleeps on it in priority order, and lends the owner its real-time
 * priority until the owner lets go, through every lock the owner itself waits on.
 *
 * <p>Models kernel/locking/rtmutex.c and rtmutex_common.h of Linux 6.12, where the mechanism is
 * mainline (the realtime-preempt patches of 2004-2005 brought it; 2.4 had none). The 2.4
 * {@link Semaphore} is the same lock without the loan: a high-priority {@code down()} waits for
 * whatever the holder's priority lets it finish, which is the inversion this lock exists to
 * bound.
 *
 * <pre>{@code
 * RtMutex m = new RtMutex("m");                          // DEFINE_RT_MUTEX
 * KernelPath.path("drivers/foo.c", "foo_io").rtMutexLock(m) ... .rtMutexUnlock(m)
 * }</pre>
 *
 * <p>One mutex belongs to one kernel: its owner and waiters are run-time state.
 */
@Models(file = "kernel/locking/rtmutex_common.h", function = "struct rt_mutex_base", version = "6.12")
public final class RtMutex {

  private final String name;
  // The spinlock (or kernel_flag) this mutex is where spinlocks sleep, which a TaskView names
  // as the lock a task sleeps on; null for a mutex of its own, which the SPI has no view of.
  final SpinLock lock;
  Task owner;
  // The waiter tree, kept as an array in priority order, first in first out among equals
  // (rt_waiter_node_less: a later waiter of the same priority goes behind).
  Task[] waiters = new Task[4];
  int waiterCount;
  Kernel kernel; // the kernel that first took it
  private long acquisitions;
  private long contentions;

  /** A free mutex ({@code rt_mutex_init}). */
  @Models(file = "include/linux/rtmutex.h", function = "rt_mutex_init", version = "6.12")
  public RtMutex(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "an rt_mutex needs a name, got " + (name == null ? "null" : "\"" + name + "\""));
    }
    this.name = name;
    this.lock = null;
  }

  /** The mutex that {@code lock} is where spinlocks sleep (include/linux/spinlock_rt.h). */
  RtMutex(SpinLock lock) {
    this.name = lock.name();
    this.lock = lock;
  }

  /** The mutex's name. */
  public String name() {
    return name;
  }

  /** The owning task, or null while free. */
  public TaskView owner() {
    return owner;
  }

  /** Tasks asleep on it now. */
  public int waiters() {
    return waiterCount;
  }

  /** Acquisitions. */
  public long acquisitions() {
    return acquisitions;
  }

  /** Acquisitions that found it owned and slept first. */
  public long contentions() {
    return contentions;
  }

  /** The first waiter, the one the owner's loan comes from, or null. */
  Task topWaiter() {
    return waiterCount == 0 ? null : waiters[0];
  }

  void recordAcquire() {
    acquisitions++;
  }

  void recordContention() {
    contentions++;
  }

  /**
   * The order waiters queue in: real-time priority first (the loan counts), then SCHED_OTHER
   * tasks by nice, as 6.12 orders them by {@code prio}, whose fair range is
   * {@code 120 + nice}.
   */
  static int rank(TaskView t) {
    int rt = t.effectiveRtPriority();
    return rt > 0 ? 100 + rt : 20 - t.nice();
  }

  /** Queues {@code t} behind every waiter of its rank or better ({@code rt_mutex_enqueue}). */
  void enqueue(Task t) {
    if (waiterCount == waiters.length) {
      waiters = java.util.Arrays.copyOf(waiters, waiterCount * 2);
    }
    int r = rank(t);
    int i = waiterCount;
    while (i > 0 && rank(waiters[i - 1]) < r) {
      waiters[i] = waiters[i - 1];
      i--;
    }
    waiters[i] = t;
    waiterCount++;
  }

  /** Takes {@code t} off the waiters, if it is one ({@code rt_mutex_dequeue}). */
  boolean dequeue(Task t) {
    for (int i = 0; i < waiterCount; i++) {
      if (waiters[i] == t) {
        System.arraycopy(waiters, i + 1, waiters, i, waiterCount - i - 1);
        waiters[--waiterCount] = null;
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return name;
  }
}
