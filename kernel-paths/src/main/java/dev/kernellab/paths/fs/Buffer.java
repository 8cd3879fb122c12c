package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.LIST_VISIT_NS;
import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import dev.kernellab.paths.drivers.Block;
import dev.kernellab.paths.mm.Filemap;
import java.util.List;

/**
 * Models fs/buffer.c (2.4.17): {@code write_some_buffers()}, {@code balance_dirty()}, the
 * {@code bdflush} and {@code kupdate} threads, {@code sys_sync}, {@code fsync_buffers_list()}
 * and {@code invalidate_bdev()}: the buffer-cache walks done with {@code lru_list_lock} held.
 */
@Models(file = "fs/buffer.c", function = "write_locked_buffers", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "write_some_buffers", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "balance_dirty", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "bdflush", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "kupdate", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "sync_buffers", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "fsync_buffers_list", version = "2.4.17")
@Models(file = "fs/buffer.c", function = "invalidate_bdev", version = "2.4.17")
public final class Buffer {

  /*
   * Implementation overview
   *
   * write_some_buffers(NODEV) takes lru_list_lock and walks the BUF_DIRTY list from its head,
   * skipping buffers already locked for I/O, until it has collected NRSYNC = 32 unlocked dirty
   * ones; it drops the lock and submits them. The locked buffers it skips on the way are what
   * can make the lock-held stretch long (below). bdflush runs batches when balance_dirty wakes
   * it; kupdate every 5 s (2.4.17 fs/buffer.c bdf_prm interval). fsync_buffers_list and invalidate_bdev
   * walk a whole inode's or device's buffers with the lock held; the low-latency patch breaks
   * both.
   *
   * The model waits for each batch's I/O (kernel-core's diskIo submits and sleeps), where
   * bdflush in fact returns to write more and blocks only in get_request_wait when the queue
   * is full: the disk, not the CPU, paces both.
   *
   * The locked buffers a walk skips are the load's: a walk takes its batch off BUF_DIRTY
   * (test_and_set_bit(BH_Lock), clear dirty, __refile_buffer to BUF_LOCKED), and a write() to
   * one of those pages while its I/O is in flight dirties it again: __block_commit_write's
   * __mark_dirty refiles it to BUF_DIRTY still locked, and every walk that reaches it passes it
   * until end_buffer_io_sync unlocks it [2]. PageCache keeps that state (startWriteback locks a
   * batch, endWriteback unlocks the oldest, lockedSkipped walks the dirty queue as the C walks
   * BUF_DIRTY), so the walk's length is what the load has in flight at that instant. Other
   * 2.4.17 writers of buffers refile them (ll_rw_block and sync_page_buffers call
   * __mark_buffer_clean, i.e. refile_buffer: locked and clean goes to BUF_LOCKED); only
   * __block_write_full_page (a writepage of a PageDirty page, set by mmap writes through
   * set_page_dirty, which no load of the catalog does) clears BH_Dirty without a refile and
   * leaves clean locked buffers on BUF_DIRTY. Those are what Morton's low-latency patch's
   * __refile_buffer of a skipped buffer moves to BUF_LOCKED [1]; a dirty one it leaves on
   * BUF_DIRTY (dirty wins in __refile_buffer's dispose), so for the catalog's locked buffers
   * the patched walk passes what vanilla's does. The patch also ends a full batch with
   * conditional_schedule(), lru_list_lock released, whoever the caller (bdflush, kupdate,
   * sync, balance_dirty): the point FULL_BATCH is where it hooks. The model's batch is always full (the walk is costed for NRSYNC); after a short last batch the
   * C skips the conditional_schedule(), and what follows in every caller is a sleep or a
   * reschedule point at the same instant.
   *
   * [1] Morton's low-latency patch, fs/buffer.c write_some_buffers hunks (2.4.32 copy,
   *     iPodLinux/linux-2.4.32-ipod commit 5264fa3d), against 2.4.17 write_some_buffers.
   * [2] 2.4.17 fs/buffer.c write_some_buffers, __refile_buffer, __block_commit_write,
   *     end_buffer_io_sync, sync_page_buffers, __block_write_full_page;
   *     drivers/block/ll_rw_blk.c ll_rw_block; include/linux/fs.h __mark_buffer_clean.
   */

  /** write_some_buffers' walk of the dirty list. */
  public static final Site WRITE_SOME_BUFFERS = new Site("fs/buffer.c", "write_some_buffers", "write_some_buffers");
  /** The end of a full write_some_buffers batch, lru_list_lock released: a point, no loop. */
  public static final Site FULL_BATCH = new Site("fs/buffer.c", "write_some_buffers", "full_batch");
  /** fsync_buffers_list's walk of an inode's dirty buffers. */
  public static final Site FSYNC_BUFFERS_LIST = new Site("fs/buffer.c", "fsync_buffers_list", "fsync_buffers_list");
  /** invalidate_bdev's walk of a device's buffers. */
  public static final Site INVALIDATE_BDEV = new Site("fs/buffer.c", "invalidate_bdev", "invalidate_bdev");
  /** sync_buffers' loop of batches. */
  public static final Site SYNC_BUFFERS = new Site("fs/buffer.c", "sync_buffers", "sync_buffers");
  /** bdflush's main loop: sleep until woken, then write batches. */
  public static final Site BDFLUSH = new Site("fs/buffer.c", "bdflush", "bdflush");
  /** bdflush's loop of write_some_buffers batches. */
  public static final Site BDFLUSH_BATCH = new Site("fs/buffer.c", "bdflush", "write_some_buffers_batch");
  /** kupdate's main loop: sleep an interval, then write the old buffers. */
  public static final Site KUPDATE = new Site("fs/buffer.c", "kupdate", "kupdate");
  /** kupdate's loop of write_some_buffers batches (sync_old_buffers). */
  public static final Site KUPDATE_BATCH = new Site("fs/buffer.c", "kupdate", "sync_old_buffers");

  /** NRSYNC of fs/buffer.c: buffers per write_some_buffers batch. */
  public static final int NRSYNC = 32;
  /**
   * Batches the catalog's writers can have in flight at once, for the catalog row's tail: bdflush,
   * kupdate and one throttled writer each wait for their own batch (the model's diskIo).
   */
  private static final int BATCHES_IN_FLIGHT = 3;
  /** Taking one buffer for the batch (lock, clear dirty, refile): assumption, 2 DRAM misses. */
  public static final long COLLECT_BH_NS = 2 * MEMORY_MISS_NS;
  /** kupdate's wake-up interval: bdf_prm interval 5 s (2.4.17 fs/buffer.c default, 5*HZ). */
  public static final long KUPDATE_INTERVAL_NS = 5_000_000_000L;
  /**
   * sync_supers (ext2_write_super of the mounted file systems) and sync_unlocked_inodes' walk of
   * the super_blocks list, under the BKL: assumption, 20 us. The dirty inodes' writes are
   * Inode.syncUnlockedInodes, sized by the load.
   */
  public static final long SYNC_SUPERS_NS = 20_000;
  /** Batches bdflush writes per wake-up: assumption, median 4 (128 buffers). */
  public static final Distribution BDFLUSH_BATCHES = Distribution.logNormal(4, 1.0);
  /** Batches of old buffers kupdate writes: assumption, median 2. */
  public static final Distribution KUPDATE_BATCHES = Distribution.logNormal(2, 1.2);
  /** Batches sys_sync writes: assumption, median 8. */
  public static final Distribution SYNC_BATCHES = Distribution.logNormal(8, 1.5);
  /** One batch on disk: 32 buffers of 4 KiB, 256 sectors. */
  public static final Distribution BATCH_SECTORS = Distribution.fixed(256);

  /** bdflush's wait queue ({@code bdflush_wait}); balance_dirty wakes it. */
  public final WaitQueue bdflushWait = new WaitQueue("bdflush_wait");
  /** One write_some_buffers(NODEV) batch, with its I/O. */
  public final KernelPath writeSomeBuffers;
  /** balance_dirty: wake bdflush and write a batch oneself. */
  public final KernelPath balanceDirty;
  /** The bdflush kernel thread. */
  public final KernelPath bdflush;
  /** The kupdate kernel thread ("kupdated"). */
  public final KernelPath kupdate;
  /** sys_sync. */
  public final KernelPath sysSync;
  /** sys_fsync of a file with dirty buffers. */
  public final KernelPath sysFsync;
  /** invalidate_bdev (umount, BLKFLSBUF). */
  public final KernelPath invalidateBdev;

  /** One ll_rw_block of a 32-buffer batch, with its I/O. */
  public final KernelPath batchIo;

  private final PathParams params;
  private final Block block;

  /**
   * Builds the paths for one kernel; kupdate's sync_old_buffers runs {@code syncUnlockedInodes}
   * (fs/Inode) under the BKL.
   */
  public Buffer(Locks l, PathParams params, Block block, PageCache cache, KernelPath syncUnlockedInodes) {
    this.params = params;
    this.block = block;
    // With pages dirty in the PageCache (a workload's writes), a batch writes the oldest 32 at
    // their place on the disk and cleans them; without, the catalog's default batch.
    KernelPath io =
        block.llRwBlock(Distribution.fixed(NRSYNC), Filemap.FILE_LBA, BATCH_SECTORS, true);
    KernelPath submit =
        KernelPath.path("fs/buffer.c", "write_locked_buffers")
            .diskIo(c -> cache.lastBatchLba(), c -> cache.lastBatchPages() * (long) PageCache.SECTORS_PER_PAGE, true)
            .effect("end_buffer_io_sync(): the batch unlocks", c -> cache.endWriteback())
            .build();
    KernelPath cacheIo =
        KernelPath.path("fs/buffer.c", "write_some_buffers")
            .effect("lock and clean the batch, refile it to BUF_LOCKED", c -> cache.startWriteback(NRSYNC))
            .callIf("count > 0", c -> cache.lastBatchPages() > 0, submit)
            .build();
    batchIo = io;
    writeSomeBuffers =
        KernelPath.path("fs/buffer.c", "write_some_buffers")
            .spinLock(l.lruListLock)
            .loop(WRITE_SOME_BUFFERS, c -> cache.lockedSkipped(NRSYNC), bh -> bh.compute(LIST_VISIT_NS))
            .compute(NRSYNC * COLLECT_BH_NS)
            .spinUnlock(l.lruListLock)
            .callIfElse("cached pages dirty", c -> cache.dirtyPages() > 0, cacheIo, io)
            .point(FULL_BATCH)
            .build();
    // balance_dirty_state() > 0 (nfract_sync) makes the writer write a batch itself; between
    // nfract and nfract_sync it only wakes bdflush. The catalog's default throttles every time.
    balanceDirty =
        KernelPath.path("fs/buffer.c", "balance_dirty")
            .wakeUp(bdflushWait)
            .callIf("balance_dirty_state() > 0",
                c -> cache.dirtyPages() == 0 || cache.overHardDirtyLimit(), writeSomeBuffers)
            .build();
    bdflush =
        KernelPath.path("fs/buffer.c", "bdflush")
            .loop(BDFLUSH, Long.MAX_VALUE, b -> b
                .sleepOn(bdflushWait)
                .loop(BDFLUSH_BATCH, c -> cache.dirtyPages() > 0
                        ? batches(cache.dirtyPages() - cache.capacityPages() * (long) PageCache.NFRACT / 100)
                        : c.sample(BDFLUSH_BATCHES),
                    batch -> batch.call(writeSomeBuffers)))
            .build();
    kupdate =
        KernelPath.path("fs/buffer.c", "kupdate")
            .loop(KUPDATE, Long.MAX_VALUE, b -> b
                .sleepFor(KUPDATE_INTERVAL_NS)
                .lockKernel(l.kernelFlag)
                .call(syncUnlockedInodes)
                .compute(SYNC_SUPERS_NS)
                .unlockKernel(l.kernelFlag)
                .loop(KUPDATE_BATCH, c -> cache.dirtyPages() > 0
                        ? batches(cache.dirtyOlderThan(c.now() - PageCache.AGE_BUFFER_NS))
                        : c.sample(KUPDATE_BATCHES),
                    batch -> batch.call(writeSomeBuffers)))
            .build();
    sysSync =
        KernelPath.path("fs/buffer.c", "sync_buffers")
            .loop(SYNC_BUFFERS, c -> cache.dirtyPages() > 0
                    ? batches(cache.dirtyPages()) : c.sample(SYNC_BATCHES),
                batch -> batch.call(writeSomeBuffers))
            .build();
    sysFsync =
        KernelPath.path("fs/buffer.c", "fsync_buffers_list")
            .spinLock(l.lruListLock)
            .loop(FSYNC_BUFFERS_LIST, params.truncatePages(), bh -> bh.compute(COLLECT_BH_NS))
            .spinUnlock(l.lruListLock)
            .call(io)
            .build();
    invalidateBdev =
        KernelPath.path("fs/buffer.c", "invalidate_bdev")
            .spinLock(l.lruListLock)
            .loop(INVALIDATE_BDEV, params.deviceBuffers(), bh -> bh.compute(COLLECT_BH_NS))
            .spinUnlock(l.lruListLock)
            .build();
  }

  /** Batches of NRSYNC that write {@code pages} pages. */
  private static long batches(long pages) {
    return pages <= 0 ? 0 : (pages + NRSYNC - 1) / NRSYNC;
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    long fixed = NRSYNC * COLLECT_BH_NS;
    Distribution file = params.truncatePages();
    Distribution dev = params.deviceBuffers();
    return List.of(
        new CatalogEntry(
            "write_some_buffers", writeSomeBuffers, List.of("lru_list_lock"),
            fixed,
            fixed + (long) BATCHES_IN_FLIGHT * NRSYNC * LIST_VISIT_NS,
            "pages written again while their batch is under I/O: up to 3 batches of locked buffers skipped",
            "175 ns/buffer skipped (DRAM miss, lmbench); 350 ns/buffer taken (assumption)"),
        new CatalogEntry(
            "bdflush", bdflush, List.of("lru_list_lock"),
            Quantiles.typical(BDFLUSH_BATCHES) * fixed, Quantiles.tail(BDFLUSH_BATCHES) * fixed,
            "a burst of dirty buffers: many batches per wake-up (each one lock hold)",
            "write_some_buffers per batch; batches per wake-up an assumption"),
        new CatalogEntry(
            "kupdate", kupdate, List.of("kernel_flag", "lru_list_lock"),
            SYNC_SUPERS_NS + Quantiles.typical(KUPDATE_BATCHES) * fixed,
            SYNC_SUPERS_NS + Quantiles.tail(KUPDATE_BATCHES) * fixed,
            "every 5 s; the old-buffer flush after a write burst",
            "interval 5 s (bdf_prm, 2.4.17); 20 us under the BKL (assumption) + sync_unlocked_inodes"
                + " (its own row)"),
        new CatalogEntry(
            "sys_sync", sysSync, List.of("lru_list_lock"),
            Quantiles.typical(SYNC_BATCHES) * fixed, Quantiles.tail(SYNC_BATCHES) * fixed,
            "sync after a large write: hundreds of batches",
            "write_some_buffers per batch; batch count an assumption"),
        new CatalogEntry(
            "sys_fsync", sysFsync, List.of("lru_list_lock"),
            Quantiles.typical(file) * COLLECT_BH_NS, Quantiles.tail(file) * COLLECT_BH_NS,
            "fsync of a file with thousands of dirty buffers: one lock hold",
            "350 ns/buffer (assumption); buffers per file = PathParams.truncatePages"),
        new CatalogEntry(
            "invalidate_bdev", invalidateBdev, List.of("lru_list_lock"),
            Quantiles.typical(dev) * COLLECT_BH_NS, Quantiles.tail(dev) * COLLECT_BH_NS,
            "umount of a device with ~80 MB cached (rare: admin, automounter)",
            "350 ns/buffer (assumption); device size an assumption (PathParams)"),
        block.entry(batchIo));
  }
}
