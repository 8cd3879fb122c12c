package dev.kernellab.lowlat;

import static dev.kernellab.paths.CatalogLock.DCACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGECACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGEMAP_LRU_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGE_TABLE_LOCK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogLock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a hunk of the patch may be (include/linux/low-latency.h of the 2.4.32 copy): a
 * conditional_schedule() holds no lock and looks every iteration; a lock break names the lock
 * it drops; TEST_RESCHED_COUNT(n) looks every n + 1 iterations and only with the sysctl on; a
 * chunked walk drops its lock every n iterations, due or not.
 */
class PatchedSiteTests {

  private static final Site SITE = new Site("fs/dcache.c", "prune_dcache", "prune_dcache");
  private static final List<CatalogLock> DCACHE = List.of(DCACHE_LOCK);

  private static PatchedSite site(Technique t, List<CatalogLock> locks, Cadence c, int n, long revalidateNs) {
    return new PatchedSite(SITE, t, locks, c, n, revalidateNs, "the hunk", "the source");
  }

  @Test
  void aConditionalScheduleLooksEveryIterationHoldsNoLockAndIsNotGated() {
    PatchedSite cs = PatchedSite.cs(SITE, "fs/dcache.c prune_dcache: conditional_schedule");
    assertThat(cs.site()).isEqualTo(SITE);
    assertThat(cs.technique()).isEqualTo(Technique.CONDITIONAL_SCHEDULE);
    assertThat(cs.locks()).isEmpty();
    assertThat(cs.cadence()).isEqualTo(Cadence.EVERY_ITERATION);
    assertThat(cs.period()).isEqualTo(1);
    assertThat(cs.gated()).isFalse();
    assertThat(cs.revalidateNs()).isZero();
    assertThat(cs.hunk()).isEqualTo("fs/dcache.c prune_dcache: conditional_schedule");
    assertThat(cs.describe()).isEqualTo("conditional_schedule");
  }

  @Test
  void aLockBreakOnEveryIterationNamesItsLocksOutermostFirst() {
    PatchedSite lb = PatchedSite.lb(SITE, List.of(PAGEMAP_LRU_LOCK, PAGECACHE_LOCK), 250, "hunk", "src");
    assertThat(lb.technique()).isEqualTo(Technique.LOCK_BREAK);
    assertThat(lb.locks()).containsExactly(PAGEMAP_LRU_LOCK, PAGECACHE_LOCK);
    assertThat(lb.cadence()).isEqualTo(Cadence.EVERY_ITERATION);
    assertThat(lb.period()).isEqualTo(1);
    assertThat(lb.gated()).isFalse();
    assertThat(lb.revalidateNs()).isEqualTo(250);
    assertThat(lb.source()).isEqualTo("src");
    assertThat(lb.describe()).isEqualTo("lock break (pagemap_lru_lock, pagecache_lock), +250 ns");
  }

  @Test
  void testReschedCountOfNLooksEveryNPlusOneIterationsAndOnlyWithTheSysctlOn() {
    PatchedSite counted = PatchedSite.lbCounted(SITE, DCACHE, 100, 0, "hunk", "src");
    assertThat(counted.cadence()).isEqualTo(Cadence.TEST_RESCHED_COUNT);
    assertThat(counted.n()).isEqualTo(100);
    assertThat(counted.period()).isEqualTo(101);
    assertThat(counted.gated()).isTrue();
    assertThat(counted.describe()).isEqualTo("lock break (dcache_lock), TEST_RESCHED_COUNT(100) [sysctl], +0 ns");
  }

  @Test
  void aChunkedWalkDropsItsLockEveryNIterationsUngated() {
    PatchedSite chunk = PatchedSite.chunked(SITE, List.of(PAGE_TABLE_LOCK), 256, 1_500, "hunk", "src");
    assertThat(chunk.technique()).isEqualTo(Technique.LOCK_BREAK);
    assertThat(chunk.cadence()).isEqualTo(Cadence.CHUNK);
    assertThat(chunk.period()).isEqualTo(256);
    assertThat(chunk.gated()).isFalse();
    assertThat(chunk.describe()).isEqualTo("lock break (page_table_lock), dropped every 256, +1500 ns");
  }

  @Test
  void aLockBreakMustNameTheLockItBreaks() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.LOCK_BREAK, List.of(), Cadence.EVERY_ITERATION, 1, 0))
        .withMessageContaining("needs the lock");
  }

  @Test
  void aConditionalScheduleHoldsNoLockAndRevalidatesNothing() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.CONDITIONAL_SCHEDULE, DCACHE, Cadence.EVERY_ITERATION, 1, 0))
        .withMessageContaining("holds no lock");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.CONDITIONAL_SCHEDULE, List.of(), Cadence.EVERY_ITERATION, 1, 5))
        .withMessageContaining("holds no lock");
  }

  @Test
  void aConditionalScheduleMayBeCountedButNotChunked() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.CONDITIONAL_SCHEDULE, List.of(), Cadence.CHUNK, 4, 0))
        .withMessageContaining("no lock to drop in chunks");
    PatchedSite counted = site(Technique.CONDITIONAL_SCHEDULE, List.of(), Cadence.TEST_RESCHED_COUNT, 32, 0);
    assertThat(counted.period()).isEqualTo(33);
    assertThat(counted.gated()).isTrue();
    assertThat(counted.describe()).isEqualTo("conditional_schedule, TEST_RESCHED_COUNT(32) [sysctl]");
  }

  @Test
  void countsStartAtOneAndEveryIterationMeansOne() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.LOCK_BREAK, DCACHE, Cadence.TEST_RESCHED_COUNT, 0, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.LOCK_BREAK, DCACHE, Cadence.CHUNK, 0, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.LOCK_BREAK, DCACHE, Cadence.EVERY_ITERATION, 2, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> site(Technique.LOCK_BREAK, DCACHE, Cadence.TEST_RESCHED_COUNT, 1, -1))
        .withMessageContaining("revalidateNs >= 0");
    assertThatNoException().isThrownBy(() -> site(Technique.LOCK_BREAK, DCACHE, Cadence.TEST_RESCHED_COUNT, 1, 0));
    assertThatNoException().isThrownBy(() -> site(Technique.LOCK_BREAK, DCACHE, Cadence.EVERY_ITERATION, 1, 0));
    assertThatNoException().isThrownBy(() -> site(Technique.CONDITIONAL_SCHEDULE, List.of(), Cadence.EVERY_ITERATION, 1, 0));
  }

  @Test
  void everyHunkSaysWhatItIsAndWhereItsCostComesFrom() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new PatchedSite(SITE, Technique.LOCK_BREAK, DCACHE, Cadence.EVERY_ITERATION, 1, 0, " ", "src"))
        .withMessageContaining("says what it is");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new PatchedSite(SITE, Technique.LOCK_BREAK, DCACHE, Cadence.EVERY_ITERATION, 1, 0, "hunk", ""))
        .withMessageContaining("says what it is");
  }

  @Test
  void thePatchNamesItselfLowlatAndSaysWhenItTakesTheCatalogFromTheBuilder() {
    assertThat(LowLatencyPatch.unbound().name()).isEqualTo("lowlat");
    assertThat(LowLatencyPatch.unbound()).hasToString("lowlat (catalog from the builder)");
    assertThat(LowLatencyPatch.forSites(List.of(), key -> null)).hasToString("lowlat");
    assertThat(LowLatencyPatch.unbound().table()).isEqualTo(LowLatencySites.TABLE);
    assertThat(new LowLatencyProvider().description()).contains("low-latency");
  }

  /** An experiment's table replaces the patch's: its sites are hooked, the real table's are not. */
  @Test
  void aPatchForAnotherTableHooksThatTableOnly() {
    Site mine = new Site("test/exp.c", "walk", "walk");
    LowLatencyPatch p = LowLatencyPatch.forSites(List.of(PatchedSite.cs(mine, "an experiment")), key -> null);
    assertThat(p.table()).extracting(PatchedSite::site).containsExactly(mine);
    dev.kernellab.kernel.Kernel k =
        new dev.kernellab.kernel.KernelBuilder(dev.kernellab.hw.MachineSpec.uniprocessor(), 1)
            .scheduler(new dev.kernellab.kernel.SimpleRoundRobinScheduler())
            .patch(p)
            .build();
    assertThat(k.hookAt(mine)).isPresent();
    assertThat(k.hookAt(LowLatencySites.TABLE.get(0).site())).isEmpty();
  }

  /** The mechanism beside the real patch: under its own name and switch, on a site of its own. */
  @Test
  void anExperimentsTableRunsBesideTheRealPatchUnderItsOwnName() {
    dev.kernellab.paths.Kernel24Paths catalog = dev.kernellab.paths.Kernel24Paths.withDefaults();
    List<Site> patched = LowLatencySites.TABLE.stream().map(PatchedSite::site).toList();
    Site free = catalog.sites().stream().filter(x -> !patched.contains(x)).findFirst().orElseThrow();
    List<PatchedSite> mine = List.of(PatchedSite.cs(free, "an experiment beside lowlat"));
    java.util.function.Supplier<dev.kernellab.kernel.KernelBuilder> builder = () -> {
      dev.kernellab.kernel.KernelBuilder b =
          new dev.kernellab.kernel.KernelBuilder(dev.kernellab.hw.MachineSpec.uniprocessor(), 1)
              .scheduler(new dev.kernellab.kernel.SimpleRoundRobinScheduler());
      catalog.install(b);
      return b.patch("lowlat");
    };
    dev.kernellab.kernel.KernelBuilder clash =
        builder.get().patch(LowLatencyPatch.forSites(mine, catalog.locks()::get));
    assertThatIllegalArgumentException().isThrownBy(clash::build).withMessage("patch lowlat given twice");

    LowLatencyPatch exp = LowLatencyPatch.forSites(mine, catalog.locks()::get).named("mylat");
    assertThat(exp.name()).isEqualTo("mylat");
    assertThat(exp.sysctlName()).isEqualTo("kernel/mylat");
    dev.kernellab.kernel.Kernel k = builder.get().patch(exp).build();
    assertThat(k.sysctl("kernel/lowlatency")).isPresent();
    assertThat(k.sysctl("kernel/mylat")).isPresent();
    assertThat(k.hookAt(free)).isPresent();
    assertThat(k.hookAt(patched.get(0))).isPresent();
    // The name rule is kernel-core's, applied where the builder takes the patch.
    assertThatIllegalArgumentException().isThrownBy(() -> builder.get().patch(exp.named("My Lat")))
        .withMessage("patch name 'My Lat': a patch name is a lower-case letter, then lower-case letters, digits,"
            + " '_' or '-'");
  }
}
