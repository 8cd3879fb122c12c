package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.COPY_PAGE_NS;
import static dev.kernellab.paths.Calibration.LIST_VISIT_NS;
import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Chance;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import dev.kernellab.paths.fs.Ext2;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsCache;
import java.util.List;

/**
 * Models mm/filemap.c (2.4.17): {@code do_generic_file_read()}, {@code generic_file_write()},
 * {@code truncate_inode_pages()} / {@code truncate_list_pages()},
 * {@code invalidate_inode_pages()} and {@code invalidate_inode_pages2()} /
 * {@code invalidate_list_pages2()}: the page cache walks that reads, writes, truncates and
 * invalidations do.
 */
@Models(file = "mm/filemap.c", function = "do_generic_file_read", version = "2.4.17")
@Models(file = "mm/filemap.c", function = "generic_file_write", version = "2.4.17")
@Models(file = "mm/filemap.c", function = "truncate_inode_pages", version = "2.4.17")
@Models(file = "mm/filemap.c", function = "truncate_list_pages", version = "2.4.17")
@Models(file = "mm/filemap.c", function = "invalidate_inode_pages", version = "2.4.17")
@Models(file = "mm/filemap.c", function = "invalidate_inode_pages2", version = "2.4.17")
@Models(file = "mm/filemap.c", function = "invalidate_list_pages2", version = "2.4.17")
@Models(file = "mm/memory.c", function = "vmtruncate", version = "2.4.17")
@Models(file = "fs/open.c", function = "do_truncate", version = "2.4.17")
@Models(file = "fs/attr.c", function = "notify_change", version = "2.4.17")
@Models(file = "fs/namei.c", function = "sys_unlink", version = "2.4.17")
public final class Filemap {

  /*
   * Implementation overview
   *
   * Read and write loop once per page with no spinlock held across iterations (pagecache_lock
   * is taken only around the hash lookup), so the kernel is preemptible between pages with the
   * preempt patch; vanilla runs a whole large read or write without a reschedule point, and the
   * low-latency patch adds one per page [1].
   *
   * Vanilla truncate_list_pages already drops pagecache_lock for every page it truncates and
   * tests need_resched while unlocked [2]; what stays lock-held is the walk past pages below the
   * cut, restarted from the list head after every truncated page. That inner walk is the site
   * the low-latency patch breaks. invalidate_list_pages2 also has a vanilla need_resched test,
   * taken with pagecache_lock held, so it is a lock break in vanilla. invalidate_inode_pages
   * holds pagemap_lru_lock and pagecache_lock over the whole clean list: unbroken in vanilla.
   *
   * With a FileIo argument (a workload's read, write, truncate or unlink) the loops run over
   * exactly the pages asked for: each page of a read is looked up in the PageCache and goes to
   * the disk only if it is not there (a miss brings READ_AHEAD_PAGES more in after it), each
   * page written is cached and dirty, and balance_dirty acts on the dirty fraction of the cache
   * (fs/buffer.c bdf_prm nfract 30 %, nfract_sync 60 %). Without one (catalog users who run no
   * workload) the lengths and the miss and throttle chances come from PathParams.
   *
   * [1] Morton's low-latency patch for 2.4, mm/filemap.c hunks (2.4.32 copy, iPodLinux/
   * linux-2.4.32-ipod commit 5264fa3d; docs/lowlatency-sites.md, Sites). [2] 2.4.17
   * mm/filemap.c truncate_list_pages() and invalidate_list_pages2() (docs/lowlatency-sites.md,
   * Vanilla 2.4.17).
   */

  /** The per-page loop of a read. */
  public static final Site READ_PAGE = new Site("mm/filemap.c", "do_generic_file_read", "found_page");
  /** A read's page cache miss: once (page_cache_read and the disk read) or not at all. */
  public static final Site PAGE_CACHE_READ =
      new Site("mm/filemap.c", "do_generic_file_read", "page_cache_read");
  /** The per-page loop of a write. */
  public static final Site WRITE_PAGE = new Site("mm/filemap.c", "generic_file_write", "write_page");
  /** A write's throttle: balance_dirty() once, or not at all. */
  public static final Site BALANCE_DIRTY = new Site("mm/filemap.c", "generic_file_write", "balance_dirty");
  /** truncate_list_pages' loop over the pages it truncates (vanilla reschedule point). */
  public static final Site TRUNCATE = new Site("mm/filemap.c", "truncate_list_pages", "truncate_list_pages");
  /** truncate_list_pages' walk past pages below the cut, pagecache_lock held. */
  public static final Site TRUNCATE_SKIP = new Site("mm/filemap.c", "truncate_list_pages", "skip");
  /** invalidate_inode_pages' walk of the clean list, both page locks held. */
  public static final Site INVALIDATE = new Site("mm/filemap.c", "invalidate_inode_pages", "invalidate_inode_pages");
  /** invalidate_list_pages2's walk (vanilla need_resched test under pagecache_lock). */
  public static final Site INVALIDATE2 = new Site("mm/filemap.c", "invalidate_list_pages2", "invalidate_list_pages2");

  /** find_get_page: hash, two DRAM misses, plus the lock: assumption, 400 ns. */
  public static final long FIND_GET_PAGE_NS = 400;
  /** ext2_get_block under the BKL for a new block: bitmap search, assumption 1.5 us. */
  public static final long EXT2_GET_BLOCK_NS = 1_500;
  /** __grab_cache_page + add_to_page_cache + LRU insertion: assumption, 4 DRAM misses. */
  public static final long GRAB_CACHE_PAGE_NS = 4 * MEMORY_MISS_NS;
  /** generic_commit_write: mark buffers dirty, refile on lru_list: assumption, 2 misses. */
  public static final long COMMIT_WRITE_NS = 2 * MEMORY_MISS_NS;
  /** One page of a write, without its throttle: what the page loop charges. */
  public static final long WRITE_PAGE_NS = GRAB_CACHE_PAGE_NS + EXT2_GET_BLOCK_NS + COPY_PAGE_NS + COMMIT_WRITE_NS;
  /** Removing one page from the cache (truncate_complete_page): assumption, 8 DRAM misses. */
  public static final long TRUNCATE_PAGE_NS = 8 * MEMORY_MISS_NS;
  /** Invalidating one clean page (lru del, hash del, release): assumption, 3 DRAM misses. */
  public static final long INVALIDATE_PAGE_NS = 3 * MEMORY_MISS_NS;
  /** Restarting invalidate_list_pages2 after its vanilla reschedule: assumption, 1 us. */
  public static final long INVALIDATE2_RESTART_NS = 1_000;
  /**
   * Sectors of one page-cache miss: the page plus 2.4's default read-ahead window of
   * {@code vm_min_readahead} 3 pages, 32 sectors (assumption from the 2.4.17 default).
   */
  public static final int READ_MISS_SECTORS = 32;
  /** LBA range of file data: the first 50 M sectors of the 60 M-sector disk (assumption). */
  public static final Distribution FILE_LBA = Distribution.uniform(0, 50_000_000);

  /** Names the file, drops its dentry and inode: assumption, 5 us (path walk, ext2 unlink). */
  public static final long UNLINK_FIXED_NS = 5_000;
  /**
   * notify_change's own part: the times, inode_change_ok, inode_setattr's mark_inode_dirty and
   * inode_dir_notify: assumption, 4 DRAM misses (lmbench 175 ns).
   */
  public static final long NOTIFY_CHANGE_NS = 4 * MEMORY_MISS_NS;
  /** Read-ahead pages brought in after a miss: READ_MISS_SECTORS less the page itself. */
  public static final int READ_AHEAD_PAGES = READ_MISS_SECTORS / PageCache.SECTORS_PER_PAGE - 1;

  /** sys_read of a regular file. */
  public final KernelPath sysRead;
  /** sys_unlink of a regular file ({@link FileIo} argument: the file). */
  public final KernelPath sysUnlink;
  /** sys_truncate to {@link FileIo#offset()} bytes: do_truncate after the path walk. */
  public final KernelPath sysTruncate;
  /**
   * fs/open.c do_truncate to {@link FileIo#offset()} bytes, as truncate(2), an open with
   * O_TRUNC (fs/namei.c open_namei) and do_coredump call it: notify_change under the BKL,
   * vmtruncate, and the file system's truncate under the BKL again.
   */
  public final KernelPath doTruncate;
  /** sys_write to a regular file (ext2). */
  public final KernelPath sysWrite;
  /** truncate_inode_pages, as unlink or truncate of a cached file run it. */
  public final KernelPath truncateInodePages;
  /** truncate_list_pages, which truncate_inode_pages calls. */
  public final KernelPath truncateListPages;
  /** invalidate_list_pages2, which invalidate_inode_pages2 calls. */
  public final KernelPath invalidateListPages2;
  /** invalidate_inode_pages of a block device's clean pages (umount, BLKFLSBUF). */
  public final KernelPath invalidateInodePages;
  /** invalidate_inode_pages2 (NFS revalidation). */
  public final KernelPath invalidateInodePages2;

  private final PathParams params;

  /**
   * Builds the paths for one kernel.
   *
   * @param allocWakeup what a page allocation runs when free memory is low (wakes kswapd)
   * @param balanceDirty what a writer runs when it must flush dirty buffers itself
   * @param deleteInode what the last iput() of an unlinked file runs after its page cache is
   *     truncated: the file system's delete_inode (fs/Ext2)
   * @param fsTruncate what vmtruncate calls as {@code inode->i_op->truncate}, under its own
   *     lock_kernel(): the file system's truncate of the blocks past the new size (fs/Ext2)
   */
  public Filemap(Locks l, PathParams params, PageCache cache, VfsCache vfs, KernelPath allocWakeup,
      KernelPath balanceDirty, KernelPath deleteInode, KernelPath fsTruncate) {
    this.params = params;
    Distribution miss = Chance.of(params.pageCacheMissRate());
    Distribution throttle = Chance.of(params.dirtyBalanceRate());
    sysRead =
        KernelPath.path("mm/filemap.c", "do_generic_file_read")
            .loop(READ_PAGE, c -> pages(c, params.readPages()), page -> page
                .spinLock(l.pagecacheLock)
                .compute(FIND_GET_PAGE_NS)
                .spinUnlock(l.pagecacheLock)
                .loop(PAGE_CACHE_READ, c -> {
                  FileIo io = c.syscallArgs(FileIo.class);
                  if (io == null) {
                    return c.sample(miss);
                  }
                  long p = io.nextPage();
                  if (cache.read(io.file(), p)) {
                    return 0;
                  }
                  for (int i = 1; i <= READ_AHEAD_PAGES; i++) {
                    cache.readAhead(io.file(), p + i);
                  }
                  return 1;
                }, m -> m
                    .call(allocWakeup)
                    .diskIo(c -> {
                      FileIo io = c.syscallArgs(FileIo.class);
                      return io == null ? c.sample(FILE_LBA) : io.file().lbaOf(io.lastPage());
                    }, c -> READ_MISS_SECTORS, false))
                .mightSleep() // file_read_actor's __copy_to_user: the user page may fault
                .compute(COPY_PAGE_NS))
            .effect("UPDATE_ATIME(inode): mark_inode_dirty_sync", c -> dirtyInode(c, vfs))
            .build();
    sysWrite =
        KernelPath.path("mm/filemap.c", "generic_file_write")
            .loop(WRITE_PAGE, c -> pages(c, params.writePages()), page -> page
                .spinLock(l.pagecacheLock)
                .compute(GRAB_CACHE_PAGE_NS)
                .effect("add_to_page_cache(); SetPageDirty()", c -> {
                  FileIo io = c.syscallArgs(FileIo.class);
                  if (io != null) {
                    cache.write(io.file(), io.nextPage(), c.now());
                  }
                })
                .spinUnlock(l.pagecacheLock)
                .call(allocWakeup)
                .lockKernel(l.kernelFlag)
                .compute(EXT2_GET_BLOCK_NS)
                .unlockKernel(l.kernelFlag)
                .mightSleep() // __copy_from_user of the page: the user page may fault
                .compute(COPY_PAGE_NS)
                .spinLock(l.lruListLock)
                .compute(COMMIT_WRITE_NS)
                .spinUnlock(l.lruListLock)
                .loop(BALANCE_DIRTY, c -> {
                  FileIo io = c.syscallArgs(FileIo.class);
                  if (io == null) {
                    return c.sample(throttle);
                  }
                  return cache.overSoftDirtyLimit() ? 1 : 0;
                }, b -> b.call(balanceDirty)))
            .effect("mtime and i_size: mark_inode_dirty", c -> dirtyInode(c, vfs))
            .build();
    truncateListPages =
        KernelPath.path("mm/filemap.c", "truncate_list_pages")
            .loop(TRUNCATE, c -> {
              FileIo io = c.syscallArgs(FileIo.class);
              if (io == null) {
                return c.sample(params.truncatePages());
              }
              long cut = (io.offset() + PageCache.PAGE_SIZE - 1) / PageCache.PAGE_SIZE;
              io.setBelow(cache.cachedBelow(io.file(), cut));
              return cache.truncate(io.file(), cut);
            }, page -> page
                .spinLock(l.pagecacheLock)
                .loop(TRUNCATE_SKIP, c -> {
                  FileIo io = c.syscallArgs(FileIo.class);
                  return io == null ? c.sample(params.truncateSkipPages()) : io.below();
                }, s -> s.compute(LIST_VISIT_NS))
                .spinUnlock(l.pagecacheLock)
                .compute(TRUNCATE_PAGE_NS)
                .condResched())
            .build();
    truncateInodePages =
        KernelPath.path("mm/filemap.c", "truncate_inode_pages").call(truncateListPages).build();
    // vmtruncate of a file nobody maps (vmtruncate_list has nothing to zap): i_size, the page
    // cache past it, then lock_kernel() around inode->i_op->truncate. notify_change already
    // holds the BKL, so under it the whole truncate runs; truncate_list_pages' own vanilla
    // reschedule point drops it in schedule().
    KernelPath vmtruncate =
        KernelPath.path("mm/memory.c", "vmtruncate")
            .call(truncateInodePages)
            .lockKernel(l.kernelFlag)
            .call(fsTruncate)
            .unlockKernel(l.kernelFlag)
            .effect("inode->i_size = offset", c -> {
              FileIo io = c.syscallArgs(FileIo.class);
              if (io != null) {
                cache.shrink(io.file(), (io.offset() + PageCache.PAGE_SIZE - 1) / PageCache.PAGE_SIZE);
              }
            })
            .build();
    doTruncate =
        KernelPath.path("fs/open.c", "do_truncate")
            .call(KernelPath.path("fs/attr.c", "notify_change")
                .compute(NOTIFY_CHANGE_NS)
                .lockKernel(l.kernelFlag)
                .call(vmtruncate)
                .unlockKernel(l.kernelFlag)
                .build())
            .build();
    sysTruncate =
        KernelPath.path("fs/open.c", "do_sys_truncate").compute(UNLINK_FIXED_NS).call(doTruncate).build();
    sysUnlink =
        KernelPath.path("fs/namei.c", "sys_unlink")
            .compute(UNLINK_FIXED_NS)
            .call(truncateInodePages)
            .call(deleteInode)
            .effect("d_delete(), iput(): the inode goes, the name's dentry turns negative", c -> {
              FileIo io = c.syscallArgs(FileIo.class);
              if (io != null) {
                vfs.unlink(io.file());
                cache.unlink(io.file());
              }
            })
            .build();
    invalidateInodePages =
        KernelPath.path("mm/filemap.c", "invalidate_inode_pages")
            .spinLock(l.pagemapLruLock)
            .spinLock(l.pagecacheLock)
            .loop(INVALIDATE, params.deviceBuffers(), p -> p.compute(INVALIDATE_PAGE_NS))
            .spinUnlock(l.pagecacheLock)
            .spinUnlock(l.pagemapLruLock)
            .build();
    invalidateListPages2 =
        KernelPath.path("mm/filemap.c", "invalidate_list_pages2")
            .loop(INVALIDATE2, params.truncatePages(), p -> p
                .condReschedLock(l.pagecacheLock, INVALIDATE2_RESTART_NS)
                .compute(INVALIDATE_PAGE_NS))
            .build();
    invalidateInodePages2 =
        KernelPath.path("mm/filemap.c", "invalidate_inode_pages2")
            .spinLock(l.pagecacheLock)
            .call(invalidateListPages2)
            .spinUnlock(l.pagecacheLock)
            .build();
  }

  /** mark_inode_dirty of the call's file, if it names one. */
  private static void dirtyInode(dev.kernellab.kernel.KernelCpu c, VfsCache vfs) {
    FileIo io = c.syscallArgs(FileIo.class);
    if (io != null && !io.file().isUnlinked()) {
      vfs.markDirty(io.file());
    }
  }

  /** The pages of the call's FileIo, or a draw from {@code dflt} for a call without one. */
  private static long pages(dev.kernellab.kernel.KernelCpu c, Distribution dflt) {
    FileIo io = c.syscallArgs(FileIo.class);
    return io == null ? c.sample(dflt) : io.beginPages();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    long readPage = FIND_GET_PAGE_NS + COPY_PAGE_NS;
    long writePage = WRITE_PAGE_NS;
    Distribution skip = params.truncateSkipPages();
    long truncPage = TRUNCATE_PAGE_NS;
    return List.of(
        new CatalogEntry(
            "sys_read (file)", sysRead, List.of("pagecache_lock"),
            Quantiles.typical(params.readPages()) * readPage,
            Quantiles.tail(params.readPages()) * readPage,
            "a large read of cached pages: no reschedule point in vanilla; misses sleep on disk",
            "copy 10 us/page (assumption, ~400 MB/s); lookup 400 ns (assumption)"),
        new CatalogEntry(
            "sys_write (ext2)", sysWrite, List.of("pagecache_lock", "kernel_flag", "lru_list_lock"),
            Quantiles.typical(params.writePages()) * writePage,
            Quantiles.tail(params.writePages()) * writePage,
            "a large write; 1 page in 64 past the dirty threshold runs write_some_buffers",
            "copy 10 us/page (assumption); ext2_get_block 1.5 us under the BKL (assumption)"),
        new CatalogEntry(
            "truncate_inode_pages", truncateInodePages, List.of("pagecache_lock"),
            Quantiles.typical(params.truncatePages()) * (truncPage + Quantiles.typical(skip) * LIST_VISIT_NS),
            Quantiles.tail(params.truncatePages()) * truncPage + Quantiles.tail(skip) * LIST_VISIT_NS,
            "lock-held stretch = the skip walk: 4096 pages below the cut (1 truncate in 1000)",
            "1.4 us/page truncated, 175 ns/page skipped (DRAM miss, lmbench)"),
        new CatalogEntry(
            "do_truncate (ext2)", doTruncate, List.of("kernel_flag", "pagecache_lock"),
            NOTIFY_CHANGE_NS + Quantiles.typical(params.truncatePages()) * truncPage
                + Ext2.holdNs(Quantiles.typical(params.truncatePages())),
            NOTIFY_CHANGE_NS + Quantiles.tail(params.truncatePages()) * truncPage
                + Ext2.holdNs(Quantiles.tail(params.truncatePages())),
            "truncate(2) or O_TRUNC of a big cached file: notify_change's BKL over truncate_inode_pages"
                + " (its own reschedule point drops it) and ext2_truncate",
            "1.4 us/page truncated; ext2_truncate 0.1 us/block + pointer blocks (fs/Ext2 assumptions)"),
        new CatalogEntry(
            "invalidate_inode_pages", invalidateInodePages, List.of("pagemap_lru_lock", "pagecache_lock"),
            Quantiles.typical(params.deviceBuffers()) * INVALIDATE_PAGE_NS,
            Quantiles.tail(params.deviceBuffers()) * INVALIDATE_PAGE_NS,
            "umount or BLKFLSBUF of a device with ~80 MB cached: both locks held throughout",
            "525 ns/page (3 DRAM misses, assumption)"),
        new CatalogEntry(
            "invalidate_inode_pages2", invalidateInodePages2, List.of("pagecache_lock"),
            Quantiles.typical(params.truncatePages()) * INVALIDATE_PAGE_NS,
            Quantiles.tail(params.truncatePages()) * INVALIDATE_PAGE_NS,
            "vanilla already breaks the lock when need_resched is set",
            "525 ns/page (assumption); vanilla point: 2.4.17 invalidate_list_pages2()"));
  }
}
