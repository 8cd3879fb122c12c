package dev.kernellab.lowlat;

import static dev.kernellab.lowlat.PatchedSite.chunked;
import static dev.kernellab.lowlat.PatchedSite.cs;
import static dev.kernellab.lowlat.PatchedSite.csCounted;
import static dev.kernellab.lowlat.PatchedSite.lb;
import static dev.kernellab.lowlat.PatchedSite.lbCounted;
import static dev.kernellab.paths.CatalogLock.DCACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.INODE_LOCK;
import static dev.kernellab.paths.CatalogLock.LRU_LIST_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGECACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGEMAP_LRU_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGE_TABLE_LOCK;
import static dev.kernellab.paths.CatalogLock.SWAPLOCK;

import dev.kernellab.hw.Models;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.drivers.Block;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Ext2;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.fs.Proc;
import dev.kernellab.paths.fs.Readdir;
import dev.kernellab.paths.kernel.Exit;
import dev.kernellab.paths.mm.Filemap;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.mm.Slab;
import dev.kernellab.paths.mm.Swapfile;
import dev.kernellab.paths.mm.Vmscan;
import dev.kernellab.paths.net.Net;
import java.util.List;

/**
 * The table of sites Andrew Morton's 2.4 low-latency patch changes, one entry per hunk that
 * falls on a site of the kernel-paths catalog, and the hunks whose code the catalog does not
 * model.
 *
 * <p>Follows the patch as applied to 2.4.32 (github.com/iPodLinux/linux-2.4.32-ipod, commit
 * 5264fa3da622784c2ccc25999ebed3dacbac4be9, "Apply iPL_2.4.32-ipod2_low-latency.patch"):
 * Morton's 2.4.17 version is not available to this project, and the 2.4 versions touched the
 * same functions. Each entry says what its hunk does; where the model simplifies a hunk, the entry
 * says how.
 */
@Models(file = "mm/memory.c", function = "zap_page_range",
    version = LowLatencyPatch.VERSION)
@Models(file = "mm/filemap.c", function = "do_generic_file_read",
    version = LowLatencyPatch.VERSION)
@Models(file = "mm/filemap.c", function = "generic_file_write",
    version = LowLatencyPatch.VERSION)
@Models(file = "mm/filemap.c", function = "truncate_list_pages",
    version = LowLatencyPatch.VERSION)
@Models(file = "mm/filemap.c", function = "invalidate_inode_pages",
    version = LowLatencyPatch.VERSION)
@Models(file = "mm/vmscan.c", function = "swap_out_pmd", version = LowLatencyPatch.VERSION)
@Models(file = "mm/swapfile.c", function = "si_swapinfo", version = LowLatencyPatch.VERSION)
@Models(file = "mm/swapfile.c", function = "get_swaparea_info",
    version = LowLatencyPatch.VERSION)
@Models(file = "fs/buffer.c", function = "write_some_buffers",
    version = LowLatencyPatch.VERSION)
@Models(file = "fs/buffer.c", function = "fsync_buffers_list",
    version = LowLatencyPatch.VERSION)
@Models(file = "fs/buffer.c", function = "invalidate_bdev",
    version = LowLatencyPatch.VERSION)
@Models(file = "fs/dcache.c", function = "prune_dcache", version = LowLatencyPatch.VERSION)
@Models(file = "fs/dcache.c", function = "select_parent", version = LowLatencyPatch.VERSION)
@Models(file = "fs/inode.c", function = "prune_icache", version = LowLatencyPatch.VERSION)
@Models(file = "fs/inode.c", function = "dispose_list", version = LowLatencyPatch.VERSION)
@Models(file = "fs/inode.c", function = "__sync_one", version = LowLatencyPatch.VERSION)
@Models(file = "fs/inode.c", function = "invalidate_list",
    version = LowLatencyPatch.VERSION)
@Models(file = "fs/proc/array.c", function = "statm_pte_range",
    version = LowLatencyPatch.VERSION)
@Models(file = "kernel/exit.c", function = "close_files", version = LowLatencyPatch.VERSION)
@Models(file = "drivers/block/ll_rw_blk.c", function = "submit_bh",
    version = LowLatencyPatch.VERSION)
@Models(file = "drivers/video/fbcon-cfb16.c", function = "fbcon_cfb16_putcs",
    version = LowLatencyPatch.VERSION)
@Models(file = "net/core/iovec.c", function = "memcpy_toiovec",
    version = LowLatencyPatch.VERSION)
@Models(file = "mm/slab.c", function = "kmem_cache_reap", version = LowLatencyPatch.VERSION)
public final class LowLatencySites {

  private LowLatencySites() {}

  // Revalidation costs. The patch's restart paths re-find their place in a list: a pin and an
  // unpin (page_cache_get/release, get_bh/put_bh: two DRAM misses), or the list head moved to
  // the current entry (one miss), or nothing (the walk resumes at a list end).
  private static final long PIN_UNPIN_NS = 2 * Calibration.MEMORY_MISS_NS;
  private static final String PIN_SOURCE = "pin + unpin: 2 DRAM misses (lmbench 175 ns)";
  private static final long HEAD_MOVE_NS = Calibration.MEMORY_MISS_NS;
  private static final String HEAD_MOVE_SOURCE = "list_del + list_add of the list head: 1 DRAM miss";

  /** The hunks on catalog sites, in the order of the patch's files. */
  public static final List<PatchedSite> TABLE =
      List.of(
          chunked(Memory.ZAP_PTE_RANGE, List.of(PAGE_TABLE_LOCK), 256, Memory.FLUSH_TLB_RANGE_NS,
              "mm/memory.c zap_page_range: MAX_ZAP_BYTES chunks of 256 pages; each chunk unlocks"
                  + " and flushes the TLB, then conditional_schedule()",
              "each chunk ends with flush_tlb_range and re-walks pgd/pmd: 2 us (assumption)"),
          cs(Memory.EXIT_MMAP_VMAS,
              "mm/mmap.c exit_mmap: zap_page_range(..., ZPR_COND_RESCHED) per vma, whose"
                  + " conditional_schedule() follows its last chunk too, the partial one: a"
                  + " reschedule point between two vmas (the one after the last vma, just"
                  + " before flush_tlb_mm, is not modelled)"),
          cs(Filemap.READ_PAGE, "mm/filemap.c do_generic_file_read: conditional_schedule per page"),
          cs(Filemap.WRITE_PAGE, "mm/filemap.c generic_file_write: conditional_schedule per page"),
          lb(Filemap.TRUNCATE_SKIP, List.of(PAGECACHE_LOCK), HEAD_MOVE_NS,
              "mm/filemap.c truncate_list_pages: break pagecache_lock, restart on this page (the"
                  + " budget of 4 breaks without progress is not modelled)",
              HEAD_MOVE_SOURCE),
          lb(Filemap.INVALIDATE, List.of(PAGEMAP_LRU_LOCK, PAGECACHE_LOCK), PIN_UNPIN_NS,
              "mm/filemap.c invalidate_inode_pages: break both locks (the restart from the head of"
                  + " clean_pages and the cap of 100 breaks per call are not modelled)",
              PIN_SOURCE),
          lbCounted(Vmscan.SWAP_OUT_PMD, List.of(PAGE_TABLE_LOCK), 4, PIN_UNPIN_NS,
              "mm/vmscan.c swap_out_pmd: TEST_RESCHED_COUNT(4) per page tried; a hit bails out to"
                  + " swap_out_mm, which drops page_table_lock and schedules",
              "re-find the vma after the break (find_vma): 2 DRAM misses (assumption)"),
          lb(Swapfile.SI_SWAPINFO, List.of(SWAPLOCK), 0,
              "mm/swapfile.c si_swapinfo: break swap_list_lock per slot of an area being swapped off",
              "swap_map is an array indexed by the loop: nothing to re-find"),
          cs(Swapfile.GET_SWAPAREA_INFO,
              "mm/swapfile.c get_swaparea_info (/proc/swaps): conditional_schedule per used slot"),
          cs(Slab.REAP_FREE, "mm/slab.c kmem_cache_reap: conditional_schedule after each"
              + " kmem_slab_destroy, cachep->spinlock dropped; the count of slabs_free before it"
              + " keeps interrupts off with no reschedule point"),
          cs(Buffer.FULL_BATCH,
              "fs/buffer.c write_some_buffers: conditional_schedule after each full NRSYNC batch,"
                  + " lru_list_lock released, for every caller: bdflush's, kupdate's and sync's"
                  + " batches and balance_dirty's own (its other hunk, the refile of skipped"
                  + " locked buffers, is in UNMODELLED_HUNKS)"),
          lb(Buffer.FSYNC_BUFFERS_LIST, List.of(LRU_LIST_LOCK), 0,
              "fs/buffer.c fsync_buffers_list: break on every buffer if need_resched (the extra"
                  + " counted break every 33 is then never the first to look)",
              "each buffer was list_del'ed: nothing is re-walked"),
          lb(Buffer.INVALIDATE_BDEV, List.of(LRU_LIST_LOCK), PIN_UNPIN_NS,
              "fs/buffer.c invalidate_bdev: break with the bh pinned (the restart over all lists"
                  + " after a break and the cap of 10 per call are not modelled)",
              PIN_SOURCE),
          lbCounted(Dcache.PRUNE_DCACHE, List.of(DCACHE_LOCK), 100, 0,
              "fs/dcache.c prune_dcache: TEST_RESCHED_COUNT(100), break dcache_lock, goto redo",
              "the unused list is taken from its tail again: nothing to re-find"),
          lbCounted(Dcache.SELECT_PARENT, List.of(DCACHE_LOCK), 500, PIN_UNPIN_NS,
              "fs/dcache.c select_parent: TEST_RESCHED_COUNT(500) once found > 10 (not modelled:"
                  + " the count is tested on every 501st dentry), return, prune, walk again",
              PIN_SOURCE),
          lb(Inode.PRUNE_ICACHE, List.of(INODE_LOCK), HEAD_MOVE_NS,
              "fs/inode.c prune_icache: break inode_lock, the list head moved to the entry", HEAD_MOVE_SOURCE),
          cs(Inode.DISPOSE_LIST, "fs/inode.c dispose_list: conditional_schedule per inode"),
          lb(Inode.INVALIDATE_LIST, List.of(INODE_LOCK), PIN_UNPIN_NS,
              "fs/inode.c invalidate_list: break inode_lock with the inode pinned (i_count)", PIN_SOURCE),
          csCounted(Ext2.FREE_DATA, 32,
              "fs/ext2/inode.c ext2_free_data: TEST_RESCHED_COUNT(32), conditional_schedule() per"
                  + " 33 block pointers freed, with the BKL ext2_delete_inode or vmtruncate holds,"
                  + " which schedule() drops and retakes (the count restarts with each call, once"
                  + " per pointer block: the catalog's one walk of the file's blocks counts on)"),
          cs(Inode.SYNC_LIST, "fs/inode.c __sync_one: conditional_schedule after each inode's write,"
              + " inode_lock dropped, with the BKL kupdate's sync_old_buffers holds, which schedule()"
              + " drops and retakes"),
          cs(Readdir.DIR_PAGES, "fs/ext2/dir.c ext2_get_page: conditional_schedule() per directory"
              + " page (\"Scanning large directories\"), with the BKL vfs_readdir holds, which"
              + " schedule() drops and retakes"),
          cs(Proc.STATM_PTE_RANGE, "fs/proc/array.c statm_pte_range: conditional_schedule per pte"),
          cs(Exit.CLOSE_FILES, "kernel/exit.c close_files: conditional_schedule per file, with the"
              + " BKL do_exit holds there, which schedule() drops and retakes"),
          cs(Block.SUBMIT_BH, "drivers/block/ll_rw_blk.c submit_bh: conditional_schedule per buffer"),
          cs(Console.PUTCS, "drivers/video/fbcon-cfb16.c fbcon_cfb16_putcs: conditional_schedule per"
              + " character (framebuffer consoles only)"),
          cs(Net.MEMCPY_TOIOVEC, "net/core/iovec.c memcpy_toiovec: ll_copy_to_user, 4 KiB chunks"));

  /**
   * Hunks of the patch that the table does not model, each with the reason, for listings: code
   * the catalog does not model, or a change the model cannot express yet.
   */
  public static final List<String> UNMODELLED_HUNKS =
      List.of(
          "kernel/sched.c reschedule_idle: on SMP, waking a non-SCHED_OTHER task with no idle CPU"
              + " sets need_resched on every other CPU's current task (sysctl-gated): needs a"
              + " scheduler-side hook the goodness scheduler does not offer yet",
          "kernel/sched.c schedule(): repeat the selection if prev->need_resched was set meanwhile:"
              + " in the 2.4.32 copy but absent from 2.4.17 and identical to Hiroshi Inoue's fix for 2.4.20 (LKML, 7 May 2003);"
              + " not part of the 2.4.17 kernels this lab models",
          "fs/buffer.c sync_buffers: dev = NODEV when enable_lowlatency (sysctl-gated)",
          "fs/buffer.c write_some_buffers: __refile_buffer() of a locked buffer the walk skips moves"
              + " a clean one to BUF_LOCKED and leaves a dirty one on BUF_DIRTY; clean locked"
              + " buffers on BUF_DIRTY come from __block_write_full_page (writepage of an mmap-dirtied"
              + " page), which no load runs; the catalog's are dirty again (written while in flight)",
          "fs/buffer.c wait_for_buffers, osync_buffers_list, invalidate_inode_buffers, getblk:"
              + " not in the catalog",
          "fs/inode.c get_new_inode: no lock held where the patch reschedules; not in the catalog",
          "mm/filemap.c filemap_fdatasync/fdatawait, do_buffer_fdatasync, page_cache_read,"
              + " __find_lock_page_helper, filemap_sync_pte_range: not in the catalog",
          "mm/memory.c get_user_pages, zeromap_pte_range: not in the catalog",
          "mm/vmscan.c swap_out_pgd/swap_out_vma bail-outs per pmd/pgd: swap_out_pmd's site stands for them",
          "mm/mremap.c, drivers/char/mem.c read_zero_pagealigned: zap_page_range without the"
              + " chunking flag (no reschedule point)",
          "fs/proc/generic.c proc_file_read: per PROC_BLOCK_SIZE chunk; the catalog's /proc"
              + " reads are statm only",
          "fs/ext2/inode.c ext2_free_branches: conditional_schedule() per pointer of an indirect"
              + " block, every 1,024 blocks freed: ext2_free_data's every 33 looks first",
          "fs/exec.c copy_strings (ll_copy_from_user), fs/jbd/commit.c, fs/ext3,"
              + " fs/reiserfs: not in the catalog",
          "kernel/module.c /proc/ksyms, drivers/char/random.c extract_entropy, drivers/i2c: not in"
              + " the catalog",
          "net/ipv4/tcp_minisocks.c tcp_twkill: at most 100 TIME_WAIT kills per timer run"
              + " (compile-time): not in the catalog");
}
