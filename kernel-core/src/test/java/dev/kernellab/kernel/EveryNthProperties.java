package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;

/**
 * {@link CondReschedLock.EveryNth} answers as {@code x % n == 0} does, for every count and
 * every period: small and large, odd and even, powers of two and the periods the patches use.
 */
class EveryNthProperties {

  @Test
  void agreesWithTheRemainderForAnyCountAndPeriod() {
    qt().withFixedSeed(0x28)
        .withExamples(20_000)
        .forAll(longs().all(), longs().between(1, Long.MAX_VALUE))
        .checkAssert((x, n) -> assertThat(new CondReschedLock.EveryNth(n).divides(x)).as("%d %% %d", x, n)
            .isEqualTo(x % n == 0));
  }

  @Test
  void agreesWithTheRemainderOnTheMultiplesAndTheirNeighbours() {
    qt().withFixedSeed(0x29)
        .withExamples(20_000)
        .forAll(longs().between(0, 1L << 40), longs().between(1, 5_000))
        .checkAssert((q, n) -> {
          CondReschedLock.EveryNth every = new CondReschedLock.EveryNth(n);
          for (long x = q * n - 1; x <= q * n + 1; x++) {
            assertThat(every.divides(x)).as("%d %% %d", x, n).isEqualTo(x % n == 0);
          }
        });
  }

  @Test
  void agreesWithTheRemainderForThePatchesPeriodsOverLongWalks() {
    for (long n : new long[] {2, 3, 8, 10, 16, 32, 64, 100, 101, 128, 256, 1000, 1024}) {
      CondReschedLock.EveryNth every = new CondReschedLock.EveryNth(n);
      for (long x = 0; x < 100_000; x++) {
        assertThat(every.divides(x)).as("%d %% %d", x, n).isEqualTo(x % n == 0);
      }
      assertThat(every.divides(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE % n == 0);
      assertThat(every.divides(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE % n == 0);
    }
  }
}
