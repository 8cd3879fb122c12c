package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The event set in hand-built scenarios (the hole a poll leaves, ties, cancellation anywhere in
 * the heap, stale entries piling up and purged, the hold model), each checked after every
 * operation against {@link java.util.PriorityQueue} ordered by (time, arming order), the
 * documented order of the lab. The purge's bound is the one the queue's overview documents: an
 * add purges at 128 entries, or twice the live entries the last purge kept.
 *
 * <p>Every drain is bounded by the model's count, so a queue that miscounts fails an assertion
 * instead of being polled past its end.
 */
class EventQueueTests {

  /** Entries at which an add first purges the stale ones. */
  private static final int PURGE_MIN = 128;

  /** The queue and its reference model side by side; every operation is checked. */
  private static final class Twin {
    private record Armed(long time, long seq, Event event) {}

    final EventQueue queue;
    private final PriorityQueue<Armed> model =
        new PriorityQueue<>(Comparator.comparingLong(Armed::time).thenComparingLong(Armed::seq));
    private final List<Armed> armedOf = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private final IdentityHashMap<Event, Integer> indexOf = new IdentityHashMap<>();
    private long seq;
    private int mostArmed;

    Twin(int initialCapacity, int eventCount) {
      queue = new EventQueue(initialCapacity);
      for (int i = 0; i < eventCount; i++) {
        Event e = new Event("e" + i, now -> { });
        events.add(e);
        indexOf.put(e, i);
        armedOf.add(null);
      }
    }

    Event event(int i) {
      return events.get(i);
    }

    void add(int i, long time) {
      Event e = events.get(i);
      queue.add(e, time);
      Armed a = new Armed(time, seq++, e);
      armedOf.set(i, a);
      model.add(a);
      if (!e.isScheduled() || e.time() != time) {
        assertThat(e).as("just armed").hasToString(e.name() + "@" + time);
      }
      checkSize();
    }

    void cancel(int i) {
      Event e = events.get(i);
      Armed a = armedOf.get(i);
      boolean removed = queue.remove(e);
      if (removed != (a != null) || e.isScheduled()) {
        assertThat(removed).as("cancel %s", e.name()).isEqualTo(a != null);
        assertThat(e.isScheduled()).as("%s after cancel", e.name()).isFalse();
      }
      if (a != null) {
        model.remove(a);
        armedOf.set(i, null);
      }
      checkSize();
    }

    /** Polls one event and checks it is the model's first; returns its index. */
    int poll() {
      Armed first = model.poll();
      if (first == null) {
        throw new AssertionError("the model has no event to poll");
      }
      long peeked = queue.peekTime();
      if (peeked != first.time()) {
        assertThat(peeked).as("peek before polling %s", first.event().name()).isEqualTo(first.time());
      }
      Event got = queue.poll();
      if (got != first.event()) {
        assertThat(got.name()).as("poll at %d", first.time()).isEqualTo(first.event().name());
      }
      if (got.isScheduled()) {
        assertThat(got.isScheduled()).as("%s after poll", got.name()).isFalse();
      }
      int i = indexOf.get(got);
      armedOf.set(i, null);
      checkSize();
      return i;
    }

    /** Polls every armed event (as many polls as the model holds) and checks the queue is empty. */
    void drain() {
      for (int n = model.size(); n > 0; n--) {
        poll();
      }
      assertThat(queue.isEmpty()).isTrue();
      assertThatIllegalStateException().isThrownBy(queue::poll).withMessage("event queue is empty");
      assertThatIllegalStateException().isThrownBy(queue::peekTime).withMessage("event queue is empty");
    }

    int size() {
      return model.size();
    }

    /** Checks the count, and that stale entries stay within the purge's bound. */
    private void checkSize() {
      if (queue.size() != model.size() || queue.isEmpty() != model.isEmpty()) {
        assertThat(queue.size()).as("size").isEqualTo(model.size());
        assertThat(queue.isEmpty()).as("isEmpty").isEqualTo(model.isEmpty());
      }
      mostArmed = Math.max(mostArmed, model.size());
      int bound = Math.max(PURGE_MIN, 2 * mostArmed);
      if (queue.entries() > bound) {
        assertThat(queue.entries()).as("entries, at most %d armed so far", mostArmed).isLessThanOrEqualTo(bound);
      }
    }
  }

  @Test
  void aPollThenReArmFillsTheRootAndKeepsTimeThenArmingOrder() {
    Twin t = new Twin(1, 8);
    long[] times = {50, 30, 90, 30, 70, 10};
    for (int i = 0; i < times.length; i++) {
      t.add(i, times[i]);
    }
    // Hand-worked: e5@10 first, then e1@30 before e3@30 (armed earlier).
    assertThat(t.poll()).isEqualTo(5);
    t.add(5, 30); // re-armed for 30: after e1 and e3, armed before it
    assertThat(t.poll()).isEqualTo(1);
    t.add(6, 20); // fills the hole the poll left, and is now the earliest
    assertThat(t.poll()).isEqualTo(6);
    assertThat(t.poll()).isEqualTo(3);
    assertThat(t.poll()).isEqualTo(5);
    t.add(7, 95);
    assertThat(t.poll()).isEqualTo(0);
    t.cancel(4); // e4@70, now the root: its stale entry is dropped on the next peek
    assertThat(t.queue.peekTime()).isEqualTo(90);
    assertThat(t.poll()).isEqualTo(2);
    assertThat(t.poll()).isEqualTo(7);
    t.drain();
  }

  /**
   * A full heap with cancelled entries among the live ones: the add that finds it at 128
   * entries drops the stale ones, and the rest still come out in order.
   */
  @Test
  void anAddIntoAFullHeapPurgesTheCancelledEntriesAndKeepsEveryLiveOne() {
    int n = 300;
    Twin t = new Twin(1, n);
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < PURGE_MIN; i++) {
      t.add(i, r.nextLong(1_000_000));
    }
    for (int i = 0; i < PURGE_MIN; i += 5) {
      t.cancel(i);
    }
    assertThat(t.queue.entries()).isEqualTo(PURGE_MIN);
    t.add(PURGE_MIN, r.nextLong(1_000_000));
    assertThat(t.queue.entries()).as("102 live kept, then the new one").isEqualTo(103);
    for (int i = PURGE_MIN + 1; i < n; i++) {
      t.add(i, r.nextLong(1_000_000));
    }
    t.cancel(200);
    t.add(200, 5);
    t.cancel(299);
    t.drain();
  }

  /**
   * A purge whose stale entries include the root's (the earliest event, cancelled since the last
   * poll) rebuilds the heap down to the root, so the next earliest comes out first.
   */
  @Test
  void aPurgeThatDropsTheCancelledEarliestEventRebuildsTheHeapToTheRoot() {
    Twin t = new Twin(1, PURGE_MIN + 1);
    for (int i = 0; i < PURGE_MIN; i++) {
      t.add(i, 1_000 - i);
    }
    assertThat(t.queue.peekTime()).isEqualTo(1_000 - (PURGE_MIN - 1));
    t.cancel(PURGE_MIN - 1);
    t.cancel(PURGE_MIN - 2);
    t.add(PURGE_MIN, 2_000);
    assertThat(t.queue.entries()).as("126 live kept, then the new one").isEqualTo(PURGE_MIN - 1);
    assertThat(t.poll()).isEqualTo(PURGE_MIN - 3);
    t.drain();
  }

  /**
   * After a purge that keeps n live entries, stale ones may pile up to 2n before the next: a
   * queue of many armed events is not purged on every add.
   */
  @Test
  void aPurgeWaitsForTwiceTheEntriesTheLastOneKept() {
    Twin t = new Twin(1, 200);
    for (int i = 0; i < 200; i++) {
      t.add(i, 1_000_000 + i);
    }
    // The add of the 129th purged (nothing stale), kept 128 and waits for 256 entries.
    for (int i = 0; i < 50; i++) {
      t.cancel(i);
      t.add(i, 2_000_000 + i);
    }
    assertThat(t.queue.entries()).as("200 live, 50 stale").isEqualTo(250);
    t.drain();
  }

  /**
   * Far-off timeouts pushed back again and again while two near events are held in turn: each
   * push leaves a stale entry whose time never comes within the run, and the purge alone keeps
   * the heap at 128 entries or fewer.
   */
  @Test
  void reArmingFarOffEventsOverAndOverKeepsTheHeapBounded() {
    Twin t = new Twin(1, 10);
    for (int i = 0; i < 10; i++) {
      t.add(i, i < 2 ? i : 1_000_000_000L + i);
    }
    for (int k = 0; k < 5_000; k++) {
      long now = t.queue.peekTime();
      int i = t.poll();
      assertThat(i).as("a near event").isLessThan(2);
      t.add(i, now + 1 + (k % 3));
      int j = 2 + (k % 8);
      t.cancel(j);
      t.add(j, now + 1_000_000_000L + k);
    }
    assertThat(t.queue.entries()).isLessThanOrEqualTo(PURGE_MIN);
    t.drain();
  }

  @Test
  void manyEventsOfOneInstantComeOutInArmingOrderAndLaterOnesFollow() {
    Twin t = new Twin(1, 260);
    for (int i = 0; i < 200; i++) {
      t.add(i, 1_000);
    }
    assertThat(t.poll()).isEqualTo(0);
    assertThat(t.poll()).isEqualTo(1);
    // Later events, the same instant, and one earlier than all of them.
    for (int i = 200; i < 250; i++) {
      t.add(i, 1_000 + (i % 7));
    }
    t.add(250, 1_000);
    t.add(251, 999);
    assertThat(t.poll()).isEqualTo(251);
    for (int i = 2; i < 200; i++) {
      assertThat(t.poll()).isEqualTo(i);
    }
    t.drain();
  }

  @Test
  void cancellingAnywhereInTheHeapLeavesNoTrace() {
    int n = 400;
    Twin t = new Twin(4, n);
    SplittableRandom r = new SplittableRandom(13);
    for (int i = 0; i < n; i++) {
      t.add(i, r.nextLong(10_000_000));
    }
    t.poll();
    // Cancel the last and every third armed event, wherever their entries sit; then re-arm
    // some of them for times across the whole range.
    for (int i = 0; i < n; i++) {
      if (t.event(i).isScheduled() && (i % 3 == 0 || i == n - 1)) {
        t.cancel(i);
      }
    }
    for (int i = 0; i < n; i += 6) {
      t.add(i, r.nextLong(20_000_000));
    }
    for (int k = 0; k < 100; k++) {
      t.poll();
    }
    // Cancel everything left: the queue is empty and works as new, through a second purge.
    for (int i = 0; i < n; i++) {
      t.cancel(i);
    }
    assertThat(t.size()).isZero();
    assertThat(t.queue.isEmpty()).isTrue();
    assertThat(t.queue.entries()).as("stale entries of an empty queue").isZero();
    for (int i = 0; i < 10; i++) {
      t.add(i, 100 - i);
    }
    assertThat(t.poll()).isEqualTo(9);
    for (int i = 10; i < n; i++) {
      t.add(i, r.nextLong(30_000_000));
    }
    t.drain();
  }

  /**
   * The hold model (Jones 1986): a steady population, each poll followed by a re-arm a random
   * increment later. Populations on both sides of the first purge, increments from ties to
   * wide spreads.
   */
  @Test
  void theHoldModelMatchesAPriorityQueueAtEveryPopulation() {
    for (int population : new int[] {3, 100, PURGE_MIN + 1, 2_000}) {
      Twin t = new Twin(1, population + 1);
      SplittableRandom r = new SplittableRandom(population);
      for (int i = 0; i < population; i++) {
        t.add(i, r.nextLong(1_000));
      }
      long now = 0;
      for (int k = 0; k < 6_000; k++) {
        long at = t.queue.peekTime();
        if (at < now) {
          assertThat(at).as("time never goes back").isGreaterThanOrEqualTo(now);
        }
        now = at;
        int i = t.poll();
        long step = switch (k % 4) {
          case 0 -> 0;
          case 1 -> r.nextLong(8);
          case 2 -> r.nextLong(100_000);
          default -> (long) (-Math.log(1 - r.nextDouble()) * 1_000_000);
        };
        t.add(i, now + step);
        if (k % 500 == 0) {
          // A cancel and re-arm of some other armed event (a rescheduled timer).
          int j = r.nextInt(population);
          t.cancel(j);
          t.add(j, now + r.nextLong(2_000_000));
        }
      }
      assertThat(t.size()).isEqualTo(population);
      t.drain();
    }
  }
}
