package dev.kernellab.paths;

import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.fs.Readdir;
import dev.kernellab.paths.mm.Filemap;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.mm.Slab;
import dev.kernellab.paths.net.Net;
import java.util.List;
import java.util.Optional;

/**
 * What the catalog's loops whose count is worked out on entry (a {@code Count} reading the
 * load's state) count, in the load's terms: the part of a loop that the code cannot say about
 * itself, for the latency-source table ({@link LatencySources}). Each line was written from the
 * loop's {@code Count} in this module, which is where to check it.
 *
 * <p>A site missing here is still listed, with the reaching row's account of its tail; adding
 * it here makes the table say what the count reads.
 */
final class SiteCounts {

  private SiteCounts() {}

  private record Line(Site site, String counts) {}

  private static final List<Line> LINES = List.of(
      new Line(Memory.ZAP_PTE_RANGE,
          "pages of the vma being torn down (the task's Mm, else PathParams.processPages)"),
      new Line(Memory.COPY_PTE_RANGE,
          "pages of the parent's vma being copied (the forking task's Mm, else PathParams.processPages)"),
      new Line(Memory.EXIT_MMAP_VMAS, "vmas of the exiting task's Mm"),
      new Line(Memory.DUP_MMAP_VMAS, "vmas of the forking task's Mm"),
      new Line(Filemap.PAGE_CACHE_READ,
          "page-cache misses of the read's pages (the file's pages not cached; read-ahead fills the next)"),
      new Line(Filemap.BALANCE_DIRTY, "1 while the page cache is over the soft dirty limit (throttles the writer)"),
      new Line(Filemap.TRUNCATE,
          "cached pages of the file beyond the new size (the unlinked or truncated file's pages)"),
      new Line(Filemap.TRUNCATE_SKIP, "cached pages of the file below the cut, walked past with the lock held"),
      new Line(Buffer.WRITE_SOME_BUFFERS,
          "locked buffers on the dirty list before 32 unlocked ones: pages written again while their batch's I/O is in flight"),
      new Line(Buffer.BDFLUSH_BATCH, "batches of dirty pages over the nfract limit of the page cache"),
      new Line(Buffer.KUPDATE_BATCH, "batches of dirty pages older than age_buffer (30 s)"),
      new Line(Buffer.SYNC_BUFFERS, "batches of all dirty pages in the page cache"),
      new Line(Dcache.PRUNE_DCACHE,
          "dentries walked: dentry_stat.nr_unused / DEF_PRIORITY freed from the oldest (the load's closed"
              + " files, negative dentries of its unlinks; the boot cache first), DCACHE_REFERENCED ones passed once"),
      new Line(Inode.PRUNE_ICACHE,
          "inodes walked: inodes_stat.nr_unused / DEF_PRIORITY freed, past those with pages in the page"
              + " cache (CAN_UNUSE)"),
      new Line(Inode.DISPOSE_LIST, "inodes prune_icache freed"),
      new Line(Inode.SYNC_LIST, "dirty inodes: the load's creates, writes (mtime) and reads (atime) since the last sync"),
      new Line(Readdir.DIR_PAGES,
          "directory pages from the reader's f_pos to where its buffer fills or the directory ends"),
      new Line(Readdir.DIR_ENTRIES,
          "live entries of the directory on that page (the load's files, with . and ..), up to the reader's buffer"),
      new Line(Slab.REAP_SCAN, "caches visited on the cache chain before a good one is found"),
      new Line(Slab.REAP_COUNT, "free slabs counted in the visited cache"),
      new Line(Slab.REAP_FREE, "half the free slabs of the cache with most free pages"),
      new Line(Net.TCP_EHASH, "buckets of the TCP established hash (sized from the machine's memory at boot)"),
      new Line(Net.GET_TCP_SOCK, "established sockets of the load (2 per connection)"),
      new Line(Net.NET_RX_ACTION, "packets on this CPU's backlog, at most the budget (netdev_max_backlog)"),
      new Line(Net.TCP_WRITE_XMIT, "segments the send window lets out"));

  /** What the count at {@code site} reads, if this table says. */
  static Optional<String> of(Site site) {
    for (Line l : LINES) {
      if (l.site().equals(site)) {
        return Optional.of(l.counts());
      }
    }
    return Optional.empty();
  }
}
