package dev.kernellab.hw.sim;

import java.util.Objects;

/**
 * A re-armable timed action: one object per recurring thing (a CPU's segment end, a device's
 * next interrupt), armed with {@link Simulation#schedule} as often as needed.
 *
 * <p>Events are owned by the component that created them and are reused, so that the
 * simulator's steady state allocates nothing: a component that needs "the next RTC tick" keeps
 * one {@code Event} and re-arms it after each firing.
 *
 * <pre>{@code
 * Event tick = new Event("pit.tick", now -> { raiseIrq0(); sim.scheduleAfter(tick, periodNs); });
 * sim.schedule(tick, firstTickNs);
 * }</pre>
 *
 * <p>An event is armed at most once at a time; arming an armed event is an error (use
 * {@link Simulation#reschedule}).
 */
public final class Event {

  private final String name;
  private final EventHandler handler;

  // Owned by EventQueue (see its implementation overview). seq is the arming sequence number
  // while armed and -1 otherwise, so one comparison tells a live heap entry from a stale one.
  long time;
  long seq = -1;

  /**
   * Creates an unarmed event.
   *
   * @param name a stable name for traces and error messages, e.g. {@code "cpu0.segment"}
   * @param handler what to do when the event fires
   */
  public Event(String name, EventHandler handler) {
    this.name = Objects.requireNonNull(name, "name");
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  /** The event's name. */
  public String name() {
    return name;
  }

  /** True while the event is armed and has neither fired nor been cancelled. */
  public boolean isScheduled() {
    return seq >= 0;
  }

  /**
   * The time the event is armed for.
   *
   * @throws IllegalStateException if the event is not armed
   */
  public long time() {
    if (!isScheduled()) {
      throw new IllegalStateException("event " + name + " is not scheduled");
    }
    return time;
  }

  void fire(long now) {
    handler.fire(now);
  }

  @Override
  public String toString() {
    return isScheduled() ? name + "@" + time : name + "(idle)";
  }
}
