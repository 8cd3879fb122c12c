package dev.kernellab.hw;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.EventHandler;
import dev.kernellab.hw.sim.Simulation;

/**
 * A periodic hardware event whose period is an exact fraction of a nanosecond.
 *
 * <p>Crystal-driven timers rarely have whole-nanosecond periods: the PIT at HZ=100 ticks every
 * 11932 / 1,193,180 s = 10,000,167.6 ns and the RTC at 2048 Hz every 488,281.25 ns. Rounding
 * the period once would drift by milliseconds over a twelve-hour run, so the remainder is
 * carried from tick to tick (Bresenham style) and tick n falls exactly at
 * {@code start + floor(n * num / den)}.
 */
final class PeriodicTimer {

  private final Simulation sim;
  private final Event tick;
  private long wholeNs;
  private long remainder;
  private long denominator;
  private long carry;
  private boolean running;

  PeriodicTimer(Simulation sim, String name, EventHandler onTick) {
    this.sim = sim;
    this.tick =
        new Event(
            name,
            now -> {
              arm();
              onTick.fire(now);
            });
  }

  /**
   * Starts ticking with period {@code numeratorNs / denominator} ns; the first tick comes one
   * period from now. Restarting re-phases the timer.
   */
  void start(long numeratorNs, long denominator) {
    if (numeratorNs <= 0 || denominator <= 0) {
      throw new IllegalArgumentException(
          "timer period must be > 0, got " + numeratorNs + "/" + denominator + " ns");
    }
    stop();
    this.wholeNs = numeratorNs / denominator;
    this.remainder = numeratorNs % denominator;
    this.denominator = denominator;
    this.carry = 0;
    this.running = true;
    arm();
  }

  void stop() {
    running = false;
    sim.cancel(tick);
  }

  boolean running() {
    return running;
  }

  private void arm() {
    long next = wholeNs;
    carry += remainder;
    if (carry >= denominator) {
      carry -= denominator;
      next++;
    }
    sim.scheduleAfter(tick, next);
  }
}
