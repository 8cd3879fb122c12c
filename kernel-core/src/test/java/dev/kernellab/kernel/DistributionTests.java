package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
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
}
