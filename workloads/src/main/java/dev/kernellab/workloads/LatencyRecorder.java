package dev.kernellab.workloads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The latency samples of one probe: an HdrHistogram of fixed memory (from 1 us to 100 s, three
 * significant digits: 0.5 us steps below 1 ms, 1 us below 2 ms, doubling with each doubling), the exact count, sum, minimum and maximum, the number
 * that met the probe's deadline, the identity (time, CPU, sample number) of the worst few so
 * that a lab can go back and explain them, and the worst sample of each stretch of time for a
 * latency-over-time chart. Recording allocates nothing, however long the run.
 */
public final class LatencyRecorder {

  /** How many of the worst samples keep their identity. */
  public static final int WORST_KEPT = 16;

  private final Histogram histogram = new Histogram(1_000, 100_000_000_000L, 3);
  private final long deadlineNs;
  private long count;
  private long sumNs;
  private long minNs = Long.MAX_VALUE;
  private long maxNs;
  private long onTime;
  // The worst samples: a min-heap on latency of at most WORST_KEPT entries.
  private final long[] worstNs = new long[WORST_KEPT];
  private final long[] worstAt = new long[WORST_KEPT];
  private final int[] worstCpu = new int[WORST_KEPT];
  private final long[] worstCycle = new long[WORST_KEPT];
  private int worstSize;
  // The worst sample of each slot of slotNs; when the run outgrows the slots, neighbours merge
  // and slotNs doubles, so memory stays fixed and the chart keeps about SLOTS points.
  private final long[] slotMaxNs = new long[LatencyDistribution.SLOTS];
  private long slotNs = LatencyDistribution.FIRST_SLOT_NS;

  /** A recorder whose samples are on time when at most {@code deadlineNs}. */
  public LatencyRecorder(long deadlineNs) {
    this.deadlineNs = deadlineNs;
    Arrays.fill(slotMaxNs, -1);
  }

  /** Records a latency of {@code latencyNs} seen at {@code atNs} on {@code cpu}. */
  public void record(long latencyNs, long atNs, int cpu) {
    long ns = Math.max(0, latencyNs);
    histogram.recordValue(Math.min(ns, histogram.getHighestTrackableValue()));
    count++;
    sumNs += ns;
    minNs = Math.min(minNs, ns);
    maxNs = Math.max(maxNs, ns);
    if (ns <= deadlineNs) {
      onTime++;
    }
    keepIfWorst(ns, atNs, cpu, count - 1);
    long at = Math.max(0, atNs);
    while (at / slotNs >= slotMaxNs.length) {
      mergeSlots();
    }
    int slot = (int) (at / slotNs);
    slotMaxNs[slot] = Math.max(slotMaxNs[slot], ns);
  }

  private void mergeSlots() {
    int half = slotMaxNs.length / 2;
    for (int i = 0; i < half; i++) {
      slotMaxNs[i] = Math.max(slotMaxNs[2 * i], slotMaxNs[2 * i + 1]);
    }
    Arrays.fill(slotMaxNs, half, slotMaxNs.length, -1);
    slotNs *= 2;
  }

  private void keepIfWorst(long ns, long at, int cpu, long cycle) {
    if (worstSize < WORST_KEPT) {
      int i = worstSize++;
      worstNs[i] = ns;
      worstAt[i] = at;
      worstCpu[i] = cpu;
      worstCycle[i] = cycle;
      siftUp(i);
    } else if (ns > worstNs[0]) {
      worstNs[0] = ns;
      worstAt[0] = at;
      worstCpu[0] = cpu;
      worstCycle[0] = cycle;
      siftDown(0);
    }
  }

  private void siftUp(int i) {
    while (i > 0) {
      int p = (i - 1) / 2;
      if (worstNs[p] <= worstNs[i]) {
        return;
      }
      swap(i, p);
      i = p;
    }
  }

  private void siftDown(int i) {
    while (true) {
      int l = 2 * i + 1;
      int r = l + 1;
      int m = i;
      if (l < worstSize && worstNs[l] < worstNs[m]) {
        m = l;
      }
      if (r < worstSize && worstNs[r] < worstNs[m]) {
        m = r;
      }
      if (m == i) {
        return;
      }
      swap(i, m);
      i = m;
    }
  }

  private void swap(int a, int b) {
    long n = worstNs[a];
    worstNs[a] = worstNs[b];
    worstNs[b] = n;
    long t = worstAt[a];
    worstAt[a] = worstAt[b];
    worstAt[b] = t;
    int c = worstCpu[a];
    worstCpu[a] = worstCpu[b];
    worstCpu[b] = c;
    long y = worstCycle[a];
    worstCycle[a] = worstCycle[b];
    worstCycle[b] = y;
  }

  /** Samples so far. */
  public long count() {
    return count;
  }

  /** The deadline a sample must meet to count as on time. */
  public long deadlineNs() {
    return deadlineNs;
  }

  /** The figures so far. */
  public LatencySummary summary() {
    if (count == 0) {
      return LatencySummary.EMPTY.withDeadline(deadlineNs);
    }
    return new LatencySummary(
        count, minNs, sumNs / count,
        percentile(50), percentile(99), percentile(99.9), maxNs, 100.0 * onTime / count, deadlineNs);
  }

  /**
   * The histogram's value at {@code p}, within the exact extremes: HdrHistogram answers with
   * its bucket's upper value, which can lie above the largest sample recorded (or below the
   * least), a figure no reader could reconcile with the maximum printed beside it.
   */
  private long percentile(double p) {
    return Math.max(minNs, Math.min(maxNs, histogram.getValueAtPercentile(p)));
  }

  /** The worst samples kept, worst first. */
  public List<Sample> worst() {
    List<Sample> out = new ArrayList<>(worstSize);
    for (int i = 0; i < worstSize; i++) {
      out.add(new Sample(worstNs[i], worstAt[i], worstCpu[i], worstCycle[i]));
    }
    out.sort((a, b) -> a.latencyNs() != b.latencyNs()
        ? Long.compare(b.latencyNs(), a.latencyNs()) : Long.compare(a.atNs(), b.atNs()));
    return out;
  }

  /** A copy of the whole distribution so far: the histogram, the timeline, the worst samples. */
  public LatencyDistribution distribution() {
    return new LatencyDistribution(histogram.copy(), summary(), worst(), slotNs, slotMaxNs.clone());
  }

  /**
   * One latency sample with its identity.
   *
   * @param latencyNs the latency
   * @param atNs when the sample was taken
   * @param cpu the CPU it was taken on
   * @param cycle its number among the probe's samples, from 0 (cyclictest's cycle count)
   */
  public record Sample(long latencyNs, long atNs, int cpu, long cycle) {}
}
