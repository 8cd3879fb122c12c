package dev.kernellab.hw.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;

/** What the event set refuses, and that its initial capacity is only a starting size. */
class EventQueueArgumentTests {

  @Test
  void aQueueNeedsRoomForOneEventAndGrowsPastIt() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new EventQueue(0))
        .withMessage("initial capacity must be >= 1, got 0");
    EventQueue q = new EventQueue(1);
    Event a = new Event("a", now -> { });
    Event b = new Event("b", now -> { });
    Event c = new Event("c", now -> { });
    q.add(a, 5);
    q.add(b, 1);
    q.add(c, 3);
    assertThat(q.size()).isEqualTo(3);
    assertThat(q.poll()).isSameAs(b);
    assertThat(q.poll()).isSameAs(c);
    assertThat(q.poll()).isSameAs(a);
    assertThat(q.isEmpty()).isTrue();
  }

  @Test
  void anEventIsArmedOnceAndNeverForANegativeTime() {
    EventQueue q = new EventQueue();
    Event e = new Event("tick", now -> { });
    assertThatIllegalArgumentException().isThrownBy(() -> q.add(e, -1)).withMessage("negative time -1 for event tick");
    assertThat(e.isScheduled()).isFalse();
    assertThat(e).hasToString("tick(idle)");
    q.add(e, 7);
    assertThat(e).hasToString("tick@7");
    assertThat(e.time()).isEqualTo(7);
    assertThatIllegalStateException().isThrownBy(() -> q.add(e, 9)).withMessage("event tick is already scheduled at 7");
    assertThat(q.remove(e)).isTrue();
    assertThatIllegalStateException().isThrownBy(e::time).withMessage("event tick is not scheduled");
  }
}
