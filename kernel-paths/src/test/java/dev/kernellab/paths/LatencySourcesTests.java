package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.HoldRegions;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.mm.Memory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The latency-source table ({@code kernel-lab list sources}, docs/latency-sources.md) is the
 * catalog read, not a list kept beside it: every lock a catalog row says its path takes is held
 * in some source that row reaches, and every such source is a line of the table.
 */
class LatencySourcesTests {

  private final Kernel24Paths catalog = Kernel24Paths.withDefaults();
  private final LatencySources sources = LatencySources.of(catalog);

  /** A patch that breaks one site, as lowlatency and lockbreak say what they do at theirs. */
  private record OneSite(Site site) implements CatalogPatch {
    @Override
    public String name() {
      return "onesite";
    }

    @Override
    public void apply(Patching b) {}

    @Override
    public Optional<String> change(Site s) {
      return s.equals(site) ? Optional.of("lock break") : Optional.empty();
    }
  }

  private static String heldForm(CatalogLock lock) {
    return lock == CatalogLock.KERNEL_FLAG ? "lock_kernel()" : "(&" + lock.kernelName() + ")";
  }

  @Test
  void everyLockACatalogRowTakesIsHeldInASourceThatRowReaches() {
    for (CatalogEntry e : catalog.entries()) {
      for (CatalogLock lock : CatalogLock.values()) {
        boolean declared = e.locks().stream().anyMatch(l -> l.startsWith(lock.kernelName()));
        if (!declared) {
          continue;
        }
        assertThat(sources.sources())
            .as("%s declares %s: a source it reaches must hold it", e.name(), lock.kernelName())
            .anyMatch(s -> s.reachedFrom().contains(e.name())
                && s.region().held().stream().anyMatch(h -> h.contains(heldForm(lock))
                    || h.startsWith(lock.kernelName())));
      }
    }
  }

  @Test
  void everyHeldRegionOfEveryRowIsALineOfTheTable() {
    List<String> table = sources.table(List.of());
    for (CatalogEntry e : catalog.entries()) {
      for (HoldRegions.Region r : HoldRegions.of(e.path())) {
        if (r.held().isEmpty()) {
          continue;
        }
        assertThat(table)
            .as("%s holds %s at %s", e.name(), r.held(), r.where())
            .anyMatch(line -> line.startsWith("| " + r.where() + " | " + String.join(", ", r.held()) + " |")
                && line.contains(e.name()));
      }
    }
  }

  @Test
  void aSourceSaysWhatDrivesItsLengthInTheLoadsTermsAndWhatBreaksIt() {
    LatencySources.Source zap = sources.sources().stream()
        .filter(s -> s.region().site().equals(Optional.of(Memory.ZAP_PTE_RANGE)))
        .findFirst().orElseThrow();
    assertThat(zap.region().held()).containsExactly("spin_lock(&page_table_lock)");
    assertThat(zap.drivenBy()).startsWith("pages of the vma being torn down");
    assertThat(zap.reachedFrom()).contains("sys_munmap", "exit_mmap");
    assertThat(zap.preemptible()).isFalse();

    List<String> table = sources.table(List.of(new OneSite(Dcache.PRUNE_DCACHE)));
    assertThat(table.get(0)).isEqualTo(
        "| source | holds | blocks | length driven by | reached from | cost from | broken by |");
    assertThat(table).anyMatch(l -> l.startsWith("| fs/dcache.c:prune_dcache | spin_lock(&dcache_lock) | preempt count |")
        && l.endsWith("| onesite (lock break) |"));
    assertThat(table).anyMatch(l -> l.startsWith("| mm/mmap.c:exit_mmap#vmas | nothing |") && l.endsWith("| preempt |"));
    assertThat(table).anyMatch(l -> l.startsWith("| mm/vmscan.c:shrink_cache | spin_lock(&pagemap_lru_lock) |")
        && l.endsWith("| vanilla (reschedule point in the loop) |"));
  }

  @Test
  void aRowWhoseCodeIsKernelCoresIsListedAsItDeclaresItself() {
    assertThat(sources.sources())
        .anyMatch(s -> s.reachedFrom().equals(List.of("ide_intr (kernel-core)"))
            && s.region().irqsOff()
            && s.region().length().contains("as the catalog row declares it"));
  }
}
