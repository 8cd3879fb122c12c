package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;

/**
 * {@link CondReschedLock.EveryNth} answers as {@code x % n == 0} does, for every count and
 * every period: small and large, odd and even, powers of two and the periods the patches use;
 * and its {@code firstDue}, alone and joined by {@code and}, is the first count at which its
 * {@code due} answers true, as asking each count in turn finds it.
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

  @Test
  void firstDueIsTheFirstCountAskingEachInTurnFinds() {
    qt().withFixedSeed(0x2a)
        .withExamples(5_000)
        .forAll(longs().between(1, 1L << 40), longs().between(-2, 3_000), longs().between(1, 700),
            longs().between(1, 700))
        .checkAssert((from, width, n, m) -> {
          long to = from + width;
          CondReschedLock.When every = CondReschedLock.When.every(n);
          // a patch's own test, answered by asking each count: true at multiples of m
          CondReschedLock.When lambda = (cpu, x) -> x % m == 0;
          CondReschedLock.When never = (cpu, x) -> false;
          for (CondReschedLock.When w : java.util.List.of(every, lambda, every.and(lambda), lambda.and(every),
              every.and(CondReschedLock.When.every(m)), every.and(never), never.and(every))) {
            assertThat(CondReschedLock.firstDue(w, null, from, to)).as("from %d to %d, every %d, m %d", from, to, n, m)
                .isEqualTo(firstAsked(w, from, to));
          }
        });
  }

  private static long firstAsked(CondReschedLock.When when, long from, long to) {
    for (long x = from; x <= to; x++) {
      if (when.due(null, x)) {
        return x;
      }
    }
    return to + 1;
  }
}
