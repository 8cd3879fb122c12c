package dev.kernellab.lowlat;

import static dev.kernellab.lowlat.PatchedSite.cs;
import static dev.kernellab.lowlat.PatchedSite.lb;

import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.drivers.Block;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.fs.Proc;
import dev.kernellab.paths.kernel.Exit;
import dev.kernellab.paths.mm.Filemap;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.mm.Swapfile;
import dev.kernellab.paths.mm.Vmscan;
import dev.kernellab.paths.net.Net;
import java.util.List;

/**
 * The table of sites Andrew Morton's 2.4 low-latency patch changes, one entry per hunk that
 * falls on a site of the kernel-paths catalog, and the hunks whose code the catalog does not
 * model.
 *
 * <p>Models the hunks of the low-latency patch as listed in reference preempt-lowlat-hw.md
 * section 2.3 (2.4.32 copy; the 2.4.17 version touched the same areas).
 */
public final class LowLatencySites {

  private LowLatencySites() {}

  // Revalidation costs. The patch's restart paths re-find their place in a list: a pin and an
  // unpin (page_cache_get/release, get_bh/put_bh: two DRAM misses) or a walk back from the
  // head that finds the pinned object at once.
  private static final long PIN_UNPIN_NS = 2 * Calibration.MEMORY_MISS_NS;
  private static final String PIN_SOURCE = "pin + unpin: 2 DRAM misses (lmbench 175 ns)";

  /** The hunks on catalog sites, in the order of the patch's files. */
  public static final List<PatchedSite> TABLE =
      List.of(
          lb(Memory.ZAP_PTE_RANGE, List.of("page_table_lock"), 256, Memory.FLUSH_TLB_RANGE_NS,
              "mm/memory.c zap_page_range: chunks of MAX_ZAP_BYTES = 256 pages, reschedule between",
              "each chunk ends with flush_tlb_range and re-walks pgd/pmd: 2 us (assumption)"),
          cs(Filemap.READ_PAGE, "mm/filemap.c do_generic_file_read: conditional_schedule per page"),
          cs(Filemap.WRITE_PAGE, "mm/filemap.c generic_file_write: conditional_schedule per page"),
          lb(Filemap.TRUNCATE_SKIP, List.of("pagecache_lock"), 1, PIN_UNPIN_NS,
              "mm/filemap.c truncate_list_pages: break pagecache_lock in the walk, restart flag",
              PIN_SOURCE),
          lb(Filemap.INVALIDATE, List.of("pagemap_lru_lock", "pagecache_lock"), 1, PIN_UNPIN_NS,
              "mm/filemap.c invalidate_inode_pages: break pagecache_lock and pagemap_lru_lock",
              PIN_SOURCE),
          lb(Vmscan.SWAP_OUT_PMD, List.of("page_table_lock"), 4, PIN_UNPIN_NS,
              "mm/vmscan.c swap_out_pmd: counted test every 4 ptes, break page_table_lock",
              "re-find the vma after the break: 2 DRAM misses (assumption)"),
          lb(Swapfile.SI_SWAPINFO, List.of("swaplock"), 1, 0,
              "mm/swapfile.c si_swapinfo: break swap_list_lock in the swap_map walk",
              "swap_map is an array indexed by the loop: nothing to re-find"),
          lb(Buffer.WRITE_SOME_BUFFERS, List.of("lru_list_lock"), 1, PIN_UNPIN_NS,
              "fs/buffer.c write_some_buffers: break lru_list_lock in the dirty-list walk",
              PIN_SOURCE),
          cs(Buffer.SYNC_BUFFERS, "fs/buffer.c sync_buffers: conditional_schedule between batches"),
          lb(Buffer.FSYNC_BUFFERS_LIST, List.of("lru_list_lock"), 32, PIN_UNPIN_NS,
              "fs/buffer.c fsync_buffers_list: counted break (every 32 buffers), restart",
              PIN_SOURCE),
          lb(Buffer.INVALIDATE_BDEV, List.of("lru_list_lock"), 1, PIN_UNPIN_NS,
              "fs/buffer.c invalidate_bdev: break with the bh pinned (the patch stops breaking"
                  + " after 10 retries; not modelled)",
              PIN_SOURCE),
          lb(Dcache.PRUNE_DCACHE, List.of("dcache_lock"), 100, 0,
              "fs/dcache.c prune_dcache: counted break of dcache_lock every 100 dentries",
              "the unused list is taken from its tail again: nothing to re-find"),
          lb(Dcache.SELECT_PARENT, List.of("dcache_lock"), 500, PIN_UNPIN_NS,
              "fs/dcache.c select_parent: after 500 dentries with found > 10, break out, prune,"
                  + " restart the walk",
              PIN_SOURCE),
          lb(Inode.PRUNE_ICACHE, List.of("inode_lock"), 1, PIN_UNPIN_NS,
              "fs/inode.c prune_icache: break inode_lock in the inode_unused walk", PIN_SOURCE),
          cs(Inode.DISPOSE_LIST, "fs/inode.c dispose_list: conditional_schedule per inode"),
          lb(Inode.INVALIDATE_LIST, List.of("inode_lock"), 1, PIN_UNPIN_NS,
              "fs/inode.c invalidate_list: break inode_lock", PIN_SOURCE),
          cs(Proc.STATM_PTE_RANGE, "fs/proc/array.c statm_pte_range: conditional_schedule per pte"),
          lb(Exit.CLOSE_FILES, List.of("kernel_flag"), 1, 0,
              "kernel/exit.c close_files: conditional_schedule per file; do_exit holds the BKL"
                  + " there, which schedule() drops and retakes",
              "release_kernel_lock/reacquire_kernel_lock in schedule(): no revalidation"),
          cs(Block.SUBMIT_BH, "drivers/block/ll_rw_blk.c submit_bh: conditional_schedule per buffer"),
          cs(Console.PUTCS, "drivers/video/fbcon-cfb16.c putcs: conditional_schedule per call"),
          cs(Net.MEMCPY_TOIOVEC, "net/core/iovec.c memcpy_toiovec: ll_copy_to_user, 4 KiB chunks"));

  /** Hunks of the patch on code the catalog does not model (reference 2.3), for listings. */
  public static final List<String> UNMODELLED_HUNKS =
      List.of(
          "mm/memory.c get_user_pages, zeromap_pte_range",
          "mm/filemap.c filemap_fdatasync/fdatawait, page_cache_read, filemap_sync_pte_range",
          "mm/slab.c kmem_cache_reap",
          "fs/buffer.c getblk",
          "fs/ext2, fs/ext3, fs/jbd, fs/reiserfs",
          "fs/exec.c copy_strings",
          "kernel/module.c /proc/ksyms",
          "drivers/char/random.c extract_entropy",
          "drivers/i2c",
          "net/ipv4/tcp_minisocks.c tcp_twkill (bounds a timer softirq)");
}
