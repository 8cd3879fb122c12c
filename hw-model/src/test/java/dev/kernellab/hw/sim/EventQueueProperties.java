package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The event queue against an obviously correct model: a list sorted by (time, arming order).
 */
class EventQueueProperties {

  private static final long SEED = 0x5eed_2002L;

  /** A small time range makes ties (the interesting case) frequent. */
  @Test
  void eventsComeOutInTimeThenArmingOrderWhateverTheInsertionOrder() {
    qt().withFixedSeed(SEED)
        .withExamples(300)
        .forAll(lists().of(longs().between(0, 20)).ofSizeBetween(0, 200))
        .checkAssert(
            times -> {
              EventQueue q = new EventQueue(1);
              List<long[]> expected = new ArrayList<>();
              for (int i = 0; i < times.size(); i++) {
                q.add(new Event(Integer.toString(i), now -> { }), times.get(i));
                expected.add(new long[] {times.get(i), i});
              }
              expected.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
              List<String> out = new ArrayList<>();
              while (!q.isEmpty()) {
                out.add(q.poll().name());
              }
              assertThat(out)
                  .containsExactlyElementsOf(
                      expected.stream().map(a -> Long.toString(a[1])).toList());
            });
  }

  @Test
  void cancelledEventsNeverComeOutAndTheRestKeepTheirOrder() {
    qt().withFixedSeed(SEED)
        .withExamples(300)
        .forAll(
            lists().of(longs().between(0, 50)).ofSizeBetween(1, 150),
            lists().of(integers().between(0, 149)).ofSizeBetween(0, 80))
        .checkAssert(
            (times, cancels) -> {
              EventQueue q = new EventQueue(4);
              List<Event> events = new ArrayList<>();
              for (int i = 0; i < times.size(); i++) {
                Event e = new Event(Integer.toString(i), now -> { });
                events.add(e);
                q.add(e, times.get(i));
              }
              List<Integer> cancelled = new ArrayList<>();
              for (int c : cancels) {
                if (c < events.size() && q.remove(events.get(c))) {
                  cancelled.add(c);
                }
              }
              List<Integer> expected = new ArrayList<>();
              for (int i = 0; i < times.size(); i++) {
                if (!cancelled.contains(i)) {
                  expected.add(i);
                }
              }
              expected.sort(
                  Comparator.<Integer>comparingLong(times::get).thenComparingInt(i -> i));
              List<Integer> out = new ArrayList<>();
              while (!q.isEmpty()) {
                Event e = q.poll();
                assertThat(e.isScheduled()).isFalse();
                out.add(Integer.parseInt(e.name()));
              }
              assertThat(out).containsExactlyElementsOf(expected);
              cancelled.forEach(i -> assertThat(events.get(i).isScheduled()).isFalse());
            });
  }
}
