package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Mm;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Chance;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import dev.kernellab.paths.fs.VfsCache;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

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
@Models(file = "mm/vmscan.c", function = "swap_out_mm", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "swap_out_vma", version = "2.4.17")
@Models(file = "mm/vmscan.c", function = "swap_out_pgd", version = "2.4.17")
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
   * vanilla point; nr_unused / DEF_PRIORITY of the load's caches, fs/VfsCache: the one pass
   * here stands for try_to_free_pages' first, at DEF_PRIORITY); then swap_out visits mms (vanilla need_resched test per mm, no lock held)
   * and scans each one's ptes with page_table_lock held (swap_out_pmd: no vanilla point; the
   * low-latency patch breaks it).
   *
   * Which mm, and how much of it: 2.4.17's swap_out does not pick by rss (2.4.9 and earlier
   * did); it walks init_mm's mmlist round robin from swap_mm, at most mmlist_nr + 1 mms a call
   * (counter = mmlist_nr, do ... while (--counter >= 0)), skipping (and resetting) an mm whose
   * swap_address reached TASK_SIZE. swap_out_mm takes that mm's page_table_lock and walks its
   * vmas from mm->swap_address (swap_out_vma -> swap_out_pgd -> swap_out_pmd) until
   * try_to_swap_out has freed the SWAP_CLUSTER_MAX pages wanted or the address space ends. So
   * one hold is the rest of the victim's address space at most, and the cursor carries over
   * from call to call. The model walks the tasks' Mms in pid order (the kernel's mmlist puts
   * a child after its parent: pid order is that order for a load that forks from a few
   * parents, an approximation), counts the walk in resident ptes from Mm.swapAddress, and
   * draws how many ptes a call must walk to find its SWAP_CLUSTER_MAX freeable pages
   * (PathParams.swapOutPtes: how many pages are young, active or locked is the load's memory
   * pressure, which the model does not track page by page). The plan of a call (which mms,
   * how many ptes each) is made when it starts; each hold declares the victim (SwapOutMm) so
   * the anatomy names whose mm was walked. With no user mm at all (the catalog without a
   * workload) each of SWAP_OUT_MMS visits walks a drawn swapOutPtes of an unnamed mm.
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
  /** mms swap_out visits per call without a workload's mms: assumption, 1-3. */
  public static final Distribution SWAP_OUT_MMS = Distribution.uniform(1, 3);
  /** Chance that a zone pass also prunes the dcache and icache: assumption, 1 in 4. */
  public static final double PRUNE_CHANCE = 0.25;

  /**
   * The cause a swap_out_mm hold declares: the walk of {@code victim}'s address space with its
   * page_table_lock held ({@code victim} is the comm of the task whose mm it is).
   */
  public record SwapOutMm(String victim) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      // a hold a patch's break point split ends away from the loop's exit, its count unknown
      long ptes = h.iterationsAt(SWAP_OUT_PMD);
      String what = ptes > 0
          ? String.format(Locale.ROOT, "swap_out_mm: %,d ptes of %s's mm walked", ptes, victim)
          : "swap_out_mm: the walk of " + victim + "'s mm";
      return String.format(Locale.ROOT, "%s with page_table_lock held (on %s, %.1f us)", what, h.task(),
          h.ns() / 1000.0);
    }
  }

  /** The victim named when no task's mm is known (the catalog without a workload). */
  static final String UNNAMED_VICTIM = "a process";

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
  private final Locks locks;
  private final KernelPath swapOutPmd;
  private long pagesLooked; // by shrink_cache, for the buffer heads its frees release
  // swap_mm: the pid of the task whose mm swap_out starts at; 0 is init_mm, before any walk
  private int swapMmPid;
  // the plan of the running swap_out call: visit i walks planPtes[i] ptes of planVictim[i]
  private String[] planVictim = new String[8];
  private long[] planPtes = new long[8];
  private int planVisits;
  private int planAt; // the visit the walk is at
  // swap_out_mm's path per victim comm (each declares its victim), built when a call's plan
  // first names that comm, never in a step: a catalog belongs to one kernel, so the plan and
  // these paths are that kernel's state, as the slab's caches are
  private final TreeMap<String, KernelPath> swapOutMmByVictim = new TreeMap<>();

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
  public Vmscan(Locks l, PathParams params, KernelPath pruneDcache, KernelPath pruneIcache, Slab slab,
      VfsCache vfs) {
    this.params = params;
    this.locks = l;
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
                .bookkeeping("try_to_release_page(): free the page's buffer heads", c -> {
                  if (++pagesLooked % PAGES_PER_BUFFER_HEAD_FREED == 0) {
                    slab.free(Slab.BUFFER_HEAD, 1);
                    vfs.pageReclaimed();
                  }
                }))
            .spinUnlock(l.pagemapLruLock)
            .build();
    // swap_out_vma -> swap_out_pgd -> swap_out_pmd: the pte loop stands for the three
    swapOutPmd =
        KernelPath.path("mm/vmscan.c", "swap_out_pmd")
            .loop(SWAP_OUT_PMD, c -> planPtes[planAt], pte -> pte.compute(SWAP_OUT_PTE_NS))
            .build();
    swapOutMm(UNNAMED_VICTIM);
    Operation walkVictim = new Operation() {
      @Override
      public int step(Operation.Step s, int phase) {
        s.call(swapOutMmByVictim.get(planVictim[planAt]));
        return DONE;
      }

      @Override
      public String describe() {
        return "swap_out_mm(the next mm of the mmlist): spin_lock(page_table_lock), swap_out_pmd's"
            + " pte walk, spin_unlock";
      }

      @Override
      public List<KernelPath> mayCall() {
        return List.of(swapOutMmByVictim.get(UNNAMED_VICTIM)); // every victim's has this shape
      }
    };
    swapOut =
        KernelPath.path("mm/vmscan.c", "swap_out")
            .effect("counter = mmlist_nr; swap_mm: plan the mms this call walks", this::planSwapOut)
            .loop(SWAP_OUT, c -> planVisits, mm -> mm.condResched().op(walkVictim))
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

  /**
   * swap_out_mm of one victim: the walk of its ptes from its swap_address, page_table_lock
   * held, declaring the victim.
   */
  @Models(file = "mm/vmscan.c", function = "swap_out_mm", version = "2.4.17")
  private KernelPath swapOutMm(String victim) {
    KernelPath p = swapOutMmByVictim.get(victim);
    if (p == null) {
      p = KernelPath.path("mm/vmscan.c", "swap_out_mm")
          .cause(new SwapOutMm(victim))
          .spinLock(locks.pageTableLock)
          .call(swapOutPmd)
          .spinUnlock(locks.pageTableLock)
          .effect("the next visit of swap_out", c -> planAt++)
          .build();
      swapOutMmByVictim.put(victim, p);
    }
    return p;
  }

  /**
   * swap_out's choice of mms, made when it starts: from swap_mm round the mmlist (the tasks'
   * Mms in pid order), at most mmlist_nr + 1 visits, each walking the victim from its
   * swap_address until the ptes the call must walk are walked or the victim ends.
   */
  private void planSwapOut(KernelCpu c) {
    planVisits = 0;
    planAt = 0;
    List<Task> tasks = c.kernel().allTasks();
    int mmlistNr = 0;
    for (int i = 0; i < tasks.size(); i++) {
      if (onMmlist(tasks, i)) {
        mmlistNr++;
      }
    }
    if (mmlistNr == 0) {
      long visits = c.sample(SWAP_OUT_MMS);
      for (long v = 0; v < visits; v++) {
        plan(UNNAMED_VICTIM, c.sample(params.swapOutPtes()));
      }
      return;
    }
    long wanted = c.sample(params.swapOutPtes());
    for (int counter = mmlistNr; counter >= 0 && wanted > 0; counter--) {
      Task victim = nextVictim(tasks);
      if (victim == null) {
        return; // every mm empty: swap_out's "goto empty"
      }
      Mm mm = victim.mm();
      long walk = Math.min(wanted, mm.residentPages() - mm.swapAddress());
      mm.setSwapAddress(mm.swapAddress() + walk);
      wanted -= walk;
      plan(victim.comm(), walk);
    }
  }

  /**
   * swap_out's inner loop: from swap_mm, skip (and reset) every mm whose walk has reached its
   * end, moving swap_mm on; null when a whole round finds no page (the list is only init_mm,
   * or every mm is empty).
   */
  private Task nextVictim(List<Task> tasks) {
    int n = tasks.size();
    int at = 0;
    while (at < n && tasks.get(at).pid() < swapMmPid) {
      at++;
    }
    for (int tried = 0; tried <= n; tried++) {
      Task t = tasks.get((at + tried) % n);
      Mm mm = t.mm();
      if (!onMmlist(tasks, (at + tried) % n)) {
        continue;
      }
      if (t.pid() == swapMmPid && mm.swapAddress() < mm.residentPages()) {
        return t;
      }
      if (t.pid() != swapMmPid) {
        swapMmPid = t.pid();
        if (mm.swapAddress() < mm.residentPages()) {
          return t;
        }
      }
      mm.setSwapAddress(0); // reached TASK_SIZE: start it again next round
    }
    return null;
  }

  /**
   * True if task {@code i}'s mm is on the mmlist under it: it has one, and no task before it
   * (a parent: pids grow) shares it. The mmlist holds an mm once however many tasks use it;
   * a vforked child borrows its parent's until it execs (kernel/fork.c copy_mm, CLONE_VM).
   */
  private static boolean onMmlist(List<Task> tasks, int i) {
    Mm mm = tasks.get(i).mm();
    if (mm == null) {
      return false;
    }
    if (mm.users() > 1) {
      for (int j = 0; j < i; j++) {
        if (tasks.get(j).mm() == mm) {
          return false;
        }
      }
    }
    return true;
  }

  private void plan(String victim, long ptes) {
    if (planVisits == planPtes.length) {
      planPtes = Arrays.copyOf(planPtes, planVisits * 2);
      planVictim = Arrays.copyOf(planVictim, planVisits * 2);
    }
    swapOutMm(victim);
    planVictim[planVisits] = victim;
    planPtes[planVisits] = ptes;
    planVisits++;
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
            Quantiles.typical(ptes) * SWAP_OUT_PTE_NS, Quantiles.tail(ptes) * SWAP_OUT_PTE_NS,
            "a call that finds few freeable pages walks the rest of a big mm with its"
                + " page_table_lock held (the victim's resident pages bound it)",
            "175 ns/pte (one DRAM miss, lmbench); the victim is the next mm of the mmlist (its"
                + " resident pages from swap_address); ptes wanted per call an assumption"),
        new CatalogEntry(
            "swap_out_mm", swapOutMm(UNNAMED_VICTIM), List.of("page_table_lock"),
            Quantiles.typical(ptes) * SWAP_OUT_PTE_NS, Quantiles.tail(ptes) * SWAP_OUT_PTE_NS,
            "one victim's walk: the rest of its mm or the ptes the call still wants",
            "175 ns/pte (one DRAM miss, lmbench); bounded by the victim's resident pages"),
        new CatalogEntry(
            "kswapd", kswapd, List.of("pagemap_lru_lock", "page_table_lock", "dcache_lock", "inode_lock"),
            ZONES * Quantiles.typical(scan) * SHRINK_PAGE_NS,
            ZONES * (Quantiles.tail(scan) * SHRINK_PAGE_NS + Quantiles.tail(ptes) * SWAP_OUT_PTE_NS),
            "woken once in 256 page allocations; prunes the dcache/icache 1 pass in 4",
            "sum of shrink_cache, prune_dcache/icache and swap_out (this table)"));
  }
}
