package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;
import java.util.Locale;

/**
 * Models fs/ext2/inode.c {@code ext2_delete_inode()} and {@code ext2_truncate()} with its
 * {@code ext2_free_branches()} and {@code ext2_free_data()}, and fs/ext2/balloc.c
 * {@code ext2_free_blocks()} (2.4.17): what the last {@code iput()} of an unlinked file does
 * after {@code truncate_inode_pages()}, under the big kernel lock, to give the file's blocks back
 * to the block bitmaps.
 *
 * <p>{@link #deleteInode} runs over the blocks of the unlink's file ({@link FileIo#file()}'s
 * size, one 4 KiB block a page), or a draw from {@link PathParams#truncatePages()} without one.
 * The analysis names it with {@link Ext2Truncate}: "ext2_truncate: 256 blocks freed, BKL held".
 */
@Models(file = "fs/ext2/inode.c", function = "ext2_delete_inode", version = "2.4.17")
@Models(file = "fs/ext2/inode.c", function = "ext2_truncate", version = "2.4.17")
@Models(file = "fs/ext2/inode.c", function = "ext2_free_branches", version = "2.4.17")
@Models(file = "fs/ext2/inode.c", function = "ext2_free_data", version = "2.4.17")
@Models(file = "fs/ext2/balloc.c", function = "ext2_free_blocks", version = "2.4.17")
public final class Ext2 {

  /*
   * Implementation overview
   *
   * iput() of an inode whose last link is gone truncates its page cache (no BKL: the catalog's
   * truncate_inode_pages) and calls the super block's delete_inode, ext2_delete_inode, which
   * takes lock_kernel() itself and keeps it over ext2_update_inode, ext2_truncate and
   * ext2_free_inode [1]. sys_unlink reaches that iput through d_delete/dput after vfs_unlink
   * (whose own lock_kernel() is only around ext2_unlink, the directory entry, part of
   * Filemap.UNLINK_FIXED_NS).
   *
   * ext2_truncate frees what the inode maps: the 12 direct blocks with ext2_free_data, then the
   * indirect block (1,024 pointers with 4 KiB blocks) with ext2_free_branches, which breads it,
   * frees what it maps, bforgets it and frees the indirect block itself; then the double
   * indirect tree the same way, one level deeper [1]. ext2_free_data coalesces contiguous
   * pointers into one ext2_free_blocks() call a run, and ext2_free_blocks clears one bitmap bit
   * and bumps two free counts a block, under lock_super [2]. A file of the model is one extent
   * (VfsFile: fresh ext2 files), so each pointer block's data is one run.
   *
   * The walk is one loop over the file's blocks, FREE_DATA; the fixed work of a pointer block
   * (the direct area's run, an indirect block's bread, bforget, ext2_free_blocks of itself and
   * of its run; the double indirect block once) is charged on the first block it maps, so the
   * lock is held exactly as long and the loop's count is the file's blocks, which the analysis
   * prints. Without CONFIG_PREEMPT on UP lock_kernel() is nothing, but the walk has no
   * reschedule point either: the same stretch, not preemptible either way.
   *
   * Two paths of 2.4.17 reach ext2_truncate, and the model has each once: the last iput() of
   * an unlinked file through ext2_delete_inode (deleteInode, its own lock_kernel), and a
   * truncate to a size (truncate(2), an open with O_TRUNC, do_coredump's do_truncate of an old
   * core) through fs/attr.c notify_change, which takes lock_kernel(), and mm/memory.c
   * vmtruncate, which takes it again around inode->i_op->truncate (Filemap.doTruncate calls
   * `truncate`) [3]. An unlink never goes through vmtruncate, so no block is freed twice.
   *
   * Left out, said out loud: the indirect blocks are in the buffer cache (a file created, written
   * and unlinked within seconds, as fs-churn's and dbench's are), so bread() never sleeps and
   * never drops the BKL; the triple indirect tree (files above 4 GiB) is not modelled.
   *
   * [1] 2.4.17 fs/ext2/inode.c ext2_delete_inode(), ext2_truncate(), ext2_free_branches(),
   *     ext2_free_data(); fs/inode.c iput(); fs/namei.c vfs_unlink().
   * [2] 2.4.17 fs/ext2/balloc.c ext2_free_blocks(); include/linux/quotaops.h
   *     DQUOT_FREE_BLOCK(), which takes lock_kernel() again (nested) for each block.
   * [3] 2.4.17 fs/open.c do_truncate(), fs/attr.c notify_change() and inode_setattr(),
   *     mm/memory.c vmtruncate(), fs/namei.c open_namei() (O_TRUNC), fs/exec.c do_coredump().
   */

  /** ext2_free_data's walk of the file's blocks, BKL held. */
  public static final Site FREE_DATA = new Site("fs/ext2/inode.c", "ext2_free_data", "ext2_free_data");

  /** EXT2_NDIR_BLOCKS: the inode's direct block pointers (include/linux/ext2_fs.h). */
  public static final long NDIR_BLOCKS = 12;
  /** EXT2_ADDR_PER_BLOCK with 4 KiB blocks: 1,024 pointers an indirect block. */
  public static final long ADDR_PER_BLOCK = 1_024;

  /**
   * One data block freed: its pointer read and zeroed (a 32-byte line holds 8 pointers: one DRAM
   * miss of 175 ns, lmbench, shared by 8), ext2_clear_bit, the group's and the super block's free
   * counts, DQUOT_FREE_BLOCK's nested lock_kernel, i_blocks and mark_inode_dirty's early return
   * on a dirty inode: about 60 instructions, 75 ns at 790 MHz (assumption); 100 ns in all.
   */
  public static final long FREE_BLOCK_NS = 100;
  /**
   * One ext2_free_blocks() call for a run: lock_super, load_block_bitmap's hit in the super
   * block's bitmap cache, ext2_get_group_desc, three mark_buffer_dirty: assumption, 6 DRAM misses.
   */
  public static final long FREE_RUN_NS = 6 * MEMORY_MISS_NS;
  /**
   * One indirect block given back: bread of the cached buffer (getblk's hash lookup), bforget
   * (lru_list_lock, off its lists), and ext2_free_blocks of the block itself: assumption, 4 DRAM
   * misses plus a run's call.
   */
  public static final long FREE_BRANCH_NS = 4 * MEMORY_MISS_NS + FREE_RUN_NS;
  /**
   * ext2_delete_inode's fixed part: ext2_update_inode (bread of the cached inode-table block, the
   * 128-byte inode copied in), ext2_discard_prealloc, block_truncate_page of an empty tail, and
   * ext2_free_inode (inode bitmap, group descriptor, super block, clear_inode): assumption, 12
   * DRAM misses.
   */
  public static final long DELETE_INODE_NS = 12 * MEMORY_MISS_NS;

  /** The last iput() of an unlinked ext2 file: ext2_delete_inode, BKL held ({@link FileIo}: the file). */
  public final KernelPath deleteInode;
  /**
   * {@code inode->i_op->truncate} as mm/memory.c vmtruncate() calls it, inside its own
   * lock_kernel(): ext2_truncate of the blocks past the new size ({@link FileIo}: the file and,
   * in {@link FileIo#offset()}, the new size in bytes).
   */
  public final KernelPath truncate;

  private final PathParams params;
  // The blocks ext2_truncate is freeing. Only ext2_delete_inode and vmtruncate's ext2_truncate
  // write it, and the walk reads it once, when it starts; each holds the BKL without sleeping
  // from the write to that read (the low-latency patch's reschedule points are inside the walk),
  // so one field serves every task and CPU, as the BKL serializes the C.
  private long deleting;

  /** Builds the path for one kernel. */
  public Ext2(Locks l, PathParams params) {
    this.params = params;
    KernelPath freeData =
        KernelPath.path("fs/ext2/inode.c", "ext2_free_data")
            .loop(FREE_DATA, c -> deleting, b -> b
                .compute("the block, and its pointer block's fixed work on its first", Ext2::blockNs))
            .build();
    KernelPath freeAll = KernelPath.path("fs/ext2/inode.c", "ext2_truncate").call(freeData).build();
    truncate =
        KernelPath.path("fs/ext2/inode.c", "ext2_truncate")
            .cause(new Ext2Truncate())
            .effect("the blocks past the new i_size", c -> deleting = blocksPast(c))
            .call(freeData)
            .build();
    deleteInode =
        KernelPath.path("fs/ext2/inode.c", "ext2_delete_inode")
            .cause(new Ext2Truncate())
            .lockKernel(l.kernelFlag)
            .effect("inode->i_blocks: the file's blocks", c -> deleting = blocksOf(c))
            .compute(DELETE_INODE_NS)
            .call(freeAll)
            .unlockKernel(l.kernelFlag)
            .build();
  }

  private long blocksOf(KernelCpu c) {
    FileIo io = c.syscallArgs(FileIo.class);
    return io == null ? c.sample(params.truncatePages()) : io.file().sizePages();
  }

  /**
   * Blocks a truncate to {@link FileIo#offset()} bytes frees: the file's blocks from the first
   * one wholly past the new size. The walk is charged as if it started at block 0 (the direct
   * area's run first), exact for the truncates to 0 that the loads make (a core file dumped
   * again, an O_TRUNC open) and close for others.
   */
  private long blocksPast(KernelCpu c) {
    FileIo io = c.syscallArgs(FileIo.class);
    if (io == null) {
      return c.sample(params.truncatePages());
    }
    long keep = (io.offset() + PageCache.PAGE_SIZE - 1) / PageCache.PAGE_SIZE;
    return Math.max(0, io.file().sizePages() - keep);
  }

  /** The cost of freeing block {@code c.loopIndex()}, with what is due on it. */
  private static long blockNs(KernelCpu c) {
    return FREE_BLOCK_NS + fixedNsAt(c.loopIndex());
  }

  /**
   * The pointer blocks' fixed work charged on block {@code i}: the direct area's run on block
   * 0, an indirect block's on the first block it maps, the double indirect block's own on the
   * first block of its tree.
   */
  static long fixedNsAt(long i) {
    if (i == 0) {
      return FREE_RUN_NS;
    }
    if (i < NDIR_BLOCKS || (i - NDIR_BLOCKS) % ADDR_PER_BLOCK != 0) {
      return 0;
    }
    return FREE_BRANCH_NS + FREE_RUN_NS + (i == NDIR_BLOCKS + ADDR_PER_BLOCK ? FREE_BRANCH_NS : 0);
  }

  /** ext2_delete_inode of a file of {@code blocks} blocks, BKL held throughout. */
  public static long holdNs(long blocks) {
    long ns = DELETE_INODE_NS;
    for (long i = 0; i < blocks; i++) {
      ns += FREE_BLOCK_NS + fixedNsAt(i);
    }
    return ns;
  }

  /** What the analysis names while ext2_delete_inode runs: the blocks freed, BKL held. */
  public record Ext2Truncate() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      long blocks = h.iterationsAt(FREE_DATA);
      String what = blocks > 0
          ? String.format(Locale.ROOT, "ext2_truncate: %,d blocks freed, BKL held", blocks)
          : "ext2_delete_inode: the inode and its blocks freed, BKL held";
      return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
    }
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    return List.of(
        new CatalogEntry(
            "ext2_delete_inode", deleteInode, List.of("kernel_flag"),
            holdNs(Quantiles.typical(params.truncatePages())),
            holdNs(Quantiles.tail(params.truncatePages())),
            "the unlinked file's blocks freed under the BKL: its size, indirect by indirect",
            "0.1 us/block, 1 us/run, 1.7 us/indirect block, 2.1 us fixed (DRAM misses, assumption)"));
  }
}
