package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.LIST_VISIT_NS;

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
 * Models fs/inode.c (2.4.17): {@code prune_icache()} with {@code dispose_list()} (memory
 * pressure), {@code invalidate_inodes()} / {@code invalidate_list()} (umount) and
 * {@code sync_unlocked_inodes()} (kupdate).
 */
@Models(file = "fs/inode.c", function = "prune_icache", version = "2.4.17")
@Models(file = "fs/inode.c", function = "dispose_list", version = "2.4.17")
@Models(file = "fs/inode.c", function = "invalidate_inodes", version = "2.4.17")
@Models(file = "fs/inode.c", function = "invalidate_list", version = "2.4.17")
@Models(file = "fs/inode.c", function = "sync_unlocked_inodes", version = "2.4.17")
@Models(file = "fs/inode.c", function = "sync_list", version = "2.4.17")
@Models(file = "fs/inode.c", function = "__sync_one", version = "2.4.17")
public final class Inode {

  /*
   * Implementation overview
   *
   * shrink_icache_memory asks prune_icache for inodes_stat.nr_unused / priority inodes
   * (VfsCache: the count and the list are the load's; the priority is DEF_PRIORITY, as for the
   * dcache). prune_icache walks inode_unused from the tail with inode_lock held, passing inodes
   * that CAN_UNUSE rejects (they still have pages in the page cache: a workload file's own
   * cached pages, or for the inodes cached before the load the stated share, VfsCache) and
   * moving freeable ones to a private list, until the goal is met or the list ends; then it
   * drops the lock and dispose_list()s them. So the walk is long when the unused inodes are
   * mostly cached files, and it runs after prune_dcache, whose freed dentries released their
   * inodes onto the list. invalidate_list walks every inode of a superblock under inode_lock
   * (umount: PathParams' sizes, no workload umounts). The low-latency patch breaks inode_lock in
   * both walks and reschedules in dispose_list.
   *
   * sync_unlocked_inodes (kupdate's sync_old_buffers, under the BKL) takes inode_lock and
   * writes every inode on s_dirty: __sync_one drops inode_lock, filemap_fdatasync (nothing for
   * the model's write(2) and read(2), which dirty buffers and not the page's own list), and
   * write_inode (ext2_write_inode: the inode copied into its inode-table block, a buffer made
   * dirty, no wait with sync = 0), then retakes it. The BKL is held throughout; the low-latency
   * patch (2.4.32 copy, iPodLinux/linux-2.4.32-ipod 5264fa3d, fs/inode.c __sync_one) adds
   * conditional_schedule() after each inode, inode_lock dropped: schedule() drops the BKL.
   */

  /** prune_icache's walk of inode_unused. */
  public static final Site PRUNE_ICACHE = new Site("fs/inode.c", "prune_icache", "prune_icache");
  /** dispose_list's loop, no lock held. */
  public static final Site DISPOSE_LIST = new Site("fs/inode.c", "dispose_list", "dispose_list");
  /** invalidate_list's walk of a superblock's inodes. */
  public static final Site INVALIDATE_LIST = new Site("fs/inode.c", "invalidate_list", "invalidate_list");

  /** sync_list's loop over s_dirty, one __sync_one an inode. */
  public static final Site SYNC_LIST = new Site("fs/inode.c", "sync_list", "sync_list");

  /** clear_inode + destroy_inode of one inode: assumption, 1.5 us. */
  public static final long DISPOSE_NS = 1_500;
  /**
   * __sync_one of one inode: ext2_write_inode's bread of a cached inode-table block, the copy of
   * the on-disk fields and mark_buffer_dirty (lru_list_lock, refile), and the list moves:
   * assumption, 4 us.
   */
  public static final long SYNC_ONE_NS = 4_000;

  /** prune_icache of one shrink_icache_memory call. */
  public final KernelPath pruneIcache;
  /** invalidate_inodes of a superblock (umount). */
  public final KernelPath invalidateInodes;
  /** sync_unlocked_inodes: every dirty inode written, inode_lock dropped around each. */
  public final KernelPath syncUnlockedInodes;

  private final PathParams params;

  /**
   * Builds the paths for one kernel: memory pressure prunes {@code vfs}'s unused inodes and
   * kupdate writes its dirty ones; the inodes freed go back to {@code slab}.
   */
  public Inode(Locks l, PathParams params, Slab slab, VfsCache vfs) {
    this.params = params;
    KernelPath dispose =
        KernelPath.path("fs/inode.c", "dispose_list")
            .loop(DISPOSE_LIST, c -> vfs.lastPruneIcacheFreed(), i -> i.compute(DISPOSE_NS)
                .effect("destroy_inode(): kmem_cache_free(inode_cachep)", c -> slab.free(Slab.INODE_CACHE, 1)))
            .build();
    pruneIcache =
        KernelPath.path("fs/inode.c", "prune_icache")
            .spinLock(l.inodeLock)
            .loop(PRUNE_ICACHE, c -> vfs.planPruneIcache(VfsCache.DEF_PRIORITY), i -> i.compute(LIST_VISIT_NS))
            .spinUnlock(l.inodeLock)
            .call(dispose)
            .build();
    syncUnlockedInodes =
        KernelPath.path("fs/inode.c", "sync_unlocked_inodes")
            // inode_lock is held from one inode's refile to the next one's list_del, dropped
            // for each inode's write: an iteration here starts at the drop, where the
            // low-latency patch's conditional_schedule() sits
            .spinLock(l.inodeLock)
            .compute(LIST_VISIT_NS)
            .spinUnlock(l.inodeLock)
            .call(KernelPath.path("fs/inode.c", "sync_list")
                .loop(SYNC_LIST, c -> vfs.planSyncUnlockedInodes(), i -> i
                    .compute(SYNC_ONE_NS)
                    .spinLock(l.inodeLock)
                    .compute(LIST_VISIT_NS)
                    .spinUnlock(l.inodeLock))
                .build())
            .build();
    Distribution freed = params.pruneInodes();
    KernelPath disposeAll =
        KernelPath.path("fs/inode.c", "dispose_list")
            .loop(DISPOSE_LIST, freed, i -> i.compute(DISPOSE_NS)
                .effect("destroy_inode(): kmem_cache_free(inode_cachep)", c -> slab.free(Slab.INODE_CACHE, 1)))
            .build();
    invalidateInodes =
        KernelPath.path("fs/inode.c", "invalidate_inodes")
            .spinLock(l.inodeLock)
            .call(KernelPath.path("fs/inode.c", "invalidate_list")
                .loop(INVALIDATE_LIST, params.pruneDentries(), i -> i.compute(LIST_VISIT_NS))
                .build())
            .spinUnlock(l.inodeLock)
            .call(disposeAll)
            .build();
  }

  /** Dirty inodes at a kupdate, for the table: assumption, 50 typical (a build's 5 s). */
  static final long DIRTY_INODES_TYPICAL = 50;
  /** ... and 2,000 at the tail (an untar or a dbench of many clients). */
  static final long DIRTY_INODES_TAIL = 2_000;

  /** Inodes the first prune_icache after boot walks, with no load (VfsCache's boot state). */
  static long firstPruneIcacheWalk() {
    VfsCache fresh = new VfsCache(new Slab());
    fresh.planPruneDcache(VfsCache.DEF_PRIORITY);
    return fresh.planPruneIcache(VfsCache.DEF_PRIORITY);
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution n = params.pruneInodes();
    Distribution all = params.pruneDentries();
    // the first prunes after boot, with no load: the rest's unused inodes, 1 in 3 freeable, plus
    // those the dcache prune just before released (its positive share)
    long tail = firstPruneIcacheWalk();
    long freed = tail / VfsCache.WITH_PAGES_OF;
    return List.of(
        new CatalogEntry(
            "prune_icache", pruneIcache, List.of("inode_lock"),
            tail / 2 * LIST_VISIT_NS + freed / 2 * DISPOSE_NS, tail * LIST_VISIT_NS + freed * DISPOSE_NS,
            "the first prune after boot: inodes_stat.nr_unused / 6, walking 3 inodes per one freed"
                + " past those with cached pages",
            "175 ns/inode walked (DRAM miss, lmbench), 1.5 us dispose (assumption); count"
                + " inodes_stat.nr_unused / DEF_PRIORITY (the load's), CAN_UNUSE from the page cache;"
                + " typical half the first"),
        new CatalogEntry(
            "sync_unlocked_inodes", syncUnlockedInodes, List.of("inode_lock (dropped per inode)"),
            DIRTY_INODES_TYPICAL * (LIST_VISIT_NS + SYNC_ONE_NS), DIRTY_INODES_TAIL * (LIST_VISIT_NS + SYNC_ONE_NS),
            "kupdate after a burst of creates, writes and reads: every dirty inode written, under"
                + " kupdate's BKL",
            "4 us/inode (assumption); count the inodes the load dirtied in 5 s (mtime, atime, new"
                + " inodes); typical/tail 50/2,000 inodes (assumption)"),
        new CatalogEntry(
            "invalidate_inodes", invalidateInodes, List.of("inode_lock"),
            Quantiles.typical(all) * LIST_VISIT_NS + Quantiles.typical(n) * DISPOSE_NS,
            Quantiles.tail(all) * LIST_VISIT_NS + Quantiles.tail(n) * DISPOSE_NS,
            "umount of a filesystem with tens of thousands of inodes (rare)",
            "175 ns/inode walked (DRAM miss, lmbench); dispose 1.5 us (assumption)"));
  }
}
