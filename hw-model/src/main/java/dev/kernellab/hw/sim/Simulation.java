package dev.kernellab.hw.sim;

/**
 * One deterministic discrete-event simulation: a virtual clock in nanoseconds, the pending
 * events, and the seeded random streams.
 *
 * <p>Time is a {@code long} count of nanoseconds from the start of the run; nothing here reads
 * a wall clock. Events armed for the same instant fire in the order they were armed. One
 * simulation runs on one thread; parallelism belongs above it (many simulations at once).
 *
 * <pre>{@code
 * Simulation sim = new Simulation(42);
 * Event hello = new Event("hello", now -> System.out.println("at " + now));
 * sim.schedule(hello, 1_000);
 * sim.runUntil(10_000);
 * }</pre>
 */
public final class Simulation {

  private final EventQueue queue = new EventQueue(256);
  private final RandomStreams randoms;
  private long now;
  private long fired;
  private boolean stopRequested;

  /** Creates a simulation at time 0 whose random streams derive from {@code seed}. */
  public Simulation(long seed) {
    this.randoms = new RandomStreams(seed);
  }

  /** The current simulated time in nanoseconds. */
  public long now() {
    return now;
  }

  /** The named random streams of this run. */
  public RandomStreams randoms() {
    return randoms;
  }

  /** Number of events fired so far (a cost measure for benchmarks). */
  public long eventsFired() {
    return fired;
  }

  /** Number of armed events. */
  public int pendingEvents() {
    return queue.size();
  }

  /**
   * Arms {@code e} to fire at absolute time {@code at}.
   *
   * @throws IllegalArgumentException if {@code at} is in the past
   * @throws IllegalStateException if {@code e} is already armed
   */
  public void schedule(Event e, long at) {
    if (at < now) {
      throw new IllegalArgumentException(
          "cannot schedule " + e.name() + " at " + at + " ns: the clock is already at " + now);
    }
    queue.add(e, at);
  }

  /** Arms {@code e} to fire {@code delayNs} from now ({@code delayNs >= 0}). */
  public void scheduleAfter(Event e, long delayNs) {
    if (delayNs < 0) {
      throw new IllegalArgumentException(
          "negative delay " + delayNs + " ns for event " + e.name());
    }
    queue.add(e, now + delayNs);
  }

  /** Disarms {@code e} if armed, then arms it for {@code at}. */
  public void reschedule(Event e, long at) {
    queue.remove(e);
    schedule(e, at);
  }

  /** Disarms {@code e}. Returns whether it was armed. */
  public boolean cancel(Event e) {
    return queue.remove(e);
  }

  /**
   * Fires the earliest event. Returns false if there was none.
   */
  public boolean step() {
    if (queue.isEmpty()) {
      return false;
    }
    long t = queue.peekTime();
    Event e = queue.poll();
    now = t;
    fired++;
    e.fire(t);
    return true;
  }

  /**
   * Fires every event armed for a time {@code <= endNs}, in order, then leaves the clock at
   * {@code endNs}. Stops early (clock at the last fired event) if {@link #stop()} is called.
   */
  public void runUntil(long endNs) {
    if (endNs < now) {
      throw new IllegalArgumentException(
          "cannot run until " + endNs + " ns: the clock is already at " + now);
    }
    stopRequested = false;
    while (!stopRequested && !queue.isEmpty() && queue.peekTime() <= endNs) {
      step();
    }
    if (!stopRequested) {
      now = endNs;
    }
  }

  /** Asks {@link #runUntil} to return after the event being fired. */
  public void stop() {
    stopRequested = true;
  }
}
