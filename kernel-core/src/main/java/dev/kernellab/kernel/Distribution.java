package dev.kernellab.kernel;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A length, count or rate drawn per use: how long one pass of a kernel loop body takes, how
 * many dentries a prune finds. Sampled from the simulation's seeded streams, so a run is
 * reproducible from its seed.
 *
 * <pre>{@code
 * Distribution.fixed(1_800)                       // 1.8 us every time
 * Distribution.uniform(100, 400)                  // 100..400 inclusive
 * Distribution.exponential(50_000)                // mean 50 us
 * Distribution.logNormal(20_000, 1.0)             // median 20 us, sigma 1
 * Distribution.empirical(new long[] {10, 20, 500}, new double[] {0.9, 0.09, 0.01})
 * }</pre>
 *
 * <p>Every sample is a non-negative {@code long} (nanoseconds or a count).
 */
public sealed interface Distribution {

  /** Draws one value. */
  long sample(SplittableRandom random);

  /** The mean of the distribution (for catalogs and reports). */
  double mean();

  /** Always {@code value}. */
  static Distribution fixed(long value) {
    return new Fixed(value);
  }

  /** Uniform over {@code min..max} inclusive. */
  static Distribution uniform(long min, long max) {
    return new Uniform(min, max);
  }

  /** Exponential with the given mean, rounded to the nearest integer. */
  static Distribution exponential(double mean) {
    return new Exponential(mean);
  }

  /** Log-normal with the given median and shape sigma (of the underlying normal). */
  static Distribution logNormal(double median, double sigma) {
    return new LogNormal(median, sigma);
  }

  /** A table: {@code values[i]} with probability {@code weights[i] / sum(weights)}. */
  static Distribution empirical(long[] values, double[] weights) {
    return new Empirical(values, weights);
  }

  /** A constant. */
  record Fixed(long value) implements Distribution {
    /** Validates. */
    public Fixed {
      if (value < 0) {
        throw new IllegalArgumentException("fixed value must be >= 0, got " + value);
      }
    }

    @Override
    public long sample(SplittableRandom random) {
      return value;
    }

    @Override
    public double mean() {
      return value;
    }
  }

  /** Uniform integers in {@code min..max}. */
  record Uniform(long min, long max) implements Distribution {
    /** Validates. */
    public Uniform {
      if (min < 0 || max < min) {
        throw new IllegalArgumentException("uniform needs 0 <= min <= max, got " + min + ".." + max);
      }
    }

    @Override
    public long sample(SplittableRandom random) {
      if (max == Long.MAX_VALUE) {
        // max + 1 would wrap: draw from one below min instead (min >= 0, so min - 1 cannot)
        return random.nextLong(min - 1, max) + 1;
      }
      return min == max ? min : random.nextLong(min, max + 1);
    }

    @Override
    public double mean() {
      return (min + (double) max) / 2;
    }
  }

  /** Exponential. */
  record Exponential(double mean) implements Distribution {
    /** Validates. */
    public Exponential {
      if (!(mean > 0) || Double.isInfinite(mean)) {
        throw new IllegalArgumentException("exponential mean must be > 0 and finite, got " + mean);
      }
    }

    @Override
    public long sample(SplittableRandom random) {
      return Math.round(-StrictMath.log(1.0 - random.nextDouble()) * mean);
    }
  }

  /** Log-normal: heavy right tail, the shape of most measured path lengths. */
  record LogNormal(double median, double sigma) implements Distribution {
    /** Validates. */
    public LogNormal {
      if (!(median > 0) || !(sigma >= 0) || Double.isInfinite(median) || Double.isInfinite(sigma)) {
        throw new IllegalArgumentException(
            "log-normal needs median > 0 and sigma >= 0, got " + median + ", " + sigma);
      }
    }

    @Override
    public long sample(SplittableRandom random) {
      // Box-Muller with one draw pair per sample: no cached state, so the stream position
      // after n samples does not depend on call parity.
      double u1 = 1.0 - random.nextDouble();
      double u2 = random.nextDouble();
      double z = StrictMath.sqrt(-2 * StrictMath.log(u1)) * StrictMath.cos(2 * Math.PI * u2);
      return Math.round(median * StrictMath.exp(sigma * z));
    }

    @Override
    public double mean() {
      return median * StrictMath.exp(sigma * sigma / 2);
    }
  }

  /** A discrete table of values and weights. */
  record Empirical(long[] values, double[] weights) implements Distribution {
    /** Validates and copies. */
    public Empirical {
      if (values.length == 0 || values.length != weights.length) {
        throw new IllegalArgumentException(
            "empirical table needs as many weights as values (and at least one), got "
                + values.length + " values, " + weights.length + " weights");
      }
      double sum = 0;
      int lastDrawn = -1;
      for (int i = 0; i < values.length; i++) {
        if (values[i] < 0) {
          throw new IllegalArgumentException(
              "empirical entry " + i + ": value must be >= 0, got " + values[i]);
        }
        // An infinite weight would turn the shares into NaN and silently never be drawn.
        if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
          throw new IllegalArgumentException(
              "empirical entry " + i + ": weight must be finite and >= 0, got " + weights[i]);
        }
        sum += weights[i];
        if (weights[i] > 0) {
          lastDrawn = i;
        }
      }
      if (!(sum > 0)) {
        throw new IllegalArgumentException("empirical weights sum to zero");
      }
      if (Double.isInfinite(sum)) {
        throw new IllegalArgumentException("empirical weights sum beyond a double's range, got " + sum);
      }
      values = values.clone();
      double[] cumulative = new double[weights.length];
      double acc = 0;
      for (int i = 0; i < weights.length; i++) {
        acc += weights[i] / sum;
        // Rounding can leave the running share short of 1: the last entry with weight closes
        // the table, so no draw falls through to a zero-weight entry after it.
        cumulative[i] = i >= lastDrawn ? 1.0 : acc;
      }
      weights = cumulative;
    }

    @Override
    public long sample(SplittableRandom random) {
      double u = random.nextDouble();
      int i = 0;
      // Ends by the last entry with weight, whose share closes at 1.0 > u.
      while (u >= weights[i]) {
        i++;
      }
      return values[i];
    }

    @Override
    public double mean() {
      double m = 0;
      double prev = 0;
      for (int i = 0; i < values.length; i++) {
        m += values[i] * (weights[i] - prev);
        prev = weights[i];
      }
      return m;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Empirical e
          && Arrays.equals(values, e.values)
          && Arrays.equals(weights, e.weights);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(values) + Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
      return "Empirical" + Arrays.toString(values);
    }
  }
}
