package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.LIST_VISIT_NS;

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
 * Models fs/inode.c (2.4.17): {@code prune_icache()} with {@code dispose_list()} (memory
 * pressure) and {@code invalidate_inodes()} / {@code invalidate_list()} (umount).
 */
@Models(file = "fs/inode.c", function = "prune_icache", version = "2.4.17")
@Models(file = "fs/inode.c", function = "dispose_list", version = "2.4.17")
@Models(file = "fs/inode.c", function = "invalidate_inodes", version = "2.4.17")
@Models(file = "fs/inode.c", function = "invalidate_list", version = "2.4.17")
public final class Inode {

  /*
   * Implementation overview
   *
   * prune_icache walks inode_unused from the tail with inode_lock held, skipping inodes that
   * CAN_UNUSE rejects (they still have cached pages or buffers) and moving freeable ones to a
   * private list, then drops the lock and dispose_list()s them. On a machine with much page
   * cache most unused inodes are skipped: the walk visits about three inodes per one freed
   * (assumption). invalidate_list walks every inode of a superblock under inode_lock. The
   * low-latency patch breaks inode_lock in both walks and reschedules in dispose_list.
   */

  /** prune_icache's walk of inode_unused. */
  public static final Site PRUNE_ICACHE = new Site("fs/inode.c", "prune_icache", "prune_icache");
  /** dispose_list's loop, no lock held. */
  public static final Site DISPOSE_LIST = new Site("fs/inode.c", "dispose_list", "dispose_list");
  /** invalidate_list's walk of a superblock's inodes. */
  public static final Site INVALIDATE_LIST = new Site("fs/inode.c", "invalidate_list", "invalidate_list");

  /** Inodes walked per inode freed (CAN_UNUSE failures): assumption, 3. */
  public static final int WALKED_PER_FREED = 3;
  /** clear_inode + destroy_inode of one inode: assumption, 1.5 us. */
  public static final long DISPOSE_NS = 1_500;

  /** prune_icache of one shrink_icache_memory call. */
  public final KernelPath pruneIcache;
  /** invalidate_inodes of a superblock (umount). */
  public final KernelPath invalidateInodes;

  private final PathParams params;

  /** Builds the paths for one kernel; the inodes it frees go back to {@code slab}. */
  public Inode(Locks l, PathParams params, Slab slab) {
    this.params = params;
    Distribution freed = params.pruneInodes();
    KernelPath dispose =
        KernelPath.path("fs/inode.c", "dispose_list")
            .loop(DISPOSE_LIST, freed, i -> i.compute(DISPOSE_NS)
                .effect("destroy_inode(): kmem_cache_free(inode_cachep)", c -> slab.free(Slab.INODE_CACHE, 1)))
            .build();
    pruneIcache =
        KernelPath.path("fs/inode.c", "prune_icache")
            .spinLock(l.inodeLock)
            .loop(PRUNE_ICACHE, freed, i -> i.compute(WALKED_PER_FREED * LIST_VISIT_NS))
            .spinUnlock(l.inodeLock)
            .call(dispose)
            .build();
    invalidateInodes =
        KernelPath.path("fs/inode.c", "invalidate_inodes")
            .spinLock(l.inodeLock)
            .call(KernelPath.path("fs/inode.c", "invalidate_list")
                .loop(INVALIDATE_LIST, params.pruneDentries(), i -> i.compute(LIST_VISIT_NS))
                .build())
            .spinUnlock(l.inodeLock)
            .call(dispose)
            .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution n = params.pruneInodes();
    long walk = WALKED_PER_FREED * LIST_VISIT_NS;
    Distribution all = params.pruneDentries();
    return List.of(
        new CatalogEntry(
            "prune_icache", pruneIcache, List.of("inode_lock"),
            Quantiles.typical(n) * (walk + DISPOSE_NS), Quantiles.tail(n) * (walk + DISPOSE_NS),
            "~12,000 inodes freed in one call after a big build (1 in 1000)",
            "525 ns walked per inode freed, 1.5 us dispose (assumptions)"),
        new CatalogEntry(
            "invalidate_inodes", invalidateInodes, List.of("inode_lock"),
            Quantiles.typical(all) * LIST_VISIT_NS + Quantiles.typical(n) * DISPOSE_NS,
            Quantiles.tail(all) * LIST_VISIT_NS + Quantiles.tail(n) * DISPOSE_NS,
            "umount of a filesystem with tens of thousands of inodes (rare)",
            "175 ns/inode walked (DRAM miss, lmbench); dispose 1.5 us (assumption)"));
  }
}
