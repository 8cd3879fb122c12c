package dev.kernellab.lockbreak;

import dev.kernellab.hw.Models;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.kernel.Exit;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.mm.Swapfile;
import dev.kernellab.paths.mm.Vmscan;
import java.util.List;

/**
 * The hunks of Robert Love's lock-break patch that fall on sites of the kernel-paths catalog,
 * and those that do not.
 *
 * <p>Source: the patch file itself (lock-break-rml-2.4.17-2, -2.4.18-1) is not available to
 * this project. Its hunks are read in place in two vendor kernels built with it: MontaVista's
 * 2.4.17_mvl21 (github.com/rickgaiser/linux-2.4.17-ps2, commit 69d16910) and Motorola's EZX
 * 2.4.20 on MontaVista CEE 3.0 (github.com/muromec/linux-ezxdev, commits a873c22c, a4d657f9),
 * whose fs/jbd/commit.c matches the context of Joe Korty's fix against lock-break-rml-2.4.18-1
 * (linux-kernel, 22 July 2002). Both carry include/linux/lock_break.h as Love wrote it. Where
 * the model simplifies a hunk, its entry says how. docs/extending.md walks through the table.
 */
@Models(file = "fs/dcache.c", function = "prune_dcache", version = LockBreakPatch.VERSION)
@Models(file = "fs/dcache.c", function = "select_parent", version = LockBreakPatch.VERSION)
@Models(file = "fs/inode.c", function = "invalidate_list", version = LockBreakPatch.VERSION)
@Models(file = "fs/inode.c", function = "prune_icache", version = LockBreakPatch.VERSION)
@Models(file = "fs/buffer.c", function = "invalidate_bdev", version = LockBreakPatch.VERSION)
@Models(file = "fs/buffer.c", function = "fsync_buffers_list", version = LockBreakPatch.VERSION)
@Models(file = "mm/swapfile.c", function = "si_swapinfo", version = LockBreakPatch.VERSION)
@Models(file = "kernel/exit.c", function = "close_files", version = LockBreakPatch.VERSION)
@Models(file = "mm/vmscan.c", function = "swap_out_pgd", version = LockBreakPatch.VERSION)
@Models(file = "mm/memory.c", function = "zap_page_range", version = LockBreakPatch.VERSION)
public final class LockBreakSites {

  private LockBreakSites() {}

  // What a walk costs to pick up after a break: a pinned object unpinned (get/put: two DRAM
  // misses), or nothing when the walk restarts from a list end.
  private static final long PIN_UNPIN_NS = 2 * Calibration.MEMORY_MISS_NS;
  private static final String PIN_SOURCE = "pin + unpin: 2 DRAM misses (lmbench 175 ns)";
  private static final String NOTHING = "the walk restarts at a list end: nothing to re-find";

  /** The hunks on catalog sites, in the order of the patch's files. */
  public static final List<BrokenSite> TABLE =
      List.of(
          new BrokenSite(Dcache.PRUNE_DCACHE, l -> List.of(l.dcacheLock), Macro.BREAK_SPIN_LOCK, true, 101, 0,
              "fs/dcache.c prune_dcache: TEST_LOCK_COUNT(100), then if need_resched"
                  + " break_spin_lock(&dcache_lock) and goto redo", NOTHING),
          new BrokenSite(Dcache.SELECT_PARENT, l -> List.of(l.dcacheLock), Macro.BREAK_SPIN_LOCK, true, 501,
              PIN_UNPIN_NS,
              "fs/dcache.c select_parent: TEST_LOCK_COUNT(500) && found > 10, then if need_resched"
                  + " goto out (unlock, return, prune, walk again); modelled as a break every 501 dentries",
              PIN_SOURCE),
          new BrokenSite(Inode.INVALIDATE_LIST, l -> List.of(l.inodeLock), Macro.BREAK_SPIN_LOCK_AND_RESCHED,
              false, 1, PIN_UNPIN_NS,
              "fs/inode.c invalidate_list: the inode pinned (i_count), break_spin_lock_and_resched(&inode_lock)"
                  + " on every inode (the BKL is held too)", PIN_SOURCE),
          new BrokenSite(Inode.PRUNE_ICACHE, l -> List.of(l.inodeLock), Macro.BREAK_SPIN_LOCK, true, 33, 0,
              "fs/inode.c prune_icache: TEST_LOCK_COUNT(32) of the inodes moved to freeable (modelled:"
                  + " of every inode visited), then if need_resched break_spin_lock(&inode_lock) and"
                  + " goto free_unused", NOTHING),
          new BrokenSite(Buffer.INVALIDATE_BDEV, l -> List.of(l.lruListLock), Macro.BREAK_SPIN_LOCK_AND_RESCHED,
              true, 1, PIN_UNPIN_NS,
              "fs/buffer.c invalidate_bdev: if need_resched, the bh pinned,"
                  + " break_spin_lock_and_resched(&lru_list_lock) (the BKL is held too); the rescan"
                  + " from the first list after a break is not modelled", PIN_SOURCE),
          new BrokenSite(Buffer.FSYNC_BUFFERS_LIST, l -> List.of(l.lruListLock), Macro.BREAK_SPIN_LOCK, false, 33,
              0,
              "fs/buffer.c fsync_buffers_list (fsync_inode_buffers in 2.4.17): TEST_LOCK_COUNT(32),"
                  + " break_spin_lock(&lru_list_lock) with no need_resched test: the unlock is the test",
              "each buffer was list_del'ed: nothing is re-walked"),
          new BrokenSite(Swapfile.SI_SWAPINFO, l -> List.of(l.swapLock), Macro.BREAK_SPIN_LOCK_AND_RESCHED, true,
              1, 0,
              "mm/swapfile.c si_swapinfo: per slot of a used area, if need_resched swap_list_unlock(),"
                  + " unconditional_schedule(), swap_list_lock()",
              "swap_map is an array indexed by the loop: nothing to re-find"),
          new BrokenSite(Exit.CLOSE_FILES, l -> List.of(), Macro.CONDITIONAL_SCHEDULE, true, 1, 0,
              "kernel/exit.c close_files: debug_lock_break(1); conditional_schedule() per fd; the one"
                  + " lock held is the BKL do_exit took, which schedule() drops and retakes",
              "release_kernel_lock/reacquire_kernel_lock in schedule(): no revalidation"),
          new BrokenSite(Vmscan.SWAP_OUT_PMD, l -> List.of(l.pageTableLock), Macro.BREAK_SPIN_LOCK_AND_RESCHED,
              true, 1024, 2 * Calibration.MEMORY_MISS_NS,
              "mm/vmscan.c swap_out_pgd/swap_out_vma: if need_resched, bail out after each pte table"
                  + " (1024 ptes; swap_out_mm unlocks page_table_lock and swap_out schedules); the"
                  + " counted test in swap_out_pmd itself is #if 0 in the patch",
              "re-find the vma after the break (find_vma): 2 DRAM misses (assumption)"),
          new BrokenSite(Memory.ZAP_PTE_RANGE, l -> List.of(l.pageTableLock), Macro.BREAK_SPIN_LOCK, false, 256,
              Memory.FLUSH_TLB_RANGE_NS,
              "mm/memory.c zap_page_range(ZPR_PARTITION): 256-page chunks (ZPR_MAX_BYTES), each"
                  + " taking and dropping page_table_lock and flushing the TLB; in both trees with the"
                  + " patch, its authorship (Love or MontaVista) not confirmed; Love's 2.5"
                  + " low-latency-zap_page_range does the same with ZAP_BLOCK_SIZE",
              "each chunk ends with tlb_finish_mmu and re-walks pgd/pmd: 2 us (assumption)"));

  /** Hunks the table does not model, each with the reason. */
  public static final List<String> UNMODELLED_HUNKS =
      List.of(
          "fs/buffer.c wait_for_buffers, osync_buffers_list, fsync_inode_data_buffers: not in the catalog",
          "fs/jbd/commit.c journal_commit_transaction (two hunks), fs/reiserfs: not in the catalog",
          "mm/filemap.c filemap_fdatasync, filemap_fdatawait, __find_lock_page_helper,"
              + " filemap_sync_pte_range: not in the catalog",
          "mm/memory.c zeromap_pte_range: not in the catalog",
          "mm/vmscan.c kswapd_balance_pgdat: the mainline reschedule point compiled out under"
              + " CONFIG_PREEMPT (kswapd holds no lock there, so preemption covers it): the catalog's"
              + " point is left as it is");
}
