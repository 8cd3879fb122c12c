package dev.kernellab.hw.sim;

import java.util.Arrays;

/**
 * The simulator's pending-event set, ordered by (time, sequence number).
 *
 * <p>Events armed for the same instant come out in the order they were armed (the sequence
 * number is taken at arming), which is the documented tie-break of the whole lab: same
 * configuration and seed, same order, same trace.
 *
 * <p>Adding, polling and cancelling take constant amortized time for the event-time
 * distributions simulations produce, and the steady state allocates nothing.
 *
 * <p>Not thread-safe; one queue belongs to one simulation.
 */
public final class EventQueue {

  /*
   * Implementation overview
   *
   * A ladder queue (Tang, Goh and Thng 2005) whose bottom is a small 4-ary heap. Events are
   * kept in three tiers, split by time only, so that every event of a lower tier precedes
   * every event of a higher one:
   *
   *   top     unsorted list                      times > topThreshold
   *             |  when everything below is used up, moved down as one batch
   *             v
   *   rung 0  buckets of width 2^shift0 . . . [b][b][b][b][b]     times >= curStart0
   *   rung 1    (one bucket of rung 0, split)   [b][b][b][b]      times >= curStart1
   *   ...       up to MAX_RUNGS rungs, each finer than the one above
   *             |  the deepest rung's next non-empty bucket, once the heap is empty
   *             v
   *   bottom  4-ary heap on (time, seq)                           everything earlier
   *
   * add(e, t) files e by t alone: into the top if t > topThreshold, else into the coarsest rung
   * whose current bucket starts at or before t (bucket (t - start) >>> shift, the last bucket
   * taking any overshoot), else into the heap. Only the heap compares sequence numbers, and
   * events with equal times always share a bucket, so ties reach the heap together and leave it
   * in arming order: the order is exactly (time, seq), with no approximation.
   *
   * When the heap runs empty, the deepest rung hands over its next non-empty bucket (a rung
   * with none left is dropped). A bucket with at most BATCH events, or whose events all share
   * one time, or that would need a rung deeper than MAX_RUNGS, goes into the heap; a larger
   * one becomes a new rung with about one bucket per event over its actual [min, max]. With no
   * rungs left, the top is handed over the same way and topThreshold becomes its maximum. Each
   * event is thus moved at most MAX_RUNGS + 2 times, and for the usual distributions only once
   * or twice, so operations cost O(1) amortized instead of the O(log n) of a heap. Buckets use
   * power-of-two widths so that filing an event needs a shift, not a division. Workloads the
   * ladder cannot split (many events at one instant) degrade gracefully to the heap.
   *
   * What the lab's own runs need: every standard workload (stress, dbench, kbuild, latencytest,
   * cyclictest; O(1) with preempt) keeps at most 4 events pending on 1 CPU, 12 on 4 and 23 on 8
   * (sampled every 100 us over 10 simulated s), far below SPILL, so they run in heap mode from
   * start to end and the ladder costs them one comparison per add (t > topThreshold, false by
   * construction in heap mode) and nothing per poll. The ladder stays for models with many
   * more pending events (thousands of armed timers, many CPUs), where a heap's log n would show.
   *
   * Heap mode. A small queue is cheaper as a plain heap than as a ladder, so while
   * topThreshold == HEAP_MODE (Long.MAX_VALUE: no time exceeds it) every event goes to the heap.
   * When the heap reaches SPILL entries, its live entries move to the top (topThreshold = -1)
   * and the ladder builds itself on the next refill; a top hand-over of at most BATCH events
   * returns to heap mode. The gap between SPILL and BATCH keeps a queue near the limit from
   * flapping, and a large single-instant hand-over stays in ladder mode so that adds do not
   * spill it again and again.
   *
   * The top and the rung buckets are doubly linked lists of nodes in a pool of parallel arrays
   * (free nodes chained through nodeNext; node 0 is the null link, so new head arrays are empty
   * lists). The links sit in small int arrays that stay in the cache, so walking a bucket does
   * not chase pointers through scattered Event objects; the keys and Event references, read
   * once per node, come from independent loads whose misses overlap. A bucket goes into the
   * heap as a plain copy followed by one bottom-up heap construction (Floyd), again so that its
   * loads do not wait on one another. Cancelling a listed event (Event.node names its node)
   * unlinks it at once, so rescheduling a far-off timer over and over leaves nothing behind.
   *
   * The heap keeps its keys interleaved in one long[] (keys[2i] = time, keys[2i+1] = seq) so a
   * sift compares neighbouring longs and never dereferences an Event; children of entry i are
   * 4i+1 .. 4i+4. Cancelling an event that is in the heap is lazy: Event.seq becomes -1 and the
   * stale entry is dropped when it reaches the root, where seq no longer matches. poll() only
   * marks the root as a hole (holeAtRoot); if the next add lands in the heap it fills the hole
   * and sifts down once, so the hold pattern "poll, then re-arm" costs one sift instead of two.
   * The entry add() sifts is the newest, with the largest seq, so it is compared by time alone.
   *
   * Invariants: live == number of armed events; an armed event is in exactly one list (top or
   * a rung bucket, with Event.node its node) or has exactly one heap entry with its seq (and
   * Event.node == 0); lists hold only armed events, so every list is empty when live == 0;
   * every bucket outside an active rung is empty, so a new rung needs no clearing; the tiers
   * are ordered (heap < deepest rung < ... < rung 0 < top, by time); in heap mode there are no
   * rungs and the top is empty; heap order on (time, seq) over entries 0..heapSize-1, except
   * entry 0 while holeAtRoot. Arrays grow by doubling and never shrink, so a simulation in
   * steady state allocates nothing. Stale heap entries live until they reach the root, or
   * until the queue empties.
   *
   * References: W. T. Tang, R. S. M. Goh and I. L.-J. Thng, "Ladder Queue: an O(1) priority
   * queue structure for large-scale discrete event simulation", ACM TOMACS 15(3), 2005;
   * R. Brown, "Calendar queues", CACM 31(10), 1988; D. Jones, "An empirical comparison of
   * priority-queue and event-set implementations", CACM 29(4), 1986 (the hold model);
   * A. LaMarca and R. Ladner, "The influence of caches on the performance of heaps", 1996.
   */

  /** Largest bucket moved into the heap as is; larger ones are split into a new rung. */
  private static final int BATCH = 48;

  private static final int MAX_RUNGS = 8;

  /** Heap size at which heap mode hands the heap to the ladder. */
  private static final int SPILL = 128;

  /** topThreshold in heap mode: no time exceeds it, so every event goes to the heap. */
  private static final long HEAP_MODE = Long.MAX_VALUE;

  /** Node level of the top list. */
  private static final byte TOP = -1;

  /** The null node: node 0 is never allocated, so fresh int arrays are all empty lists. */
  private static final int NIL = 0;

  // Bottom heap.
  private long[] keys;
  private Event[] heapEvents;
  private int heapSize; // entries, stale ones and a pending hole included
  private boolean holeAtRoot;

  // List nodes (1 .. nodeHigh-1), free ones chained through nodeNext.
  private long[] nodeKeys; // time, seq
  private Event[] nodeEvents;
  private int[] nodeNext;
  private int[] nodePrev;
  private int[] nodeBucket;
  private byte[] nodeLevel;
  private int nodeHigh = 1;
  private int freeNode = NIL;

  // Top.
  private int topHead = NIL;
  private int topCount;
  private long topMin = Long.MAX_VALUE;
  private long topMax = -1;
  private long topThreshold = HEAP_MODE;

  // Rungs, index 0 the coarsest.
  private int rungs;
  private final long[] rungStart = new long[MAX_RUNGS];
  private final int[] rungShift = new int[MAX_RUNGS];
  private final int[] rungBuckets = new int[MAX_RUNGS];
  private final int[] rungCur = new int[MAX_RUNGS];
  private final long[] rungCurStart = new long[MAX_RUNGS];
  private final int[][] rungHeads = new int[MAX_RUNGS][];
  private final int[][] rungCounts = new int[MAX_RUNGS][];

  private int live; // armed events
  private long nextSeq;

  /** Creates an empty queue with room for {@code initialCapacity} events before it grows. */
  public EventQueue(int initialCapacity) {
    if (initialCapacity < 1) {
      throw new IllegalArgumentException("initial capacity must be >= 1, got " + initialCapacity);
    }
    keys = new long[2 * initialCapacity];
    heapEvents = new Event[initialCapacity];
    allocateNodes(initialCapacity + 1);
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
    // Kept small so that it inlines into the caller; everything but the heap is out of line.
    if (time > topThreshold) {
      addToTop(e, time, seq);
    } else if (rungs != 0 && time >= rungCurStart[rungs - 1]) {
      addToRung(e, time, seq);
    } else if (holeAtRoot) {
      holeAtRoot = false;
      siftDownNewest(time, seq, e);
    } else {
      addToHeapEnd(e, time, seq);
    }
  }

  private static RuntimeException rejection(Event e, long time) {
    if (e.seq >= 0) {
      return new IllegalStateException("event " + e.name() + " is already scheduled at " + e.time);
    }
    return new IllegalArgumentException("negative time " + time + " for event " + e.name());
  }

  private void addToTop(Event e, long time, long seq) {
    linkTop(newNode(e, time, seq));
    topMin = Math.min(topMin, time);
    topMax = Math.max(topMax, time);
  }

  private void addToRung(Event e, long time, long seq) {
    int r = 0;
    while (time < rungCurStart[r]) {
      r++;
    }
    long b = (time - rungStart[r]) >>> rungShift[r];
    int last = rungBuckets[r] - 1;
    link(newNode(e, time, seq), r, b < last ? (int) b : last);
  }

  private void addToHeapEnd(Event e, long time, long seq) {
    if (heapSize >= SPILL && topThreshold == HEAP_MODE) {
      spillHeapToTop();
      addToTop(e, time, seq);
      return;
    }
    if (heapSize == heapEvents.length) {
      growHeap();
    }
    siftUpNewest(heapSize++, time, seq, e);
  }

  /** Time of the earliest armed event. The queue must not be empty. */
  public long peekTime() {
    settleRoot();
    return keys[0];
  }

  /** Removes and returns the earliest event (unarmed on return). The queue must not be empty. */
  public Event poll() {
    settleRoot();
    Event first = heapEvents[0];
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
    if (e.node != NIL) {
      unlink(e.node);
      e.node = NIL;
    }
    if (live == 0) {
      // Nothing armed, so the lists are empty: forget the stale heap entries at once.
      Arrays.fill(heapEvents, 0, heapSize, null);
      heapSize = 0;
      holeAtRoot = false;
      rungs = 0;
      topThreshold = HEAP_MODE;
      topMin = Long.MAX_VALUE;
      topMax = -1;
    }
    return true;
  }

  /** Makes heap entry 0 the earliest armed event. */
  private void settleRoot() {
    // An entry at the root whose seq matches its event is armed, so live > 0 is implied.
    if (holeAtRoot || heapSize == 0 || heapEvents[0].seq != keys[1]) {
      settleRootSlowly();
    }
  }

  private void settleRootSlowly() {
    if (live == 0) {
      throw new IllegalStateException("event queue is empty");
    }
    if (holeAtRoot) {
      holeAtRoot = false;
      removeRoot();
    }
    while (true) {
      if (heapSize == 0) {
        refill();
      }
      if (heapEvents[0].seq == keys[1]) {
        return;
      }
      removeRoot();
    }
  }

  /** Moves the earliest batch of listed events into the empty heap (some are armed: live > 0). */
  private void refill() {
    while (heapSize == 0) {
      if (rungs == 0) {
        int head = topHead;
        int n = topCount;
        long min = topMin;
        long max = topMax;
        topHead = NIL;
        topCount = 0;
        topMin = Long.MAX_VALUE;
        topMax = -1;
        if (n > BATCH && max > min) {
          topThreshold = max;
          spawnRung(head, n, min, max);
        } else {
          // A small batch means a small queue: back to heap mode. A large batch of one
          // instant stays in ladder mode, lest every add spill it back into the top.
          topThreshold = n <= BATCH ? HEAP_MODE : max;
          drainToHeap(head);
        }
        continue;
      }
      int r = rungs - 1;
      int[] heads = rungHeads[r];
      int nb = rungBuckets[r];
      int b = rungCur[r];
      while (b < nb && heads[b] == NIL) {
        b++;
      }
      if (b == nb) {
        rungs--;
        continue;
      }
      int head = heads[b];
      int[] counts = rungCounts[r];
      int n = counts[b];
      heads[b] = NIL;
      counts[b] = 0;
      if (b + 1 == nb) {
        rungs--;
      } else {
        rungCur[r] = b + 1;
        rungCurStart[r] = rungStart[r] + ((long) (b + 1) << rungShift[r]);
      }
      if (n > BATCH && rungs < MAX_RUNGS) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = head; i != NIL; i = nodeNext[i]) {
          min = Math.min(min, nodeKeys[2 * i]);
          max = Math.max(max, nodeKeys[2 * i]);
        }
        if (max > min) {
          spawnRung(head, n, min, max);
          continue;
        }
      }
      drainToHeap(head);
    }
  }

  /** Makes the n listed events, spanning [min, max] with max > min, the new deepest rung. */
  private void spawnRung(int head, int n, long min, long max) {
    long span = max - min;
    int shift = 0;
    while ((span >>> shift) >= n) {
      shift++;
    }
    int nb = (int) (span >>> shift) + 1;
    int r = rungs++;
    if (rungHeads[r] == null || rungHeads[r].length < nb) {
      int cap = rungHeads[r] == null ? nb : Math.max(nb, 2 * rungHeads[r].length);
      rungHeads[r] = new int[cap];
      rungCounts[r] = new int[cap];
    }
    rungStart[r] = min;
    rungShift[r] = shift;
    rungBuckets[r] = nb;
    rungCur[r] = 0;
    rungCurStart[r] = min;
    int i = head;
    while (i != NIL) {
      int next = nodeNext[i];
      link(i, r, (int) ((nodeKeys[2 * i] - min) >>> shift));
      i = next;
    }
  }

  /**
   * Moves a list into the empty heap: first a plain copy, whose loads do not depend on one
   * another and so overlap their cache misses, then one bottom-up heap construction.
   */
  private void drainToHeap(int head) {
    int size = 0;
    for (int i = head; i != NIL; ) {
      if (size == heapEvents.length) {
        growHeap();
      }
      Event e = nodeEvents[i];
      keys[2 * size] = nodeKeys[2 * i];
      keys[2 * size + 1] = nodeKeys[2 * i + 1];
      heapEvents[size++] = e;
      e.node = NIL;
      int next = nodeNext[i];
      freeNode(i);
      i = next;
    }
    heapSize = size;
    for (int i = (size - 2) >>> 2; size > 1 && i >= 0; i--) {
      siftDown(i, keys[2 * i], keys[2 * i + 1], heapEvents[i]);
    }
  }

  /** Leaves heap mode: moves the live heap entries into the top, to be laddered on demand. */
  private void spillHeapToTop() {
    for (int i = 0; i < heapSize; i++) {
      Event e = heapEvents[i];
      heapEvents[i] = null;
      long t = keys[2 * i];
      long s = keys[2 * i + 1];
      if (e.seq == s) {
        linkTop(newNode(e, t, s));
        topMin = Math.min(topMin, t);
        topMax = Math.max(topMax, t);
      }
    }
    heapSize = 0;
    topThreshold = -1;
  }

  private int newNode(Event e, long time, long seq) {
    int n = freeNode;
    if (n == NIL) {
      if (nodeHigh == nodeEvents.length) {
        allocateNodes(2 * nodeEvents.length);
      }
      n = nodeHigh++;
    } else {
      freeNode = nodeNext[n];
    }
    nodeKeys[2 * n] = time;
    nodeKeys[2 * n + 1] = seq;
    nodeEvents[n] = e;
    e.node = n;
    return n;
  }

  private void freeNode(int n) {
    nodeEvents[n] = null;
    nodeNext[n] = freeNode;
    freeNode = n;
  }

  private void allocateNodes(int capacity) {
    if (nodeEvents == null) {
      nodeKeys = new long[2 * capacity];
      nodeEvents = new Event[capacity];
      nodeNext = new int[capacity];
      nodePrev = new int[capacity];
      nodeBucket = new int[capacity];
      nodeLevel = new byte[capacity];
    } else {
      nodeKeys = Arrays.copyOf(nodeKeys, 2 * capacity);
      nodeEvents = Arrays.copyOf(nodeEvents, capacity);
      nodeNext = Arrays.copyOf(nodeNext, capacity);
      nodePrev = Arrays.copyOf(nodePrev, capacity);
      nodeBucket = Arrays.copyOf(nodeBucket, capacity);
      nodeLevel = Arrays.copyOf(nodeLevel, capacity);
    }
  }

  private void linkTop(int n) {
    int h = topHead;
    nodeNext[n] = h;
    nodePrev[n] = NIL;
    if (h != NIL) {
      nodePrev[h] = n;
    }
    topHead = n;
    nodeLevel[n] = TOP;
    topCount++;
  }

  private void link(int n, int r, int b) {
    int[] heads = rungHeads[r];
    int h = heads[b];
    nodeNext[n] = h;
    nodePrev[n] = NIL;
    if (h != NIL) {
      nodePrev[h] = n;
    }
    heads[b] = n;
    rungCounts[r][b]++;
    nodeLevel[n] = (byte) r;
    nodeBucket[n] = b;
  }

  private void unlink(int n) {
    int next = nodeNext[n];
    int prev = nodePrev[n];
    if (next != NIL) {
      nodePrev[next] = prev;
    }
    int level = nodeLevel[n];
    if (level == TOP) {
      if (prev == NIL) {
        topHead = next;
      }
      topCount--;
    } else {
      if (prev == NIL) {
        rungHeads[level][nodeBucket[n]] = next;
      }
      rungCounts[level][nodeBucket[n]]--;
    }
    if (prev != NIL) {
      nodeNext[prev] = next;
    }
    freeNode(n);
  }

  private void removeRoot() {
    int last = --heapSize;
    Event moved = heapEvents[last];
    heapEvents[last] = null;
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
    Event[] ev = heapEvents;
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
    Event[] ev = heapEvents;
    int n = heapSize;
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
    Event[] ev = heapEvents;
    int n = heapSize;
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

  private void growHeap() {
    int n = heapEvents.length * 2;
    keys = Arrays.copyOf(keys, 2 * n);
    heapEvents = Arrays.copyOf(heapEvents, n);
  }
}
