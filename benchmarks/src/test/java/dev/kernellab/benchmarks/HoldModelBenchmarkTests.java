package dev.kernellab.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The benchmark's contenders must be correct, or their speed means nothing. */
class HoldModelBenchmarkTests {

  @Test
  void bareLongHeapPollsInAscendingOrder() {
    SplittableRandom r = new SplittableRandom(3);
    HoldModelBenchmark.LongHeap heap = new HoldModelBenchmark.LongHeap(1_000);
    List<Long> keys = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      long k = r.nextLong(500);
      keys.add(k);
      heap.add(k);
    }
    keys.sort(null);
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      out.add(heap.poll());
    }
    assertThat(out).isEqualTo(keys);
  }

  @Test
  void everyContenderHoldsTheSameTimeline() {
    HoldModelBenchmark b = new HoldModelBenchmark();
    b.size = 64;
    b.setUp();
    long engine = 0;
    for (int i = 0; i < 10_000; i++) {
      engine = b.engineHold();
    }
    HoldModelBenchmark c = new HoldModelBenchmark();
    c.size = 64;
    c.setUp();
    long bare = 0;
    for (int i = 0; i < 10_000; i++) {
      bare = c.bareLongHeapHold();
    }
    assertThat(engine).isEqualTo(bare);
  }
}
