package dev.kernellab.hw.sim;

/**
 * What an {@link Event} does when its time comes.
 *
 * <p>Handlers run on the simulation's single thread with the clock already advanced to the
 * event's time. They may schedule, re-arm or cancel any event, including their own.
 */
@FunctionalInterface
public interface EventHandler {

  /**
   * Runs the event.
   *
   * @param now the simulated time in nanoseconds, equal to the time the event was armed for
   */
  void fire(long now);
}
