package dev.kernellab.hw.sim;

import java.util.Arrays;

/**
 * The simulator's pending-event set, ordered by (time, sequence number).
 *
 * <p>Events armed for the same instant come out in the order they were armed (the sequence
 * number is taken at arming), which is the documented tie-break of the whole lab: same
 * configuration and seed, same order, same trace.
 *
 * <pre>{@code
 * EventQueue q = new EventQueue();
 * q.add(tick, 1_000);
 * q.add(irq, 1_000);            // same instant, armed later: comes out after tick
 * long t = q.peekTime();        // 1_000
 * Event first = q.poll();       // tick, now unarmed
 * q.remove(irq);                // cancelled; remove of an unarmed event returns false
 * }</pre>
 *
 * <p>Adding and polling take O(log n) time in the number of armed events, cancelling O(1)
 * amortized, and the steady state allocates nothing. Not thread-safe; one queue belongs to one
 * simulation.
 */
public final class EventQueue {

  /*
   * Implementation overview
   *
   * A 4-ary min-heap on (time, seq) whose keys live interleaved in one long[], so that a sift
   * compares longs that sit side by side and never dereferences an Event:
   *
   *      entry:        0           1           2     ...
   *      keys:   [t0][s0]    [t1][s1]    [t2][s2]    ...   keys[2i] = time, keys[2i+1] = seq
   *      events:  e0          e1          e2         ...
   *
   *      children of entry i: 4i+1 .. 4i+4 (four adjacent 16-byte entries, about one cache
   *      line); parent of i: (i-1)/4. Four-way fan-out halves the depth of a binary heap [2].
   *
   * seq is unique, so (time, seq) is a total order: whatever shape the heap has, events come
   * out in exactly that order, which is why purging (below) cannot change a trace.
   *
   * The lab's workloads keep few events armed: at most 4 on 1 CPU, 12 on 4 and 23 on 8 (every
   * standard workload, O(1) with preempt, sampled every 100 us over 10 simulated s), so the
   * queue is a plain heap: a structure built for very many pending events (a calendar or
   * ladder queue) would serve no model.
   *
   * Cancelling is lazy: Event.seq becomes -1 and the entry stays, to be dropped when it
   * reaches the root, where its seq no longer matches its event's. That keeps remove() O(1) and
   * sifts free of writes into Event objects. But components re-arm far-off events again and
   * again (timeouts, kernel timers pushed back by mod_timer), and each re-arm leaves a stale
   * entry that lives until its old time. Counted with the purge off, stress on 8 CPUs (O(1),
   * vanilla, 10 simulated s) left a queue of 3,871 entries for at most 22 armed events, kbuild
   * on 1 CPU one of 1,742 for 4. So an add that finds the heap at purgeAt entries first purges it: it keeps
   * the live entries (those whose seq matches their event's) and rebuilds the heap bottom-up
   * (Floyd [3]), then sets purgeAt to twice the entries left, at least PURGE_MIN. At least as
   * many adds as entries left come between two purges, so a purge costs O(1) per add.
   *
   * poll() only marks the root as a hole (holeAtRoot); if the next add fills it, one sift down
   * from the root places the new entry, so the hold pattern "poll, then re-arm" costs one sift
   * instead of two. The entry an add sifts is the newest, with the largest seq, so it is
   * compared by time alone.
   *
   * Invariants: live == number of armed events; an armed event has exactly one entry, whose
   * seq equals Event.seq, and every other entry naming it is stale; heap order on (time, seq)
   * over entries 0..size-1, except entry 0 while holeAtRoot; size < purgeAt, or an add is about
   * to purge; size == 0 when live == 0 and no hole is pending. Arrays grow by doubling and never
   * shrink, so a simulation in steady state allocates nothing.
   *
   * References:
   * [1] D. Jones, "An empirical comparison of priority-queue and event-set implementations",
   *     CACM 29(4), 1986 (the hold model that benchmarks/HoldModelBenchmark measures).
   * [2] A. LaMarca and R. Ladner, "The influence of caches on the performance of heaps",
   *     ACM JEA 1, 1996 (d-ary heaps).
   * [3] R. W. Floyd, "Algorithm 245: Treesort 3", CACM 7(12), 1964 (bottom-up heap building).
   */

  /** Fewest entries at which an add purges the stale ones. */
  private static final int PURGE_MIN = 128;

  private long[] keys;
  private Event[] events;
  private int size; // entries, stale ones and a pending hole included
  private boolean holeAtRoot;
  private int purgeAt = PURGE_MIN; // size at which the next add purges; >= PURGE_MIN
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

  /** Heap entries, stale ones included: what the purge bounds (for tests). */
  int entries() {
    return size;
  }

  /**
   * Arms {@code e} for {@code time}.
   *
   * @throws IllegalStateException if {@code e} is already armed
   * @throws IllegalArgumentException if {@code time} is negative
   */
  public void add(Event e, long time) {
    if (e.seq >= 0 || time < 0) {
      throw rejection(e, time);
    }
    long seq = nextSeq++;
    e.time = time;
    e.seq = seq;
    live++;
    // Kept small so that it inlines into the caller; growing and purging are out of line.
    if (holeAtRoot) {
      holeAtRoot = false;
      siftDownNewest(time, seq, e);
    } else {
      addToEnd(e, time, seq);
    }
  }

  private static RuntimeException rejection(Event e, long time) {
    if (e.seq >= 0) {
      return new IllegalStateException("event " + e.name() + " is already scheduled at " + e.time);
    }
    return new IllegalArgumentException("negative time " + time + " for event " + e.name());
  }

  private void addToEnd(Event e, long time, long seq) {
    if (size >= purgeAt) {
      purgeStale();
    }
    if (size == events.length) {
      grow();
    }
    siftUpNewest(size++, time, seq, e);
  }

  /** Time of the earliest armed event. The queue must not be empty. */
  public long peekTime() {
    settleRoot();
    return keys[0];
  }

  /** Removes and returns the earliest event (unarmed on return). The queue must not be empty. */
  public Event poll() {
    settleRoot();
    Event first = events[0];
    holeAtRoot = true;
    first.seq = -1;
    live--;
    return first;
  }

  /**
   * Disarms {@code e}. Returns false (and does nothing) if it was not armed, so a component can
   * cancel unconditionally.
   */
  public boolean remove(Event e) {
    if (e.seq < 0) {
      return false;
    }
    e.seq = -1;
    live--;
    if (live == 0) {
      // Nothing armed, so every entry is stale: forget them at once.
      Arrays.fill(events, 0, size, null);
      size = 0;
      holeAtRoot = false;
      purgeAt = PURGE_MIN;
    }
    return true;
  }

  /** Makes entry 0 the earliest armed event. */
  private void settleRoot() {
    // An entry at the root whose seq matches its event is armed, so live > 0 is implied. A
    // hole never matches: it holds the polled event, unarmed (seq -1) until an add fills it.
    if (size == 0 || events[0].seq != keys[1]) {
      settleRootSlowly();
    }
  }

  private void settleRootSlowly() {
    if (live == 0) {
      throw new IllegalStateException("event queue is empty");
    }
    holeAtRoot = false; // a hole is a stale entry: the loop drops it
    // Some entry is live (live > 0), so this stops before the heap runs empty.
    while (events[0].seq != keys[1]) {
      removeRoot();
    }
  }

  /** Drops the stale entries and rebuilds the heap from the live ones (no hole is pending). */
  private void purgeStale() {
    long[] k = keys;
    Event[] ev = events;
    int kept = 0;
    for (int i = 0; i < size; i++) {
      Event e = ev[i];
      if (e.seq == k[2 * i + 1]) {
        k[2 * kept] = k[2 * i];
        k[2 * kept + 1] = k[2 * i + 1];
        ev[kept++] = e;
      }
    }
    Arrays.fill(ev, kept, size, null);
    size = kept;
    if (kept > 1) {
      for (int i = (kept - 2) >>> 2; i >= 0; i--) {
        siftDown(i, k[2 * i], k[2 * i + 1], ev[i]);
      }
    }
    purgeAt = Math.max(PURGE_MIN, 2 * kept);
  }

  private void removeRoot() {
    int last = --size;
    Event moved = events[last];
    events[last] = null;
    if (last > 0) {
      siftDown(0, keys[2 * last], keys[2 * last + 1], moved);
    }
  }

  /*
   * The sifts of add() move the newest entry, whose seq exceeds every other: it goes after an
   * entry iff its time is not earlier, so comparing it needs the time alone. Only choosing
   * between two resident entries needs the full (time, seq) comparison.
   */

  private void siftUpNewest(int hole, long t, long s, Event e) {
    long[] k = keys;
    Event[] ev = events;
    while (hole > 0) {
      int parent = (hole - 1) >>> 2;
      long pt = k[2 * parent];
      if (pt <= t) {
        break;
      }
      k[2 * hole] = pt;
      k[2 * hole + 1] = k[2 * parent + 1];
      ev[hole] = ev[parent];
      hole = parent;
    }
    k[2 * hole] = t;
    k[2 * hole + 1] = s;
    ev[hole] = e;
  }

  /** Fills the hole at the root with the newest entry. */
  private void siftDownNewest(long t, long s, Event e) {
    long[] k = keys;
    Event[] ev = events;
    int n = size;
    int hole = 0;
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
        long cs = k[2 * c + 1];
        if (ct < bt || (ct == bt && cs < bs)) {
          best = c;
          bt = ct;
          bs = cs;
        }
      }
      if (t < bt) {
        break;
      }
      k[2 * hole] = bt;
      k[2 * hole + 1] = bs;
      ev[hole] = ev[best];
      hole = best;
    }
    k[2 * hole] = t;
    k[2 * hole + 1] = s;
    ev[hole] = e;
  }

  private void siftDown(int hole, long t, long s, Event e) {
    long[] k = keys;
    Event[] ev = events;
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
        long cs = k[2 * c + 1];
        if (ct < bt || (ct == bt && cs < bs)) {
          best = c;
          bt = ct;
          bs = cs;
        }
      }
      if (t < bt || (t == bt && s < bs)) {
        break;
      }
      k[2 * hole] = bt;
      k[2 * hole + 1] = bs;
      ev[hole] = ev[best];
      hole = best;
    }
    k[2 * hole] = t;
    k[2 * hole + 1] = s;
    ev[hole] = e;
  }

  private void grow() {
    int n = events.length * 2;
    keys = Arrays.copyOf(keys, 2 * n);
    events = Arrays.copyOf(events, n);
  }
}
