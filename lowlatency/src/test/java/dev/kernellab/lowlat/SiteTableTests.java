package dev.kernellab.lowlat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogLock;
import dev.kernellab.paths.CatalogTable;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.PathParams;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table against the catalog, the registry, and the site listing. */
class SiteTableTests {

  private final Kernel24Paths catalog = Kernel24Paths.withDefaults();

  @Test
  void everyHunkFallsOnACatalogSiteAndNamesItsLocks() {
    // fbcon_cfb16_putcs exists only with a framebuffer console.
    List<Site> sites = new ArrayList<>(catalog.sites());
    sites.addAll(new Kernel24Paths(PathParams.defaults().withFramebufferConsole()).sites());
    for (PatchedSite ps : LowLatencySites.TABLE) {
      assertThat(sites).as("%s", ps.site()).contains(ps.site());
      ps.locks().forEach(l -> assertThat(catalog.locks().get(l).name()).isEqualTo(l.kernelName()));
    }
    assertThat(LowLatencySites.TABLE.stream().map(PatchedSite::site)).doesNotHaveDuplicates();
  }

  @Test
  void isRegisteredAsLowlatAndFindsTheCatalogInstalledOnTheBuilder() {
    assertThat(KernelPatchProvider.create("lowlat")).isInstanceOf(LowLatencyPatch.class);
    KernelBuilder without = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .patch("lowlat");
    assertThatThrownBy(without::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("install a Kernel24Paths on the builder first");
    KernelBuilder installed = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    paths.install(installed);
    installed.patch("lowlat");
    dev.kernellab.kernel.Kernel k = installed.build();
    for (PatchedSite ps : LowLatencySites.TABLE) {
      assertThat(k.hookAt(ps.site())).as("%s hooked", ps.site()).isPresent();
    }
    PatchedSite prune = LowLatencySites.TABLE.stream()
        .filter(ps -> ps.site().function().equals("prune_dcache")).findFirst().orElseThrow();
    assertThat(k.hookAt(prune.site()).orElseThrow().listing())
        .containsExactly("cond_resched_lock(&dcache_lock, every 101) [kernel/lowlatency]");
  }

  @Test
  void theSiteListingShowsWhatVanillaAndThePatchDoAtEverySite() throws IOException {
    List<String> lines = CatalogTable.sites(catalog, List.of(LowLatencyPatch.unbound()));
    String all = String.join("\n", lines);
    assertThat(all)
        .contains("| mm/memory.c:copy_page_range#copy_pte_range | - | - |")
        .contains("| fs/dcache.c:prune_dcache | - | lock break (dcache_lock), TEST_RESCHED_COUNT(100) [sysctl], +0 ns |")
        .contains("| mm/vmscan.c:shrink_cache | need_resched test | - |");
    List<String> out = new ArrayList<>();
    out.add("| hunk | technique | locks | every | revalidate | source of revalidate |");
    out.add("|---|---|---|---|---|---|");
    for (PatchedSite ps : LowLatencySites.TABLE) {
      out.add("| " + ps.hunk() + " | " + ps.technique().kernelName() + " | "
          + (ps.locks().isEmpty() ? "-" : String.join(", ", ps.locks().stream().map(CatalogLock::kernelName).toList()))
          + " | " + ps.period()
          + " | " + ps.revalidateNs() + " ns | " + ps.source() + " |");
    }
    out.add("");
    out.addAll(lines);
    Path file = Path.of("target", "lowlat-sites.md");
    Files.createDirectories(file.getParent());
    Files.write(file, out, StandardCharsets.UTF_8);
  }

  /**
   * fs/buffer.c write_some_buffers with the patch (2.4.32 copy): no break of lru_list_lock in
   * the walk; a conditional_schedule() after each full batch, with the lock released, in
   * write_some_buffers itself, so for every caller (bdflush, kupdate, sync, balance_dirty), and
   * not again between the callers' batches.
   */
  @Test
  void writeSomeBuffersReschedulesAfterAFullBatchNotInItsWalk() {
    assertThat(LowLatencySites.TABLE).extracting(PatchedSite::site)
        .doesNotContain(dev.kernellab.paths.fs.Buffer.WRITE_SOME_BUFFERS, dev.kernellab.paths.fs.Buffer.BDFLUSH_BATCH,
            dev.kernellab.paths.fs.Buffer.KUPDATE_BATCH, dev.kernellab.paths.fs.Buffer.SYNC_BUFFERS)
        .contains(dev.kernellab.paths.fs.Buffer.FULL_BATCH);
    assertThat(LowLatencySites.UNMODELLED_HUNKS).anyMatch(h -> h.contains("__refile_buffer"));
  }
}
