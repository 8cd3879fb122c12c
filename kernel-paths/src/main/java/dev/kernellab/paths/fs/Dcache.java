package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.LIST_VISIT_NS;
import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import dev.kernellab.paths.mm.Slab;
import java.util.List;

/**
 * Models fs/dcache.c (2.4.17): {@code prune_dcache()} (as {@code shrink_dcache_memory()} calls
 * it under memory pressure) and {@code shrink_dcache_parent()} / {@code select_parent()} (as
 * umount and rmdir call it).
 */
@Models(file = "fs/dcache.c", function = "shrink_dcache_parent", version = "2.4.17")
@Models(file = "fs/dcache.c", function = "select_parent", version = "2.4.17")
public final class Dcache {

  /*
   * Implementation overview
   *
   * shrink_dcache_memory asks prune_dcache for nr_unused / priority dentries (VfsCache: the
   * count and the list are the load's). prune_dcache takes dcache_lock and walks dentry_unused
   * from its oldest end: a dentry d_lookup found since it went unused (DCACHE_REFERENCED) loses
   * the flag and moves to the head, lock held; any other is unhashed and prune_one_dentry's
   * dentry_iput drops dcache_lock around iput() and retakes it after d_free. So the lock is
   * released once per dentry freed (a preemption point for the preempt patch) but vanilla never
   * reschedules in the whole prune; the low-latency patch adds a counted lock break every 100
   * dentries walked. The priority is DEF_PRIORITY, the first pass of try_to_free_pages, which
   * the model's one shrink_caches pass stands for (mm/Vmscan): the later passes at priority
   * 5 .. 1 that a failing first pass would run are not modelled.
   *
   * select_parent (umount, rmdir) walks a whole subtree with dcache_lock held and no release:
   * the patch lets it break out after 500 dentries once it has found more than 10, prune them,
   * and restart the walk. The subtree's size is PathParams.pruneDentries: no workload umounts.
   */

  /** prune_dcache's loop over unused dentries. */
  public static final Site PRUNE_DCACHE = new Site("fs/dcache.c", "prune_dcache", "prune_dcache");
  /** select_parent's walk of a subtree. */
  public static final Site SELECT_PARENT = new Site("fs/dcache.c", "select_parent", "select_parent");

  /**
   * Take one dentry off dentry_unused and test DCACHE_REFERENCED (list_del_init, the flags):
   * one DRAM miss, {@link dev.kernellab.paths.Calibration#LIST_VISIT_NS}; a referenced one is
   * put back at the head in the same lines.
   */
  public static final long PASS_REFERENCED_NS = LIST_VISIT_NS;
  /** Unhash and unlink one dentry under dcache_lock: assumption, 3 DRAM misses. */
  public static final long PRUNE_LOCKED_NS = 3 * MEMORY_MISS_NS;
  /** iput + d_free of one dentry, lock dropped: assumption, 1 us. */
  public static final long DENTRY_IPUT_NS = 1_000;

  /** prune_dcache of one shrink_dcache_memory call. */
  public final KernelPath pruneDcache;
  /** shrink_dcache_parent of a whole mount (umount). */
  public final KernelPath shrinkDcacheParent;

  private final PathParams params;
  private final Slab slab;

  /**
   * Builds the paths for one kernel: memory pressure prunes {@code vfs}'s unused dentries, and
   * the dentries freed go back to {@code slab}.
   */
  public Dcache(Locks l, PathParams params, Slab slab, VfsCache vfs) {
    this.params = params;
    this.slab = slab;
    // prune_one_dentry, an inline of prune_dcache: named as the function it runs in, so a hold
    // of dcache_lock retaken here is prune_dcache's
    KernelPath pruneOne =
        KernelPath.path("fs/dcache.c", "prune_dcache")
            .compute(PRUNE_LOCKED_NS)
            .spinUnlock(l.dcacheLock)
            .compute(DENTRY_IPUT_NS)
            .effect("d_free(): kmem_cache_free(dentry_cache)", c -> slab.free(Slab.DENTRY_CACHE, 1))
            .spinLock(l.dcacheLock)
            .build();
    pruneDcache =
        KernelPath.path("fs/dcache.c", "prune_dcache")
            .spinLock(l.dcacheLock)
            .loop(PRUNE_DCACHE, c -> vfs.planPruneDcache(VfsCache.DEF_PRIORITY), d -> d
                .compute(PASS_REFERENCED_NS)
                .callIf("!(dentry->d_vfs_flags & DCACHE_REFERENCED)", c -> vfs.nextPrunedDentryFreed(), pruneOne))
            .spinUnlock(l.dcacheLock)
            .build();
    shrinkDcacheParent =
        KernelPath.path("fs/dcache.c", "shrink_dcache_parent")
            .call(KernelPath.path("fs/dcache.c", "select_parent")
                .spinLock(l.dcacheLock)
                .loop(SELECT_PARENT, params.pruneDentries(), d -> d.compute(LIST_VISIT_NS))
                .spinUnlock(l.dcacheLock)
                .build())
            .call(prune(l, params.pruneDentries()))
            .build();
  }

  /** prune_dcache of {@code count} dentries of a subtree (shrink_dcache_parent's). */
  @Models(file = "fs/dcache.c", function = "prune_dcache", version = "2.4.17")
  private KernelPath prune(Locks l, Distribution count) {
    return KernelPath.path("fs/dcache.c", "prune_dcache")
        .spinLock(l.dcacheLock)
        .loop(PRUNE_DCACHE, count, d -> d
            .compute(PRUNE_LOCKED_NS)
            .spinUnlock(l.dcacheLock)
            .compute(DENTRY_IPUT_NS)
            .effect("d_free(): kmem_cache_free(dentry_cache)", c -> slab.free(Slab.DENTRY_CACHE, 1))
            .spinLock(l.dcacheLock))
        .spinUnlock(l.dcacheLock)
        .build();
  }

  /**
   * Dentries the k-th prune after boot frees with no load adding any (k from 1):
   * nr_unused / DEF_PRIORITY of what the earlier ones left.
   */
  static long bootPrune(long unused, int k) {
    long left = unused;
    long n = 0;
    for (int i = 0; i < k; i++) {
      n = left / VfsCache.DEF_PRIORITY;
      left -= n;
    }
    return n;
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution n = params.pruneDentries();
    long per = PRUNE_LOCKED_NS + DENTRY_IPUT_NS;
    long unused = VfsCache.DENTRIES_AT_BOOT - VfsCache.DENTRIES_IN_USE_AT_BOOT;
    long per2 = PASS_REFERENCED_NS + per;
    return List.of(
        new CatalogEntry(
            "prune_dcache", pruneDcache, List.of("dcache_lock (dropped per dentry)"),
            bootPrune(unused, 10) * per2, bootPrune(unused, 1) * per2,
            "the first prune after boot: nr_unused / 6 of the 27,000 unused dentries; no vanilla"
                + " reschedule point",
            "1.7 us/dentry (assumption); count dentry_stat.nr_unused / DEF_PRIORITY (the load's);"
                + " typical the 10th prune"),
        new CatalogEntry(
            "shrink_dcache_parent", shrinkDcacheParent, List.of("dcache_lock"),
            Quantiles.typical(n) * (LIST_VISIT_NS + per), Quantiles.tail(n) * (LIST_VISIT_NS + per),
            "umount or rmdir -r of a large tree: the select_parent walk holds dcache_lock",
            "175 ns/dentry walked (DRAM miss, lmbench) + prune_dcache"));
  }
}
