package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.paths.CatalogEntry;
import java.util.List;

/**
 * Models fs/super.c {@code do_umount()} (2.4.17) as far as latency goes: it sheds every cached
 * object of the filesystem, each walk with its own lock, one after the other.
 *
 * <p>Morton's list of remaining latency sources (docs/lowlatency-sites.md, Remaining latency
 * sources; "2.5.54-mm3", LKML 4 Jan 2003) names umount and automounters:
 * a rare path whose walks are long because the caches are big.
 */
@Models(file = "fs/super.c", function = "do_umount", version = "2.4.17")
public final class Super {

  /** do_umount. */
  public final KernelPath umount;

  private final CatalogEntry entry;

  /** Builds the path from the walks it calls. */
  public Super(Dcache dcache, Inode inode, Buffer buffer, KernelPath invalidateInodePages) {
    umount =
        KernelPath.path("fs/super.c", "do_umount")
            .call(dcache.shrinkDcacheParent)
            .call(buffer.sysSync)
            .call(inode.invalidateInodes)
            .call(buffer.invalidateBdev)
            .call(invalidateInodePages)
            .build();
    long typical = 0;
    long tail = 0;
    for (CatalogEntry e : parts(dcache, inode, buffer)) {
      typical += e.typicalNs();
      tail = Math.max(tail, e.tailNs());
    }
    entry =
        new CatalogEntry(
            "sys_umount", umount,
            List.of("dcache_lock", "lru_list_lock", "inode_lock", "pagemap_lru_lock", "pagecache_lock"),
            typical, Math.max(typical, tail),
            "its longest single lock hold is the longest of its walks (tail column)",
            "sum of shrink_dcache_parent, invalidate_inodes, invalidate_bdev (this table)");
  }

  private static List<CatalogEntry> parts(Dcache dcache, Inode inode, Buffer buffer) {
    return List.of(dcache.entries().get(1), inode.entries().get(1), buffer.entries().get(5));
  }

  /** The row of this file. */
  public List<CatalogEntry> entries() {
    return List.of(entry);
  }
}
