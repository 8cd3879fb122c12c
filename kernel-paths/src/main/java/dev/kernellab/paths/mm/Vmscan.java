package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Site;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Chance;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models mm/vmscan.c (2.4.17, Andrea Arcangeli's VM): the {@code kswapd} thread,
 * {@code kswapd_balance_pgdat()}, {@code shrink_caches()} with {@code shrink_cache()},
 * {@code shrink_dcache_memory()}, {@code shrink_icache_memory()} and {@code swap_out()} /
 * {@code swap_out_pmd()}; and mm/page_alloc.c {@code __alloc_pages()}'s wake-up of kswapd.
 */
@Models(file = "mm/vmscan.c", function = "kswapd", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "kswapd_balance_pgdat", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "shrink_caches", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "shrink_cache", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "swap_out", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "swap_out_pmd", version = "2.4.17")
@Models(file = "fs/dcache.c", function = "shrink_dcache_memory", version = "2.4.17")
@Models(file = "fs/inode.c", function = "shrink_icache_memory", version = "2.4.17")
@Models(file = "mm/page_alloc.c", function = "__alloc_pages", version = "2.4.17")
public final class Vmscan {

  /*
   * Implementation overview
   *
   * kswapd sleeps on kswapd_wait until an allocation finds a zone below pages_low. It then
   * balances each zone (kswapd_balance_pgdat, with a vanilla need_resched test after each
   * zone), each by shrink_caches: kmem_cache_reap scans the slab caches with interrupts off
   * (Slab), then shrink_cache scans the inactive list with pagemap_lru_lock
   * held but tests need_resched on every iteration and, if set, drops the lock and schedules
   * (vanilla 2.4.17); then the dcache and icache are pruned (fs/dcache.c, fs/inode.c: no
   * vanilla point); then swap_out visits mms (vanilla need_resched test per mm, no lock held)
   * and scans each one's ptes with page_table_lock held (swap_out_pmd: no vanilla point; the
   * low-latency patch breaks it).
   */

  /** shrink_cache's scan of the inactive list (vanilla lock break). */
  public static final Site SHRINK_CACHE = new Site("mm/vmscan.c", "shrink_cache", "shrink_cache");
  /** swap_out's loop over mms (vanilla reschedule point). */
  public static final Site SWAP_OUT = new Site("mm/vmscan.c", "swap_out", "swap_out");
  /** swap_out_pmd's pte scan, page_table_lock held. */
  public static final Site SWAP_OUT_PMD = new Site("mm/vmscan.c", "swap_out_pmd", "swap_out_pmd");
  /** kswapd_balance_pgdat's loop over zones (vanilla reschedule point). */
  public static final Site KSWAPD_BALANCE_PGDAT =
      new Site("mm/vmscan.c", "kswapd_balance_pgdat", "kswapd_balance_pgdat");
  /** shrink_caches' call of shrink_dcache_memory and shrink_icache_memory: once or not at all. */
  public static final Site SHRINK_DCACHE_MEMORY =
      new Site("mm/vmscan.c", "shrink_caches", "shrink_dcache_memory");
  /** kswapd's main loop: sleep until woken, then balance. */
  public static final Site KSWAPD = new Site("mm/vmscan.c", "kswapd", "kswapd");
  /** __alloc_pages' wake-up of kswapd when memory is low: once or not at all. */
  public static final Site WAKEUP_KSWAPD = new Site("mm/page_alloc.c", "__alloc_pages", "wakeup_kswapd");

  /** Looking at one inactive page (flags, mapping, count): assumption, 2 DRAM misses. */
  public static final long SHRINK_PAGE_NS = 2 * MEMORY_MISS_NS;
  /** Scanning one pte in swap_out (reads the struct page's flags): one DRAM miss. */
  public static final long SWAP_OUT_PTE_NS = MEMORY_MISS_NS;
  /** Zones kswapd balances on a machine below 896 MB: ZONE_DMA and ZONE_NORMAL. */
  public static final long ZONES = 2;
  /** mms swap_out visits per call: assumption, 1-3. */
  public static final Distribution SWAP_OUT_MMS = Distribution.uniform(1, 3);
  /** Chance that a zone pass also prunes the dcache and icache: assumption, 1 in 4. */
  public static final double PRUNE_CHANCE = 0.25;

  /** {@code kswapd_wait}. */
  public final WaitQueue kswapdWait = new WaitQueue("kswapd_wait");
  /** __alloc_pages' low-memory wake-up of kswapd (zero time unless it wakes it). */
  public final KernelPath allocWakeup;
  /** The kswapd kernel thread. */
  public final KernelPath kswapd;
  /** kswapd_balance_pgdat: one pass over the zones. */
  public final KernelPath kswapdBalancePgdat;
  /** shrink_cache alone, for the table. */
  public final KernelPath shrinkCache;
  /** swap_out alone, for the table. */
  public final KernelPath swapOut;

  private final PathParams params;
  private long pagesLooked; // by shrink_cache, for the buffer heads its frees release

  /**
   * Pages shrink_cache looks at per buffer head it frees: a page it frees that has buffers
   * (try_to_release_page) frees one per 4 KiB block, and most pages looked at are referenced,
   * mapped or locked and stay. Assumption: 1 in 4.
   */
  public static final long PAGES_PER_BUFFER_HEAD_FREED = 4;

  /**
   * Builds the paths for one kernel, pruning with the given dcache and icache paths and reaping
   * {@code slab}'s caches.
   */
  public Vmscan(Locks l, PathParams params, KernelPath pruneDcache, KernelPath pruneIcache, Slab slab) {
    this.params = params;
    allocWakeup =
        KernelPath.path("mm/page_alloc.c", "__alloc_pages")
            .loop(WAKEUP_KSWAPD, Chance.of(params.kswapdWakeRate()), w -> w.wakeUp(kswapdWait))
            .build();
    shrinkCache =
        KernelPath.path("mm/vmscan.c", "shrink_cache")
            .spinLock(l.pagemapLruLock)
            .loop(SHRINK_CACHE, params.shrinkCacheScan(), p -> p
                .condReschedLock(l.pagemapLruLock, 0)
                .compute(SHRINK_PAGE_NS)
                .effect("try_to_release_page(): free the page's buffer heads", c -> {
                  if (++pagesLooked % PAGES_PER_BUFFER_HEAD_FREED == 0) {
                    slab.free(Slab.BUFFER_HEAD, 1);
                  }
                }))
            .spinUnlock(l.pagemapLruLock)
            .build();
    KernelPath swapOutPmd =
        KernelPath.path("mm/vmscan.c", "swap_out_pmd")
            .spinLock(l.pageTableLock)
            .loop(SWAP_OUT_PMD, params.swapOutPtes(), p -> p.compute(SWAP_OUT_PTE_NS))
            .spinUnlock(l.pageTableLock)
            .build();
    swapOut =
        KernelPath.path("mm/vmscan.c", "swap_out")
            .loop(SWAP_OUT, SWAP_OUT_MMS, mm -> mm.condResched().call(swapOutPmd))
            .build();
    KernelPath shrinkCaches =
        KernelPath.path("mm/vmscan.c", "shrink_caches")
            // nr_pages -= kmem_cache_reap(gfp_mask): the pages it frees are not counted against
            // the pages wanted here, which the model does not track
            .call(slab.kmemCacheReap)
            .call(shrinkCache)
            .loop(SHRINK_DCACHE_MEMORY, Chance.of(PRUNE_CHANCE), p -> p.call(pruneDcache).call(pruneIcache))
            .call(swapOut)
            .build();
    kswapdBalancePgdat =
        KernelPath.path("mm/vmscan.c", "kswapd_balance_pgdat")
            .loop(KSWAPD_BALANCE_PGDAT, ZONES, z -> z.call(shrinkCaches).condResched())
            .build();
    kswapd =
        KernelPath.path("mm/vmscan.c", "kswapd")
            .loop(KSWAPD, Long.MAX_VALUE, k -> k.sleepOn(kswapdWait).call(kswapdBalancePgdat))
            .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution scan = params.shrinkCacheScan();
    Distribution ptes = params.swapOutPtes();
    return List.of(
        new CatalogEntry(
            "shrink_cache", shrinkCache, List.of("pagemap_lru_lock"),
            Quantiles.typical(scan) * SHRINK_PAGE_NS, Quantiles.tail(scan) * SHRINK_PAGE_NS,
            "a deep scan at low priority; vanilla breaks the lock on need_resched",
            "350 ns/page (2 DRAM misses, assumption); scan nr_inactive/priority (PathParams)"),
        new CatalogEntry(
            "swap_out", swapOut, List.of("page_table_lock"),
            Quantiles.typical(ptes) * SWAP_OUT_PTE_NS, 3 * Quantiles.tail(ptes) * SWAP_OUT_PTE_NS,
            "a large mm scanned with page_table_lock held (~5,000 ptes, 1 in 1000)",
            "175 ns/pte (one DRAM miss, lmbench); ptes per mm an assumption"),
        new CatalogEntry(
            "kswapd", kswapd, List.of("pagemap_lru_lock", "page_table_lock", "dcache_lock", "inode_lock"),
            ZONES * Quantiles.typical(scan) * SHRINK_PAGE_NS,
            ZONES * (Quantiles.tail(scan) * SHRINK_PAGE_NS + Quantiles.tail(ptes) * SWAP_OUT_PTE_NS),
            "woken once in 256 page allocations; prunes the dcache/icache 1 pass in 4",
            "sum of shrink_cache, prune_dcache/icache and swap_out (this table)"));
  }
}
