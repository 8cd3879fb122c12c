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
  private long firedInline;
  private boolean stopRequested;
  private long horizon = Long.MIN_VALUE; // runUntil's end while it runs; MIN_VALUE otherwise
  private boolean inlineEnabled = true;
  // The earliest armed event's time (Long.MAX_VALUE if none armed), while earliestKnown: every
  // segment asks nextToFire two or three times, and a peek into the queue each time cost a
  // tenth of a stress run. Arming keeps it by a min; firing or cancelling the earliest forgets it.
  private long earliest = Long.MAX_VALUE;
  private boolean earliestKnown = true;
  // nextToFireUntil's answer, while inlineUntilKnown: asked at every segment's start and end
  // (two or three times a segment), it changes only when an event is armed before it, the
  // earliest is fired or cancelled, or runUntil, stop or setInlineEvents change the run's bounds.
  private long inlineUntil;
  private boolean inlineUntilKnown;

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

  /**
   * Of {@link #eventsFired()}, those that never went through the queue: the end of a piece of
   * work that nothing could precede ({@link #nextToFire}), run in the handler that started it.
   */
  public long eventsFiredInline() {
    return firedInline;
  }

  /**
   * Whether {@link #nextToFire} may say yes (on by default). Off, every event goes through the
   * queue: the straightforward execution that tests compare the shortcut with.
   */
  public void setInlineEvents(boolean on) {
    inlineEnabled = on;
    inlineUntilKnown = false;
  }

  /**
   * True if an event armed now for {@code at} would certainly be the next to fire within the
   * current {@link #runUntil}: every armed event is later ({@code at} strictly earlier, since an
   * event armed now would come after those armed before for the same instant), the run does not
   * end before {@code at}, and no stop was asked. Such an event's handler can then run without
   * the queue ({@link #fireInline}): nothing can happen in between that could observe it.
   */
  public boolean nextToFire(long at) {
    return at >= now && at <= nextToFireUntil();
  }

  /**
   * Moves the clock to {@code at} and counts one event fired, as the queue would for an event
   * that {@link #nextToFire} allowed to skip it; the caller then runs the event's handler.
   *
   * @throws IllegalStateException if {@code at} is not next to fire
   */
  public void fireInline(long at) {
    fireInline(at, 1);
  }

  /**
   * {@link #fireInline(long)} for {@code events} events that would have fired one after the
   * other with nothing between them (the ends of a run of identical work segments), the last
   * at {@code at}.
   */
  public void fireInline(long at, long events) {
    if (!nextToFire(at)) {
      throw new IllegalStateException("an event at " + at + " ns is not next to fire (clock " + now + " ns)");
    }
    now = at;
    fired += events;
    firedInline += events;
  }

  /**
   * The latest time {@code t} for which {@link #nextToFire}{@code (t)} holds now, or
   * {@link Long#MIN_VALUE} if there is none.
   */
  public long nextToFireUntil() {
    if (!inlineUntilKnown) {
      // now moves only to an instant at or before the answer (fireInline) or through step and
      // runUntil, which forget it: horizon < now cannot turn true while it is known
      inlineUntil = !inlineEnabled || stopRequested || horizon < now ? Long.MIN_VALUE
          : queue.isEmpty() ? horizon : Math.min(horizon, earliest() - 1);
      inlineUntilKnown = true;
    }
    return inlineUntil;
  }

  private long earliest() {
    if (!earliestKnown) {
      earliest = queue.isEmpty() ? Long.MAX_VALUE : queue.peekTime();
      earliestKnown = true;
    }
    return earliest;
  }

  private void add(Event e, long at) {
    queue.add(e, at);
    if (at < earliest) {
      earliest = at;
    }
    if (at <= inlineUntil) {
      inlineUntilKnown = false; // armed inside the window: it now ends before this event
    }
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
    add(e, at);
  }

  /** Arms {@code e} to fire {@code delayNs} from now ({@code delayNs >= 0}). */
  public void scheduleAfter(Event e, long delayNs) {
    if (delayNs < 0) {
      throw new IllegalArgumentException(
          "negative delay " + delayNs + " ns for event " + e.name());
    }
    add(e, now + delayNs);
  }

  /** Disarms {@code e} if armed, then arms it for {@code at}. */
  public void reschedule(Event e, long at) {
    cancel(e);
    schedule(e, at);
  }

  /** Disarms {@code e}. Returns whether it was armed. */
  public boolean cancel(Event e) {
    if (e.isScheduled() && e.time <= earliest) {
      earliestKnown = false;
      inlineUntilKnown = false; // the window may grow to the next event
    }
    return queue.remove(e);
  }

  /**
   * Fires the earliest event. Returns false if there was none.
   */
  public boolean step() {
    if (queue.isEmpty()) {
      return false;
    }
    long t = earliest();
    Event e = queue.poll();
    earliestKnown = false;
    inlineUntilKnown = false;
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
    horizon = endNs;
    inlineUntilKnown = false;
    try {
      while (!stopRequested && !queue.isEmpty() && earliest() <= endNs) {
        step();
      }
    } finally {
      horizon = Long.MIN_VALUE;
      inlineUntilKnown = false;
    }
    if (!stopRequested) {
      now = endNs;
    }
  }

  /** Asks {@link #runUntil} to return after the event being fired. */
  public void stop() {
    stopRequested = true;
    inlineUntilKnown = false;
  }
}
