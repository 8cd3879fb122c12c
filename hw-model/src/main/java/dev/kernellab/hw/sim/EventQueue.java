package dev.kernellab.hw.sim;

import java.util.Arrays;

/**
 * The simulator's pending-event set, ordered by (time, sequence number).
 *
 * <p>Events armed for the same instant come out in the order they were armed (the sequence
 * number is taken at arming), which is the documented tie-break of the whole lab: same
 * configuration and seed, same order, same trace.
 *
 * <p>Not thread-safe; one queue belongs to one simulation.
 */
public final class EventQueue {

  /*
   * Implementation overview
   *
   * A 4-ary min-heap whose keys live interleaved in one primitive array, so that a sift
   * compares only longs that sit side by side in memory and never dereferences an Event:
   *
   *      entry:        0           1           2     ...
   *      keys:   [t0][s0]    [t1][s1]    [t2][s2]    ...   keys[2i] = time, keys[2i+1] = seq
   *      events:  e0          e1          e2         ...
   *
   *      children of entry i: 4i+1 .. 4i+4 (four adjacent 16-byte entries, about one cache
   *      line); parent of i: (i-1)/4. Four-way fan-out halves the depth of a binary heap.
   *
   * Cancellation is lazy: an Event remembers the sequence number of its live entry
   * (Event.seq, valid while Event.armed). Cancelling just clears `armed`; the stale entry stays
   * in the heap and is dropped when it reaches the top (its seq no longer matches, or the
   * event is no longer armed). This keeps sifts free of per-move writes into Event objects,
   * which on large queues would cost one cache miss per level. Stale entries live only until
   * their original time is reached, so the heap holds at most (live + recently cancelled).
   *
   * Invariants: heap order on (time, seq) over entries 0..size-1 (keys are unique because
   * seq is); live == number of armed events; an armed event has exactly one entry whose seq
   * equals event.seq, and every other entry naming it is stale. The arrays grow by doubling
   * and never shrink, so a simulation in steady state allocates nothing.
   *
   * References: D. Jones, "An empirical comparison of priority-queue and event-set
   * implementations", CACM 29(4), 1986 (the hold model); LaMarca and Ladner, "The influence of
   * caches on the performance of heaps", 1996 (d-ary heaps).
   */

  private long[] keys;
  private Event[] events;
  private int size; // entries in the heap, stale ones included
  private int live; // armed events
  private long nextSeq;

  /** Creates an empty queue with room for {@code initialCapacity} events before it grows. */
  public EventQueue(int initialCapacity) {
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initial capacity must be >= 1, got " + initialCapacity);
    }
    keys = new long[2 * initialCapacity];
    events = new Event[initialCapacity];
  }

  /** Creates an empty queue. */
  public EventQueue() {
    this(64);
  }

  /** Number of armed events. */
  public int size() {
    return live;
  }

  /** True when no event is armed. */
  public boolean isEmpty() {
    return live == 0;
  }

  /**
   * Arms {@code e} for {@code time}.
   *
   * @throws IllegalStateException if {@code e} is already armed
   */
  public void add(Event e, long time) {
    if (e.armed) {
      throw new IllegalStateException("event " + e.name() + " is already scheduled at " + e.time);
    }
    if (size == events.length) {
      grow();
    }
    long seq = nextSeq++;
    e.time = time;
    e.seq = seq;
    e.armed = true;
    live++;
    siftUp(size++, time, seq, e);
  }

  /** Time of the earliest armed event. The queue must not be empty. */
  public long peekTime() {
    dropStaleTop();
    return keys[0];
  }

  /** Removes and returns the earliest event (unarmed on return). The queue must not be empty. */
  public Event poll() {
    dropStaleTop();
    Event first = events[0];
    removeTop();
    first.armed = false;
    live--;
    return first;
  }

  /**
   * Disarms {@code e}. Returns false (and does nothing) if it was not armed, so a component can
   * cancel unconditionally.
   */
  public boolean remove(Event e) {
    if (!e.armed) {
      return false;
    }
    e.armed = false;
    live--;
    if (live == 0) {
      // Nothing armed: forget the stale entries at once rather than carry them.
      Arrays.fill(events, 0, size, null);
      size = 0;
    }
    return true;
  }

  private void dropStaleTop() {
    if (live == 0) {
      throw new IllegalStateException("event queue is empty");
    }
    while (true) {
      Event top = events[0];
      if (top.armed && top.seq == keys[1]) {
        return;
      }
      removeTop();
    }
  }

  private void removeTop() {
    int last = --size;
    Event moved = events[last];
    events[last] = null;
    if (last > 0) {
      siftDown(0, keys[2 * last], keys[2 * last + 1], moved);
    }
  }

  private void siftUp(int hole, long t, long s, Event e) {
    long[] k = keys;
    while (hole > 0) {
      int parent = (hole - 1) >>> 2;
      long pt = k[2 * parent];
      if (pt < t || (pt == t && k[2 * parent + 1] < s)) {
        break;
      }
      k[2 * hole] = pt;
      k[2 * hole + 1] = k[2 * parent + 1];
      events[hole] = events[parent];
      hole = parent;
    }
    k[2 * hole] = t;
    k[2 * hole + 1] = s;
    events[hole] = e;
  }

  private void siftDown(int hole, long t, long s, Event e) {
    long[] k = keys;
    int n = size;
    while (true) {
      int first = 4 * hole + 1;
      if (first >= n) {
        break;
      }
      int end = Math.min(first + 4, n);
      int best = first;
      long bt = k[2 * first];
      long bs = k[2 * first + 1];
      for (int c = first + 1; c < end; c++) {
        long ct = k[2 * c];
        if (ct < bt || (ct == bt && k[2 * c + 1] < bs)) {
          best = c;
          bt = ct;
          bs = k[2 * c + 1];
        }
      }
      if (t < bt || (t == bt && s < bs)) {
        break;
      }
      k[2 * hole] = bt;
      k[2 * hole + 1] = bs;
      events[hole] = events[best];
      hole = best;
    }
    k[2 * hole] = t;
    k[2 * hole + 1] = s;
    events[hole] = e;
  }

  private void grow() {
    int n = events.length * 2;
    keys = Arrays.copyOf(keys, 2 * n);
    events = Arrays.copyOf(events, n);
  }
}
