package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The calibration distributions against their textbook definitions: ranges, means, medians
 * and table frequencies over 20 000 seeded draws (tolerances are several standard errors, so
 * the seed does not matter; it is fixed so a failure reproduces).
 */
class DistributionTests {

  private static final int N = 20_000;

  private static long[] draw(Distribution d, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] out = new long[N];
    for (int i = 0; i < N; i++) {
      out[i] = d.sample(r);
    }
    return out;
  }

  @Test
  void aFixedValueIsAlwaysItselfAndZeroIsAllowed() {
    assertThat(draw(Distribution.fixed(1_800), 1)).containsOnly(1_800L);
    assertThat(Distribution.fixed(1_800).mean()).isEqualTo(1_800.0);
    assertThat(Distribution.fixed(0).sample(new SplittableRandom(1))).isZero();
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.fixed(-1));
  }

  @Test
  void aUniformDrawCoversBothEndsInclusiveAndNothingOutside() {
    long[] v = draw(Distribution.uniform(100, 103), 2);
    assertThat(v).containsOnly(100L, 101L, 102L, 103L).contains(100L, 103L);
    assertThat(Distribution.uniform(100, 103).mean()).isEqualTo(101.5);
    assertThat(Distribution.uniform(7, 7).sample(new SplittableRandom(3))).isEqualTo(7);
    assertThat(Distribution.uniform(0, 0).mean()).isZero();
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.uniform(-1, 5));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.uniform(5, 4));
  }

  @Test
  void anExponentialHasItsMeanAndNoNegativeDraw() {
    long[] v = draw(Distribution.exponential(50_000), 4);
    assertThat(Arrays.stream(v).min().orElseThrow()).isNotNegative();
    assertThat(Arrays.stream(v).average().orElseThrow()).isCloseTo(50_000, within(2_000.0));
    // P(X > mean) = 1/e
    double above = Arrays.stream(v).filter(x -> x > 50_000).count() / (double) N;
    assertThat(above).isCloseTo(Math.exp(-1), within(0.015));
    assertThat(Distribution.exponential(50_000).mean()).isEqualTo(50_000.0);
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.exponential(0));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.exponential(Double.NaN));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.exponential(Double.POSITIVE_INFINITY));
  }

  @Test
  void aLogNormalHasItsMedianAndTheMeanExpMuPlusHalfSigmaSquared() {
    Distribution d = Distribution.logNormal(20_000, 1.0);
    long[] v = draw(d, 5);
    Arrays.sort(v);
    assertThat((double) v[N / 2]).isCloseTo(20_000, within(800.0));
    // ln X is normal: the 84th percentile sits one sigma up, at median * e
    assertThat((double) v[(int) (N * 0.8413)]).isCloseTo(20_000 * Math.E, within(2_500.0));
    assertThat(d.mean()).isCloseTo(20_000 * Math.exp(0.5), within(1e-6));
    assertThat(draw(Distribution.logNormal(300, 0), 6)).containsOnly(300L);
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.logNormal(0, 1));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.logNormal(10, -0.1));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.logNormal(Double.POSITIVE_INFINITY, 1));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.logNormal(10, Double.POSITIVE_INFINITY));
  }

  @Test
  void anEmpiricalTableDrawsEachValueWithItsShareOfTheWeights() {
    Distribution d = Distribution.empirical(new long[] {10, 20, 500}, new double[] {9, 0.9, 0.1});
    long[] v = draw(d, 7);
    assertThat(v).containsOnly(10L, 20L, 500L);
    assertThat(Arrays.stream(v).filter(x -> x == 10).count() / (double) N).isCloseTo(0.9, within(0.01));
    assertThat(Arrays.stream(v).filter(x -> x == 20).count() / (double) N).isCloseTo(0.09, within(0.01));
    assertThat(Arrays.stream(v).filter(x -> x == 500).count() / (double) N).isCloseTo(0.01, within(0.004));
    assertThat(d.mean()).isCloseTo(10 * 0.9 + 20 * 0.09 + 500 * 0.01, within(1e-9));
    assertThat(Distribution.empirical(new long[] {4}, new double[] {1}).sample(new SplittableRandom(8))).isEqualTo(4);
  }

  @Test
  void aZeroWeightValueIsNeverDrawn() {
    Distribution d = Distribution.empirical(new long[] {1, 2, 3}, new double[] {1, 0, 1});
    assertThat(draw(d, 9)).containsOnly(1L, 3L).contains(1L, 3L);
  }

  @Test
  void anEmpiricalTableIsRejectedWhenItCannotBeDrawnFrom() {
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.empirical(new long[] {}, new double[] {}));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.empirical(new long[] {1, 2}, new double[] {1}));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.empirical(new long[] {-1}, new double[] {1}));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.empirical(new long[] {1}, new double[] {-1}));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.empirical(new long[] {1}, new double[] {Double.NaN}));
    assertThatIllegalArgumentException().isThrownBy(() -> Distribution.empirical(new long[] {1, 2}, new double[] {0, 0}))
        .withMessageContaining("sum to zero");
  }

  @Test
  void anEmpiricalTableOwnsItsValuesAndComparesByContent() {
    long[] values = {1, 2};
    Distribution d = Distribution.empirical(values, new double[] {1, 1});
    values[0] = 99;
    assertThat(draw(d, 10)).containsOnly(1L, 2L);
    Distribution same = Distribution.empirical(new long[] {1, 2}, new double[] {2, 2});
    assertThat(d).isEqualTo(same).hasSameHashCodeAs(same).hasToString("Empirical[1, 2]");
    assertThat(d).isNotEqualTo(Distribution.empirical(new long[] {1, 2}, new double[] {1, 3}));
    assertThat(d).isNotEqualTo(Distribution.empirical(new long[] {1, 3}, new double[] {1, 1}));
  }

  // ---- the table's edges, draw by draw ---------------------------------------------------------

  /**
   * A stream whose first nextDouble() is exactly {@code u}: SplittableRandom(seed) returns
   * {@code mix64(seed + GOLDEN_GAMMA) >>> 11} times 2^-53 (java.util.SplittableRandom, JDK 17),
   * and mix64 is a bijection, so the seed for a chosen first draw is its inverse. The result
   * is checked, so a JDK with another generator fails here, not in the assertion after it.
   */
  private static SplittableRandom firstDrawIs(double u) {
    long bits = (long) (u * 0x1.0p53) << 11;
    long z = bits;
    z = unxorshift(z, 31);
    z *= inverse(0x94d049bb133111ebL);
    z = unxorshift(z, 27);
    z *= inverse(0xbf58476d1ce4e5b9L);
    z = unxorshift(z, 30);
    long seed = z - 0x9e3779b97f4a7c15L;
    assertThat(new SplittableRandom(seed).nextDouble()).as("first draw of the crafted stream").isEqualTo(u);
    return new SplittableRandom(seed);
  }

  private static long unxorshift(long y, int shift) {
    long x = y;
    for (int i = 0; i < 64 / shift + 1; i++) {
      x = y ^ (x >>> shift);
    }
    return x;
  }

  private static long inverse(long odd) {
    long x = odd; // Newton's iteration doubles the correct low bits: 3, 6, 12, 24, 48, 96
    for (int i = 0; i < 5; i++) {
      x *= 2 - odd * x;
    }
    return x;
  }

  /** The draw just below {@code u}: nextDouble() draws multiples of 2^-53. */
  private static double below(double u) {
    return u - 0x1.0p-53;
  }

  private static final double LAST_BELOW_ONE = below(1.0);

  @Test
  void aSingleValueTableIsThatValueWhateverTheDrawAndHoweverSmallItsWeight() {
    Distribution d = Distribution.empirical(new long[] {4_096}, new double[] {1e-300});
    assertThat(draw(d, 11)).containsOnly(4_096L);
    assertThat(d.sample(firstDrawIs(0.0))).isEqualTo(4_096);
    assertThat(d.sample(firstDrawIs(LAST_BELOW_ONE))).isEqualTo(4_096);
    assertThat(d.mean()).isEqualTo(4_096.0);
  }

  @Test
  void equalWeightsSplitTheUnitIntervalIntoEqualQuarters() {
    // Four equal weights: the draw u in [0, 1) picks values[floor(4u)], exactly (4u is exact).
    long[] values = {3, 5, 7, 11};
    Distribution d = Distribution.empirical(values, new double[] {2.5, 2.5, 2.5, 2.5});
    SplittableRandom same = new SplittableRandom(12);
    SplittableRandom r = new SplittableRandom(12);
    for (int i = 0; i < 1_000; i++) {
      assertThat(d.sample(r)).isEqualTo(values[(int) (same.nextDouble() * 4)]);
    }
    assertThat(d.mean()).isEqualTo((3 + 5 + 7 + 11) / 4.0);
    DoubleFunction<Long> at = u -> d.sample(firstDrawIs(u));
    assertThat(List.of(at.apply(0.0), at.apply(0.25), at.apply(0.5), at.apply(0.75)))
        .as("each quarter starts at its boundary").containsExactly(3L, 5L, 7L, 11L);
    assertThat(List.of(at.apply(below(0.25)), at.apply(below(0.5)),
        at.apply(below(0.75)), at.apply(LAST_BELOW_ONE)))
        .as("and ends just below the next one").containsExactly(3L, 5L, 7L, 11L);
  }

  @Test
  void aZeroWeightEntryIsNeverDrawnEvenAtTheEdgesOfTheUnitInterval() {
    // First entry weightless: its share is [0, 0), empty, so u = 0 already picks the second.
    Distribution head = Distribution.empirical(new long[] {1, 2}, new double[] {0, 1});
    assertThat(head.sample(firstDrawIs(0.0))).isEqualTo(2);
    // Weightless tail after shares that round short of 1 (0.01 + 0.2 + 0.9 of 1.11 sums to
    // 1 - 2^-53 in doubles): the last draw below 1 belongs to 30, not to the weightless 40.
    Distribution tail = Distribution.empirical(new long[] {10, 20, 30, 40}, new double[] {0.01, 0.2, 0.9, 0});
    assertThat(tail.sample(firstDrawIs(LAST_BELOW_ONE))).isEqualTo(30);
    assertThat(tail.sample(firstDrawIs(0.0))).isEqualTo(10);
    assertThat(tail.mean()).isCloseTo((10 * 0.01 + 20 * 0.2 + 30 * 0.9) / 1.11, within(1e-9));
    Distribution middle = Distribution.empirical(new long[] {1, 2, 3}, new double[] {1, 0, 1});
    assertThat(middle.sample(firstDrawIs(0.5))).as("the empty share [0.5, 0.5) is skipped").isEqualTo(3);
    assertThat(middle.sample(firstDrawIs(below(0.5)))).isEqualTo(1);
  }

  @Test
  void aBadEmpiricalEntryIsRefusedAtConstructionNamingTheEntryAndItsValue() {
    List<String> messages = new ArrayList<>();
    for (double w : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> Distribution.empirical(new long[] {1, 2}, new double[] {1, w}))
          .satisfies(e -> messages.add(e.getMessage()));
    }
    assertThat(messages).containsExactly(
        "empirical entry 1: weight must be finite and >= 0, got -1.0",
        "empirical entry 1: weight must be finite and >= 0, got NaN",
        "empirical entry 1: weight must be finite and >= 0, got Infinity",
        "empirical entry 1: weight must be finite and >= 0, got -Infinity");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Distribution.empirical(new long[] {0, -5}, new double[] {1, 1}))
        .withMessage("empirical entry 1: value must be >= 0, got -5");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Distribution.empirical(new long[] {1, 2}, new double[] {Double.MAX_VALUE, Double.MAX_VALUE}))
        .withMessage("empirical weights sum beyond a double's range, got Infinity");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Distribution.empirical(new long[] {}, new double[] {}))
        .withMessage("empirical table needs as many weights as values (and at least one), got 0 values, 0 weights");
    // The largest finite weights that still sum within range are a fair table.
    Distribution big = Distribution.empirical(new long[] {1, 2}, new double[] {Double.MAX_VALUE / 2, Double.MAX_VALUE / 2});
    assertThat(big.sample(firstDrawIs(below(0.5)))).isEqualTo(1);
    assertThat(big.sample(firstDrawIs(0.5))).isEqualTo(2);
  }
}
