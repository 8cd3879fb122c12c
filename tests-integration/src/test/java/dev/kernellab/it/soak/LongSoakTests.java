package dev.kernellab.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The long soak, run only by {@code ./mvnw -B -Psoak -pl tests-integration -am verify}: both
 * schedulers x the four configurations x 1, 2 and 4 CPUs x 5 seeds x every soak workload, 300
 * simulated seconds each by default; {@link SoakConfig} lists the properties that change the
 * axes and the length ({@code -Dsoak.seconds=600 -Dsoak.seeds=10}) or pick single cases
 * ({@code -Dsoak.only=o1/vanilla/2/1/mixed}). Each failure is reported with its coordinates, its
 * oops and its replay command in {@code tests-integration/target/soak/long.txt}.
 */
@Tag("soak")
class LongSoakTests {

  @Test
  void theLongSoakFindsNoKernelBugAndNoStall() {
    SoakConfig cfg = SoakConfig.fromProperties(300, 5);
    Soak.Summary s = Soak.run("long", cfg.cases(), cfg.workers(), cfg.timeoutS());
    assertThat(s.failures()).as("soak failures:%s", s.failureList()).isEmpty();
  }
}
