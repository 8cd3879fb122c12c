package dev.kernellab.lowlat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Tracer;
import org.junit.jupiter.api.Test;

/**
 * With lowlat, the non-preemptible stretch at a patched site that follows a wake-up is at most
 * one loop iteration (N iterations at a counted site) plus the break cost: P's latency, and
 * with the preempt patch the end of the preempt-off region around the interrupt, both come
 * within that bound. Random runs: any site of the table, any iteration count and length, any
 * interrupt instant, with and without preempt.
 *
 * <p>Does not hold at sites the patch leaves alone (see UntouchedSiteTests), nor with machine
 * costs (the rig's costs are zero: interrupt entry, schedule() and the switch would add).
 */
class LowLatencyProperties {

  private static final long US = 1_000;

  @Test
  void theStretchAfterAWakeUpIsAtMostEveryNIterationsPlusTheBreak() {
    qt().withFixedSeed(20020320L)
        .withExamples(150)
        .forAll(
            // site index times two, plus one with the preempt patch
            integers().between(0, 2 * LowLatencySites.TABLE.size() - 1),
            integers().between(1, 600),
            longs().between(1 * US, 200 * US),
            longs().between(0, 2_000 * US))
        .checkAssert((siteAndPreempt, n, iterNs, tIrq) -> {
          PatchedSite ps = LowLatencySites.TABLE.get(siteAndPreempt / 2);
          int preempt = siteAndPreempt % 2;
          SiteRig r = new SiteRig();
          KernelPath k = r.loopAt(ps.site(), ps.locks(), n, iterNs);
          long[] offEnd = {Long.MAX_VALUE};
          Tracer t = new Tracer() {
            @Override
            public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
              if (now >= tIrq && offEnd[0] == Long.MAX_VALUE) {
                offEnd[0] = now - tIrq;
              }
            }
          };
          long latency = r.rig.firstLatency(r.builder(k, true, preempt == 1, true, t), tIrq, 400_000 * US);
          long bound = ps.period() * iterNs + ps.revalidateNs();
          assertThat(latency).as("%s n=%d iter=%d irq=%d", ps.site(), n, iterNs, tIrq).isLessThanOrEqualTo(bound);
          if (preempt == 1) {
            assertThat(offEnd[0]).isLessThanOrEqualTo(bound);
          }
          assertThat(r.visited).isEqualTo(n.longValue());
        });
  }
}
