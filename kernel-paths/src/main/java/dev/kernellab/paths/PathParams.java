package dev.kernellab.paths;

import dev.kernellab.kernel.Distribution;

/**
 * What the load does to the catalog's paths: how big the processes are that exit and fork,
 * how much a read or a write moves, how many dentries a prune finds. The per-operation costs
 * are hardware facts and live in {@link Calibration} and the sub-catalogs; these are the
 * counts, which depend on the machine's workload and so are inputs.
 *
 * <p>Every default is an assumption said out loud (the 2002 reports do not publish the sizes
 * of their loads) and is chosen with a heavy right tail, because rare large cases decide the
 * worst case of long runs: the tail of each is its 99.9th percentile ({@link Quantiles}).
 *
 * @param processPages resident pages of a process that exits or forks
 * @param munmapPages pages one {@code munmap()} unmaps
 * @param readPages pages one {@code read()} of a regular file covers
 * @param writePages pages one {@code write()} to a regular file covers
 * @param pageCacheMissRate chance that a page read is not cached and goes to the disk
 * @param dirtyBalanceRate chance per page written that {@code balance_dirty()} makes the
 *     writer flush buffers itself
 * @param truncatePages cached pages of a file that is truncated or unlinked
 * @param truncateSkipPages cached pages below the cut that truncate_list_pages walks past
 * @param pruneDentries dentries of the subtree a umount's shrink_dcache_parent walks and frees
 *     (memory pressure's prune_dcache is sized by the load's dcache, fs/VfsCache)
 * @param pruneInodes inodes a umount's invalidate_inodes frees (memory pressure's prune_icache
 *     is sized by the load's icache, fs/VfsCache)
 * @param swapOutPtes ptes one swap_out call must walk to find the SWAP_CLUSTER_MAX pages it
 *     wants; each mm's walk (page_table_lock held) is that or the rest of the mm, whichever is
 *     less (with no workload's mm: the ptes walked in each of 1-3 unnamed mms)
 * @param shrinkCacheScan pages shrink_cache looks at in one call
 * @param deviceBuffers buffers of a device that umount's invalidate_bdev walks
 * @param openFiles files open at exit
 * @param kswapdWakeRate chance per page allocated that the free pages fall below
 *     {@code pages_low} and kswapd is woken
 * @param framebufferConsole true for an unaccelerated fbcon console, false for VGA text
 */
public record PathParams(
    Distribution processPages,
    Distribution munmapPages,
    Distribution readPages,
    Distribution writePages,
    double pageCacheMissRate,
    double dirtyBalanceRate,
    Distribution truncatePages,
    Distribution truncateSkipPages,
    Distribution pruneDentries,
    Distribution pruneInodes,
    Distribution swapOutPtes,
    Distribution shrinkCacheScan,
    Distribution deviceBuffers,
    Distribution openFiles,
    double kswapdWakeRate,
    boolean framebufferConsole) {

  /** Validates the rates. */
  public PathParams {
    probability("pageCacheMissRate", pageCacheMissRate);
    probability("dirtyBalanceRate", dirtyBalanceRate);
    probability("kswapdWakeRate", kswapdWakeRate);
  }

  private static void probability(String name, double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(name + " must be in 0..1, got " + p);
    }
  }

  /**
   * A 2002 desktop under a compile-and-copy load. Assumptions, each with its reason:
   * processes of median 600 pages (2.4 MB: a shell, a cc1) with one in a thousand at ~24,000
   * pages (~100 MB: the X server, a big link); munmaps of median 64 KB; reads and writes of
   * median 8 KB (stdio buffers) with a tail of ~180 KB (cp's larger buffers); 10% of page reads
   * miss the cache (a copy of a large file misses on every page; a compile rarely); a writer
   * flushes buffers itself once in 64 pages once past bdflush's threshold; files unlinked with
   * median 8 cached pages and a tail of ~3,800 (a 15 MB object or archive); a umount's
   * subtree of ~3,000 dentries (memory pressure's prunes follow the load's dcache and icache,
   * fs/VfsCache); a device of ~80 MB of cached buffers at umount.
   */
  public static PathParams defaults() {
    return new PathParams(
        // processPages: median 600 pages (2.4 MB, a shell or small tool), sigma 1.2 puts the
        // 99.9th percentile near 25,000 pages (~100 MB: X, a big link). Assumption.
        Distribution.logNormal(600, 1.2),
        // munmapPages: median 16 pages (64 KB, malloc'd arenas), long tail. Assumption.
        Distribution.logNormal(16, 1.5),
        // readPages / writePages: median 2 pages (8 KB stdio buffers), tail ~45 pages
        // (~180 KB, cp's larger buffers). Assumption.
        Distribution.logNormal(2, 1.0),
        Distribution.logNormal(2, 1.0),
        // pageCacheMissRate: 10% of page reads go to the disk (a compile rarely misses, a copy
        // of a large file always). Assumption.
        0.1,
        // dirtyBalanceRate: a writer runs balance_dirty() itself once in 64 pages once past
        // bdflush's nfract threshold (fs/buffer.c). Assumption.
        1.0 / 64,
        // truncatePages: median 8 cached pages per unlinked file, tail ~3,800 (a 15 MB object
        // or archive). Assumption.
        Distribution.logNormal(8, 2.0),
        // truncateSkipPages: pages below the cut walked past; usually none (unlink truncates to
        // 0), sometimes a partial truncate of a large cached file. Assumption.
        Distribution.empirical(new long[] {0, 256, 4_096}, new double[] {0.98, 0.019, 0.001}),
        // pruneDentries: a umount's subtree, median ~3,000 dentries (a third of the ~10,000
        // names a desktop's /home or /usr/src mount has cached). Assumption.
        Distribution.logNormal(3_000, 0.8),
        // pruneInodes: the inodes of that umount, a third of its dentries (the rest negative).
        // Assumption.
        Distribution.logNormal(1_000, 0.8),
        // swapOutPtes: ptes a swap_out call walks to free SWAP_CLUSTER_MAX (32) pages, at a
        // few percent of mapped pages not young, not active and unlocked. Assumption.
        Distribution.logNormal(256, 1.5),
        // shrinkCacheScan: pages looked at per shrink_cache call, max_scan = nr_inactive /
        // priority with ~3,000 inactive pages at priority 6. Assumption for the list length.
        Distribution.logNormal(512, 1.0),
        // deviceBuffers: ~80 MB of cached 4 KB buffers of a device at umount. Assumption.
        Distribution.logNormal(20_000, 0.8),
        // openFiles: median 8 files open at exit (stdio, a few data files). Assumption.
        Distribution.logNormal(8, 1.0),
        // kswapdWakeRate: one page allocation in 256 finds free pages below pages_low and
        // wakes kswapd under a file-heavy load. Assumption.
        1.0 / 256,
        // framebufferConsole: VGA text console by default, as most 2002 desktops booted.
        false);
  }

  /** The same load on an unaccelerated framebuffer console. */
  public PathParams withFramebufferConsole() {
    return new PathParams(
        processPages, munmapPages, readPages, writePages, pageCacheMissRate, dirtyBalanceRate,
        truncatePages, truncateSkipPages, pruneDentries, pruneInodes,
        swapOutPtes, shrinkCacheScan, deviceBuffers, openFiles, kswapdWakeRate, true);
  }
}
