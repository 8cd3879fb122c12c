package dev.kernellab.it.findings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.testkit.TraceDigest;
import org.junit.jupiter.api.Test;

/** One configuration and one seed give one trace: every kernel event, in order, the same twice. */
class DeterminismTests {

  static TraceDigest trace(String scheduler, String config, int cpus, long seed) {
    TraceDigest d = new TraceDigest();
    FindingsRig.compose("stress", scheduler, config, cpus, seed, d, null).kernel().run(3_000_000_000L);
    return d;
  }

  @Test
  void theSameConfigurationAndSeedGiveTheSameTraceTwiceAndAnotherSeedAnother() {
    TraceDigest a = trace("o1", "preempt+lowlat", 2, 7);
    TraceDigest b = trace("o1", "preempt+lowlat", 2, 7);
    TraceDigest c = trace("o1", "preempt+lowlat", 2, 8);
    assertThat(a.events()).isGreaterThan(100_000);
    assertThat(b.events()).isEqualTo(a.events());
    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(c.digest()).isNotEqualTo(a.digest());

    TraceDigest g1 = trace("goodness", "preempt", 1, 7);
    TraceDigest g2 = trace("goodness", "preempt", 1, 7);
    assertThat(g2.digest()).isEqualTo(g1.digest());
  }
}
