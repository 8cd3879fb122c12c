package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.EventQueue;
import java.util.IdentityHashMap;

/**
 * The kernel timer list: {@code add_timer}, {@code mod_timer}, {@code del_timer} and
 * {@code run_timer_list} of kernel/timer.c (2.4.17), reduced to one queue ordered by expiry
 * in jiffies (2.4 keeps a timer wheel; only the order in which expired timers run matters
 * here, and the queue keeps it: by expiry, then by when they were armed).
 */
final class TimerList {

  private final EventQueue queue = new EventQueue(16); // keyed by expiry in jiffies
  // Lookups only, never iterated: no identity hash reaches any output order.
  private final IdentityHashMap<Event, KernelTimer> byEntry = new IdentityHashMap<>();

  @Models(file = "kernel/timer.c", function = "mod_timer", version = "2.4.17")
  @Models(file = "kernel/timer.c", function = "add_timer", version = "2.4.17")
  void mod(KernelTimer timer, long expires) {
    byEntry.putIfAbsent(timer.entry, timer);
    queue.remove(timer.entry);
    queue.add(timer.entry, expires);
  }

  @Models(file = "kernel/timer.c", function = "del_timer", version = "2.4.17")
  boolean del(KernelTimer timer) {
    return queue.remove(timer.entry);
  }

  /** Disarms {@code timer} and forgets it (its owner is gone). */
  void forget(KernelTimer timer) {
    queue.remove(timer.entry);
    byEntry.remove(timer.entry);
  }

  /** True if a timer's expiry is {@code <= jiffies}: run_timer_list's list is not empty. */
  boolean hasExpired(long jiffies) {
    return !queue.isEmpty() && queue.peekTime() <= jiffies;
  }

  /**
   * One turn of {@code run_timer_list}: detaches the first expired timer and runs its function;
   * nothing if none has expired (another CPU took it).
   */
  @Models(file = "kernel/timer.c", function = "run_timer_list", version = "2.4.17")
  void runOneExpired(KernelCpu c, long jiffies) {
    if (hasExpired(jiffies)) {
      byEntry.get(queue.poll()).function.run(c);
    }
  }
}
