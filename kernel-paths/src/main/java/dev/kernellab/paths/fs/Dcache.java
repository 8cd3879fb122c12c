package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.LIST_VISIT_NS;
import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Site;
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
   * prune_dcache takes dcache_lock, and for each unused dentry unhashes it and calls
   * prune_one_dentry, whose dentry_iput drops dcache_lock around iput() and retakes it after
   * d_free. So the lock is released once per dentry (a preemption point for the preempt
   * patch) but vanilla never reschedules in the whole prune; the low-latency patch adds a
   * counted lock break every 100 dentries. select_parent walks a whole subtree with
   * dcache_lock held and no release: the patch lets it break out after 500 dentries once it
   * has found more than 10, prune them, and restart the walk.
   */

  /** prune_dcache's loop over unused dentries. */
  public static final Site PRUNE_DCACHE = new Site("fs/dcache.c", "prune_dcache", "prune_dcache");
  /** select_parent's walk of a subtree. */
  public static final Site SELECT_PARENT = new Site("fs/dcache.c", "select_parent", "select_parent");

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

  /** Builds the paths for one kernel; the dentries it frees go back to {@code slab}. */
  public Dcache(Locks l, PathParams params, Slab slab) {
    this.params = params;
    this.slab = slab;
    pruneDcache = prune(l, params.pruneDentries());
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

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution n = params.pruneDentries();
    long per = PRUNE_LOCKED_NS + DENTRY_IPUT_NS;
    return List.of(
        new CatalogEntry(
            "prune_dcache", pruneDcache, List.of("dcache_lock (dropped per dentry)"),
            Quantiles.typical(n) * per, Quantiles.tail(n) * per,
            "~35,000 unused dentries after a big build; no vanilla reschedule point",
            "1.5 us/dentry (assumption); count nr_unused/priority (PathParams)"),
        new CatalogEntry(
            "shrink_dcache_parent", shrinkDcacheParent, List.of("dcache_lock"),
            Quantiles.typical(n) * (LIST_VISIT_NS + per), Quantiles.tail(n) * (LIST_VISIT_NS + per),
            "umount or rmdir -r of a large tree: the select_parent walk holds dcache_lock",
            "175 ns/dentry walked (DRAM miss, lmbench) + prune_dcache"));
  }
}
