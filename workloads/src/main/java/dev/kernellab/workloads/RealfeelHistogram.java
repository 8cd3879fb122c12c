package dev.kernellab.workloads;

import java.util.ArrayList;
import java.util.List;

/**
 * realfeel's own histogram: the error of each inter-wakeup period against the ideal, clamped at
 * 0, in 0.1 ms bins with +0.05 ms rounding (Mark Hahn's realfeel.c: a bin per tenth of a
 * millisecond, printed {@code i/10 . i%10} one line per non-empty bin). Bins up to 10 s; larger
 * errors go to the last.
 */
public final class RealfeelHistogram {

  /** Width of a bin: 0.1 ms. */
  public static final long BIN_NS = 100_000;
  /** Bins kept: up to 10 s of error. */
  public static final int BINS = 100_000;

  private final long[] counts = new long[BINS];

  /** Records one period error. */
  public void record(long errorNs) {
    long bin = (Math.max(0, errorNs) + BIN_NS / 2) / BIN_NS;
    counts[(int) Math.min(bin, BINS - 1)]++;
  }

  /** The count of bin {@code i} (errors of about {@code i * 0.1} ms). */
  public long count(int i) {
    return counts[i];
  }

  /** realfeel's output: one line {@code <ms> <count>} per non-empty bin. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < BINS; i++) {
      if (counts[i] != 0) {
        out.add((i / 10) + "." + (i % 10) + " " + counts[i]);
      }
    }
    return out;
  }
}
