package dev.kernellab.lowlat;

import static dev.kernellab.paths.CatalogLock.PAGE_TABLE_LOCK;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.net.Net;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/golden-scenarios.md S8: a site the patch does not touch is the same in every
 * configuration.
 */
class UntouchedSiteTests {

  private static final long US = 1_000;

  @Test
  void forksCopyPageRangeRunsUnbrokenInEveryConfiguration() {
    for (boolean lowlat : new boolean[] {false, true}) {
      for (boolean preempt : new boolean[] {false, true}) {
        SiteRig r = new SiteRig();
        KernelPath k = r.loopAt(Memory.COPY_PTE_RANGE, List.of(PAGE_TABLE_LOCK), 30, 100 * US);
        assertThat(r.latency(k, 500 * US, lowlat, preempt)).isEqualTo(2_500 * US);
      }
    }
  }

  @Test
  void theListingSaysWhichSitesThePatchLeavesAlone() {
    LowLatencyPatch p = LowLatencyPatch.unbound();
    assertThat(p.change(Memory.COPY_PTE_RANGE)).isEmpty();
    assertThat(p.change(Net.NET_RX_ACTION)).isEmpty();
    assertThat(p.change(Memory.ZAP_PTE_RANGE)).contains("lock break (page_table_lock), dropped every 256, +2000 ns");
  }
}
