package dev.kernellab.sched.o1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.TestTasks;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bitmap, the delimiter bit and the FIFO lists of {@code struct prio_array}. */
class PrioArrayTests {

  private static O1Entity entity(int pid, int prio) {
    O1Entity e = new O1Entity(TestTasks.other(pid));
    e.prio = prio;
    return e;
  }

  @Test
  void anEmptyArrayFindsTheDelimiterBit140() {
    PrioArray a = new PrioArray();
    assertThat(a.findFirstBit()).isEqualTo(140);
    assertThat(a.bit(140)).isTrue();
    a.check("empty");
  }

  @Test
  void findFirstBitIsTheBestNonEmptyPriorityInEveryWord() {
    for (int prio : new int[] {0, 63, 64, 99, 100, 127, 128, 139}) {
      PrioArray a = new PrioArray();
      a.enqueue(entity(1, 139));
      a.enqueue(entity(2, prio));
      assertThat(a.findFirstBit()).as("prio %d", prio).isEqualTo(prio);
      assertThat(a.findNextBit(prio + 1)).isEqualTo(prio == 139 ? 140 : 139);
    }
  }

  @Test
  void listsAreFifoAndDequeueClearsTheBitOnlyWhenTheListEmpties() {
    PrioArray a = new PrioArray();
    O1Entity x = entity(1, 120);
    O1Entity y = entity(2, 120);
    O1Entity z = entity(3, 120);
    a.enqueue(x);
    a.enqueue(y);
    a.enqueue(z);
    assertThat(a.head(120)).isSameAs(x);
    assertThat(a.tail(120)).isSameAs(z);
    a.dequeue(y);
    assertThat(a.bit(120)).isTrue();
    a.requeue(x);
    List<O1Entity> order = new ArrayList<>();
    a.addTo(order);
    assertThat(order).containsExactly(z, x);
    a.dequeue(z);
    a.dequeue(x);
    assertThat(a.bit(120)).isFalse();
    assertThat(a.nrActive()).isZero();
    a.check("drained");
  }
}
