package dev.kernellab.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The short soak of every {@code mvn verify}: both schedulers x the four configurations x 1, 2
 * and 4 CPUs x every soak workload, one seed, ten simulated seconds each, every debug check on.
 * Twenty times the composed-kernel tests' length, and on four CPUs, which they do not run; the
 * long soak ({@code -Psoak}, see {@link LongSoakTests}) runs the same matrix for minutes per run.
 */
class SoakMatrixTests {

  @Test
  void everyCompositionRunsTenSecondsWithoutAKernelBugOrAStall() {
    SoakConfig cfg = SoakConfig.fromProperties(10, 1);
    // Each run takes about a second; ten minutes means a hang.
    Soak.Summary s = Soak.run("matrix", cfg.cases(), cfg.workers(), Math.min(cfg.timeoutS(), 600));
    assertThat(s.failures()).as("soak failures:%s", s.failureList()).isEmpty();
  }
}
