package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.kernellab.kernel.Distribution;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The catalog table's typical and tail values: each is the quantile the distribution's own draws
 * show, in closed form where there is one.
 */
class QuantilesTests {

  @Test
  void closedFormsGiveTheMedianAndTheOneInAThousand() {
    assertThat(Quantiles.typical(Distribution.fixed(1_800))).isEqualTo(1_800);
    assertThat(Quantiles.tail(Distribution.fixed(1_800))).isEqualTo(1_800);
    // min + q (max - min), rounded
    assertThat(Quantiles.typical(Distribution.uniform(100, 400))).isEqualTo(250);
    assertThat(Quantiles.tail(Distribution.uniform(100, 400))).isEqualTo(400);
    // -ln(1 - q) mean: ln 2 and ln 1000 means
    assertThat(Quantiles.typical(Distribution.exponential(1_000))).isEqualTo(693);
    assertThat(Quantiles.tail(Distribution.exponential(1_000))).isEqualTo(6_908);
    // median e^(sigma z), z = 0 and 3.0902
    assertThat(Quantiles.typical(Distribution.logNormal(20_000, 1.0))).isEqualTo(20_000);
    assertThat(Quantiles.tail(Distribution.logNormal(20_000, 1.0))).isEqualTo(439_629);
  }

  @Test
  void anEmpiricalTableGivesTheFirstValueWhoseShareReachesTheQuantile() {
    Distribution d = Distribution.empirical(new long[] {10, 20, 500}, new double[] {0.9, 0.09, 0.01});
    assertThat(Quantiles.typical(d)).isEqualTo(10);
    assertThat(Quantiles.tail(d)).isEqualTo(500);
    // a share of exactly one half is the median's own value, not the next one
    Distribution even = Distribution.empirical(new long[] {1, 2}, new double[] {1, 1});
    assertThat(Quantiles.typical(even)).isEqualTo(1);
    assertThat(Quantiles.tail(even)).isEqualTo(2);
  }

  @Test
  void theTableAgreesWithTheDraws() {
    Distribution[] all = {
      Distribution.uniform(1_000, 9_000),
      Distribution.exponential(50_000),
      Distribution.logNormal(20_000, 0.5),
      Distribution.empirical(new long[] {10, 20, 500}, new double[] {0.6, 0.35, 0.05}),
    };
    for (Distribution d : all) {
      SplittableRandom random = new SplittableRandom(7);
      long[] draws = new long[400_000];
      for (int i = 0; i < draws.length; i++) {
        draws[i] = d.sample(random);
      }
      Arrays.sort(draws);
      // 400 draws lie beyond the 99.9th percentile: its estimate is good to a few per cent
      assertThat(Quantiles.typical(d)).as("%s median", d)
          .isCloseTo(draws[draws.length / 2], withinPercentage(1));
      assertThat(Quantiles.tail(d)).as("%s tail", d)
          .isCloseTo(draws[(int) (draws.length * Quantiles.TAIL)], withinPercentage(5));
    }
  }
}
