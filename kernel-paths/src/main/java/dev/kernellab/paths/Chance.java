package dev.kernellab.paths;

import dev.kernellab.kernel.Distribution;

/**
 * A branch taken with probability {@code p}, written as a loop of zero or one iterations: a
 * {@link dev.kernellab.kernel.KernelPath} has no conditional, but a loop count drawn from the
 * task's random stream gives the same timing and keeps runs reproducible.
 */
public final class Chance {

  private Chance() {}

  /** 1 with probability {@code p}, else 0. */
  public static Distribution of(double p) {
    if (p <= 0) {
      return Distribution.fixed(0);
    }
    if (p >= 1) {
      return Distribution.fixed(1);
    }
    return Distribution.empirical(new long[] {0, 1}, new double[] {1 - p, p});
  }
}
