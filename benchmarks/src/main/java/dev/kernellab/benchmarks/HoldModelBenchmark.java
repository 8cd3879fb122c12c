package dev.kernellab.benchmarks;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.EventQueue;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The classic hold model (Jones 1986; Vaucher and Duval 1975): the queue holds {@code size}
 * events; one operation pops the earliest and pushes it back at that time plus a random
 * increment. Three contenders: the engine's {@link EventQueue}, {@link PriorityQueue} of
 * objects, and a bare array heap of {@code long} keys (the lower bound: no payload, no
 * tie-break).
 *
 * <p>Run: {@code ./mvnw -q -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar HoldModel}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class HoldModelBenchmark {

  // Increments are exponential with mean 1 us, in ns, drawn from a precomputed table so the
  // random number generator does not dominate what is measured.
  private static final int INCREMENTS = 1 << 16;

  @Param({"16", "1024", "65536"})
  public int size;

  private long[] increments;
  private int next;

  private EventQueue engine;
  private PriorityQueue<Item> javaQueue;
  private LongHeap bare;

  private static final class Item implements Comparable<Item> {
    long time;
    long seq;

    @Override
    public int compareTo(Item o) {
      int c = Long.compare(time, o.time);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(1);
    increments = new long[INCREMENTS];
    for (int i = 0; i < INCREMENTS; i++) {
      increments[i] = (long) (-Math.log(1 - r.nextDouble()) * 1_000.0);
    }
    engine = new EventQueue(size);
    javaQueue = new PriorityQueue<>(size);
    bare = new LongHeap(size);
    long seq = 0;
    for (int i = 0; i < size; i++) {
      long t = increment();
      engine.add(new Event("e" + i, now -> { }), t);
      Item item = new Item();
      item.time = t;
      item.seq = seq++;
      javaQueue.add(item);
      bare.add(t);
    }
  }

  private long increment() {
    long v = increments[next];
    next = (next + 1) & (INCREMENTS - 1);
    return v;
  }

  @Benchmark
  public long engineHold() {
    long t = engine.peekTime();
    Event e = engine.poll();
    engine.add(e, t + increment());
    return t;
  }

  private long javaSeq = Long.MAX_VALUE / 2;

  @Benchmark
  public long priorityQueueHold() {
    Item item = javaQueue.poll();
    item.time += increment();
    item.seq = javaSeq++;
    javaQueue.add(item);
    return item.time;
  }

  @Benchmark
  public long bareLongHeapHold() {
    long t = bare.poll();
    bare.add(t + increment());
    return t;
  }

  /** The lower bound: a binary heap of bare long keys with hole-moving sifts. */
  static final class LongHeap {
    private final long[] keys;
    private int size;

    LongHeap(int capacity) {
      keys = new long[capacity];
    }

    void add(long k) {
      int hole = size++;
      while (hole > 0) {
        int parent = (hole - 1) >>> 1;
        if (keys[parent] <= k) {
          break;
        }
        keys[hole] = keys[parent];
        hole = parent;
      }
      keys[hole] = k;
    }

    long poll() {
      long top = keys[0];
      long k = keys[--size];
      int hole = 0;
      int half = size >>> 1;
      while (hole < half) {
        int child = 2 * hole + 1;
        if (child + 1 < size && keys[child + 1] < keys[child]) {
          child++;
        }
        if (k <= keys[child]) {
          break;
        }
        keys[hole] = keys[child];
        hole = child;
      }
      keys[hole] = k;
      return top;
    }
  }
}
