package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Event;

/**
 * A kernel timer ({@code struct timer_list}): a function run from the timer bottom half once
 * {@code jiffies} reaches its expiry. Models kernel/timer.c {@code add_timer},
 * {@code mod_timer}, {@code del_timer} and {@code run_timer_list} (2.4.17).
 *
 * <p>Owned and reused by its user (a task's {@code schedule_timeout} timer, a driver's
 * watchdog), so arming allocates nothing.
 */
@Models(file = "include/linux/timer.h", function = "struct timer_list", version = "2.4.17")
public final class KernelTimer {

  final String name;
  final Action function;
  final Event entry; // queued in the kernel's timer list, keyed by expiry in jiffies

  /** Creates an unarmed timer that runs {@code function} on expiry. */
  public KernelTimer(String name, Action function) {
    java.util.Objects.requireNonNull(name, "a timer's name");
    java.util.Objects.requireNonNull(function, "timer " + name + ": its function");
    this.name = name;
    this.function = function;
    this.entry = new Event("timer." + name, now -> { });
  }

  /** True while armed. */
  public boolean pending() {
    return entry.isScheduled();
  }

  /** The timer's name. */
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name;
  }
}
