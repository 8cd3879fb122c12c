package dev.kernellab.paths;

import dev.kernellab.kernel.Distribution;

/**
 * The typical value (median) and the tail value (99.9th percentile) of a {@link Distribution},
 * for the catalog table: a count or length that is drawn per use is summarized by what most
 * runs see and by what one use in a thousand sees.
 */
public final class Quantiles {

  /** The tail quantile the table reports. */
  public static final double TAIL = 0.999;

  // z of the standard normal at 0.999, for log-normal tails.
  private static final double Z_TAIL = 3.0902;

  private Quantiles() {}

  /** The median of {@code d}. */
  public static long typical(Distribution d) {
    return quantile(d, 0.5);
  }

  /** The 99.9th percentile of {@code d}. */
  public static long tail(Distribution d) {
    return quantile(d, TAIL);
  }

  private static long quantile(Distribution d, double q) {
    if (d instanceof Distribution.Fixed f) {
      return f.value();
    } else if (d instanceof Distribution.Uniform u) {
      return u.min() + Math.round((u.max() - u.min()) * q);
    } else if (d instanceof Distribution.Exponential e) {
      return Math.round(-Math.log(1 - q) * e.mean());
    } else if (d instanceof Distribution.LogNormal l) {
      double z = q == 0.5 ? 0 : Z_TAIL;
      return Math.round(l.median() * Math.exp(l.sigma() * z));
    } else if (d instanceof Distribution.Empirical e) {
      // The record keeps cumulative weights after validation.
      double[] cumulative = e.weights();
      long[] values = e.values();
      for (int i = 0; i < values.length; i++) {
        if (cumulative[i] >= q) {
          return values[i];
        }
      }
      return values[values.length - 1];
    }
    throw new IllegalArgumentException("unknown distribution " + d);
  }
}
