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
 * The event set through each of its tiers (heap mode, the spill into the top, rungs split from
 * buckets down to the deepest, buckets of one instant, cancellation out of every tier), each
 * scenario checked after every operation against {@link java.util.PriorityQueue} ordered by
 * (time, arming order), the documented order of the lab. The sizes that decide the tiers are
 * the ones the queue's overview documents: the heap spills at 128 entries, a bucket of more
 * than 48 events is split, at most 8 rungs.
 *
 * <p>Every drain is bounded by the model's count, so a queue that miscounts fails an assertion
 * instead of being polled past its end.
 */
class EventQueueLadderTests {

  /** Above the heap-mode limit (128 entries), so that the heap spills into the top. */
  private static final int MORE_THAN_SPILL = 129;

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

    private void checkSize() {
      if (queue.size() != model.size() || queue.isEmpty() != model.isEmpty()) {
        assertThat(queue.size()).as("size").isEqualTo(model.size());
        assertThat(queue.isEmpty()).as("isEmpty").isEqualTo(model.isEmpty());
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

  @Test
  void aHeapThatSpillsIntoTheTopGivesBackEveryLiveEventInOrder() {
    int n = 300;
    Twin t = new Twin(1, n);
    SplittableRandom r = new SplittableRandom(11);
    // Fill the heap to the spill limit, with cancelled (stale) entries among the live ones.
    for (int i = 0; i < 128; i++) {
      t.add(i, r.nextLong(1_000_000));
    }
    for (int i = 0; i < 128; i += 5) {
      t.cancel(i);
    }
    for (int i = 128; i < n; i++) {
      t.add(i, r.nextLong(1_000_000));
    }
    // A cancel out of the top, and a re-arm into it, before anything is polled.
    t.cancel(200);
    t.add(200, 5);
    t.cancel(299);
    t.drain();
  }

  @Test
  void aTopOfOneInstantStaysInArmingOrderAndLaterEventsFollowIt() {
    Twin t = new Twin(1, 260);
    for (int i = 0; i < 200; i++) {
      t.add(i, 1_000);
    }
    // The hand-over of 200 events of one instant goes to the heap whole.
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
  void bucketsSplitRungAfterRungAndStillComeOutInOrder() {
    // Clusters nested at every scale: 2^k + (0..3) for k up to 40, many events per cluster,
    // so that each bucket holding a cluster is split again, down to the deepest rung.
    int n = 1_200;
    Twin t = new Twin(1, n);
    SplittableRandom r = new SplittableRandom(12);
    for (int i = 0; i < n; i++) {
      long time = switch (i % 4) {
        case 0 -> (1L << (1 + r.nextInt(40))) + r.nextInt(4);
        case 1 -> 1_000_000L + r.nextInt(64);
        case 2 -> r.nextLong(1L << 40);
        default -> 1_000_000L + r.nextInt(4) * 16L;
      };
      t.add(i, time);
    }
    // Half out, then arm into the ladder while it has rungs: earlier than the deepest rung's
    // bucket, inside a rung, past the top.
    for (int k = 0; k < n / 2; k++) {
      t.poll();
    }
    long now = t.queue.peekTime();
    int rearmed = 0;
    for (int i = 0; i < n && rearmed < 60; i++) {
      if (!t.event(i).isScheduled()) {
        long offset = switch (rearmed % 4) {
          case 0 -> 0;
          case 1 -> r.nextLong(1L << 20);
          case 2 -> r.nextLong(1L << 42);
          default -> -now; // time 0, before everything armed
        };
        t.add(i, now + offset);
        rearmed++;
      }
    }
    t.drain();
  }

  /**
   * Clusters nested eight deep, each scale 2^7 finer than the one above: one event at
   * 2^(56 - 7k) for k = 0..7 and 49 events at 0 and 1, behind one far-off event. Each bucket
   * holding the finer scales has more than 48 events and is split, until the eighth rung; its
   * first bucket (the 49 and the event at 128) then goes to the heap as is.
   */
  @Test
  void clustersNestedEightDeepSplitDownToTheDeepestRungAndComeOutInOrder() {
    Twin t = new Twin(1, 200);
    // Leave heap mode: 129 adds spill the heap into the top; all but the far-off one are
    // cancelled again (the queue must not run empty, or it returns to heap mode).
    for (int i = 0; i < MORE_THAN_SPILL; i++) {
      t.add(i, i == 0 ? Long.MAX_VALUE : 1_000_000_000L + i);
    }
    for (int i = 1; i < MORE_THAN_SPILL; i++) {
      t.cancel(i);
    }
    for (int k = 0; k < 8; k++) {
      t.add(1 + k, 1L << (56 - 7 * k));
    }
    for (int i = 0; i < 49; i++) {
      t.add(9 + i, i % 2);
    }
    assertThat(t.poll()).as("the first event armed at 0").isEqualTo(9);
    // Arm at every depth while the rungs stand: 2^30 + 5 and 2^20 fall in rungs' current
    // buckets, 300 before the deepest rung's, 600 in it, 2^57 in the first rung.
    long[] more = {(1L << 30) + 5, 1L << 20, 300, 600, 1L << 57, 1, 1L << 14};
    for (int i = 0; i < more.length; i++) {
      t.add(60 + i, more[i]);
    }
    // Cancel the ends of two rungs (2^14 and 2^21), so that they run out of buckets early.
    t.cancel(7);
    t.cancel(6);
    t.drain();
  }

  /**
   * A rung bucket of one instant with more events than the heap-mode limit goes to the heap
   * whole while later rungs still stand; events armed before that instant join it in the heap.
   */
  @Test
  void aBucketOfOneInstantLargerThanTheSpillLimitStaysInTheHeapWhileRungsStand() {
    Twin t = new Twin(1, 400);
    for (int i = 0; i < 200; i++) {
      t.add(i, 5_000);
    }
    for (int i = 200; i < 300; i++) {
      t.add(i, 6_000 + 10L * (i - 200));
    }
    assertThat(t.poll()).isEqualTo(0);
    // The 199 left at 5,000 are in the heap, the rest in the rungs.
    for (int i = 300; i < 310; i++) {
      t.add(i, 4_000 + i); // before 5,000: into the heap
    }
    t.add(310, 5_000);
    for (int i = 311; i < 320; i++) {
      t.add(i, 7_000 + i);
    }
    assertThat(t.poll()).isEqualTo(300);
    t.drain();
  }

  /**
   * Cancelling every event of a spilled queue while they wait in the top leaves nothing
   * behind: the next spill, of later events, builds its rungs from those alone.
   */
  @Test
  void aTopEmptiedByCancellingStartsAgainFromTheNextEventsAlone() {
    Twin t = new Twin(1, 2 * MORE_THAN_SPILL);
    for (int i = 0; i < MORE_THAN_SPILL; i++) {
      t.add(i, 1_000 + i);
    }
    for (int i = 0; i < MORE_THAN_SPILL; i++) {
      t.cancel(i);
    }
    assertThat(t.queue.isEmpty()).isTrue();
    for (int i = MORE_THAN_SPILL; i < 2 * MORE_THAN_SPILL; i++) {
      t.add(i, 1_000_000 + 7L * i);
    }
    t.drain();
  }

  @Test
  void cancellingOutOfTheTopAndTheRungsLeavesNoTrace() {
    int n = 400;
    Twin t = new Twin(4, n);
    SplittableRandom r = new SplittableRandom(13);
    for (int i = 0; i < n; i++) {
      t.add(i, r.nextLong(10_000_000));
    }
    t.poll(); // builds the rungs from the top
    // Cancel the first, the last and every third armed event: heads, tails and middles of the
    // lists they sit in; then re-arm some of them for times across the whole range.
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
    // Cancel everything left: the queue is empty and works as new, through a second spill.
    for (int i = 0; i < n; i++) {
      t.cancel(i);
    }
    assertThat(t.size()).isZero();
    assertThat(t.queue.isEmpty()).isTrue();
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
   * increment later. Populations on both sides of the spill limit, increments from ties to
   * wide spreads.
   */
  @Test
  void theHoldModelMatchesAPriorityQueueInHeapAndLadderMode() {
    for (int population : new int[] {3, 100, MORE_THAN_SPILL, 2_000}) {
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
