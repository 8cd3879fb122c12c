package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import java.util.List;
import java.util.Locale;

/**
 * Models mm/slab.c {@code kmem_cache_reap()} (2.4.17): the scan of the slab caches for free
 * slabs that {@code shrink_caches()} runs first on every call, and the caches the load fills
 * and empties: dentries (prune_dcache), inodes (dispose_list), buffer heads (the pages
 * shrink_cache frees), and the network's skbuffs and their data.
 *
 * <pre>{@code
 * Slab slab = catalog.slab();
 * slab.free(Slab.DENTRY_CACHE, 1);            // d_free: kmem_cache_free(dentry_cache)
 * slab.free(Slab.SIZE_32768, 1);              // kfree_skb of a 16 KiB loopback segment's data
 * .call(slab.kmemCacheReap)                   // shrink_caches: nr_pages -= kmem_cache_reap()
 * }</pre>
 */
@Models(file = "mm/slab.c", function = "kmem_cache_reap", version = "2.4.17")
public final class Slab {

  /*
   * Implementation overview
   *
   * kmem_cache_reap walks the cache chain from a clock hand (clock_searchp), at most
   * REAP_SCANLEN = 10 caches a call. For each it takes the cache's spinlock with spin_lock_irq
   * and counts its slabs_free list to the end: no cap on the count, interrupts off throughout.
   * A cache that grew since the last reap (DFLGS_GROWN) is skipped once. The first cache worth
   * REAP_PERFECT = 10 pages (less a fifth for a constructor, a fifth for gfporder > 0) ends the
   * scan; otherwise the best one is reaped. Reaping frees half of its free slabs, each unlinked
   * under the lock and destroyed with it dropped (kmem_slab_destroy), where Morton's low-latency
   * patch adds conditional_schedule() (the 2.4.32 copy, iPodLinux/linux-2.4.32-ipod 5264fa3d):
   * it reschedules between freed slabs, never inside the count.
   *
   * A cache here is counts, not lists:
   *
   *   slabs       slabs the cache owns (grows when live objects outgrow them)
   *   live        objects in use
   *   free slabs  slabs - ceil(live / objsPerSlab)
   *
   * which takes the objects as freed in the order they were allocated (LRU pruning frees old
   * dentries and inodes together, a freed skb's data is a one-object slab), so every
   * objsPerSlab objects freed empty one slab: an assumption. The load's allocations of buffer
   * heads are not counted (2.4 allocates from slabs_partial before slabs_free, so they mostly
   * refill partial slabs): an assumption that makes their free slabs grow until reaped.
   * Dentries and inodes are counted both ways, as the dcache and icache (fs/VfsCache) make and
   * free them, and so are the skbuffs, packet by packet. One spinlock stands for every cache's
   * cachep->spinlock (no path holds two), and one set of scratch fields for the scan in progress
   * (cache_chain_sem serialises callers; the model's only caller is kswapd).
   *
   * Costs: a cache visited reads its descriptor and its slabs_free head, two lines: 2 DRAM misses;
   * a free slab counted follows p->next into another page: 1 DRAM miss (lmbench 175 ns on a PIII,
   * docs/hardware-and-costs.md); a slab destroyed: kmem_freepages and the buddy allocator's
   * merge, assumption 1 us a block. Not modelled: the SMP per-CPU array flush (__free_block of
   * cc->avail objects, also with interrupts off) and cache_chain_sem.
   */

  /** kmem_cache_reap's scan of the cache chain, at most REAP_SCANLEN caches. */
  public static final Site REAP_SCAN = new Site("mm/slab.c", "kmem_cache_reap", "scan");
  /** The count of one cache's slabs_free list, spin_lock_irq held: no cap. */
  public static final Site REAP_COUNT = new Site("mm/slab.c", "kmem_cache_reap", "slabs_free");
  /** The freeing of half the best cache's free slabs, lock dropped around each destroy. */
  public static final Site REAP_FREE = new Site("mm/slab.c", "kmem_cache_reap", "kmem_slab_destroy");

  /** {@code REAP_SCANLEN} of mm/slab.c, 2.4.17. */
  public static final int REAP_SCANLEN = 10;
  /** {@code REAP_PERFECT} of mm/slab.c, 2.4.17, in pages. */
  public static final int REAP_PERFECT = 10;
  /**
   * Caches on the chain: a 2.4 desktop's /proc/slabinfo lists about fifty (cache_cache, the 26
   * general size-N caches and their DMA twins, and the named ones); assumption, 48.
   */
  public static final int CHAIN_LENGTH = 48;

  /** Visiting one cache: descriptor and slabs_free head, 2 DRAM misses (lmbench). */
  public static final long CACHE_VISIT_NS = 2 * MEMORY_MISS_NS;
  /** Counting one free slab: p = p->next into another page, 1 DRAM miss (lmbench). */
  public static final long SLAB_COUNT_NS = MEMORY_MISS_NS;
  /** Unlinking one slab to free it: list_del, 1 DRAM miss (lmbench). */
  public static final long SLAB_UNLINK_NS = MEMORY_MISS_NS;
  /** kmem_slab_destroy of one block: free_pages and the buddy merge, assumption 1 us. */
  public static final long SLAB_DESTROY_NS = 1_000;

  // The caches the model fills, by their place on the chain: kmem_cache_sizes_init creates
  // size-32 .. size-131072, each followed by its DMA twin, right after cache_cache; the named
  // caches follow in the order their subsystems initialise (sock_init, vfs_caches_init,
  // buffer_init). Places of the named ones: assumption.
  /** size-512: the data of small packets (an ACK's MAX_TCP_HEADER, an RPC call's header). */
  public static final int SIZE_512 = 9;
  /** size-16384, order 2: the data of an 8 KiB NFS datagram. */
  public static final int SIZE_16384 = 19;
  /** size-32768, order 3: the data of a 16 KiB loopback TCP segment. */
  public static final int SIZE_32768 = 21;
  /** skbuff_head_cache: struct sk_buff, ~160 bytes, with a constructor. */
  public static final int SKBUFF_HEAD_CACHE = 27;
  /** dentry_cache: struct dentry, ~112 bytes. */
  public static final int DENTRY_CACHE = 30;
  /** inode_cache: struct inode with its fs union, ~480 bytes, with a constructor. */
  public static final int INODE_CACHE = 34;
  /** buffer_head: ~96 bytes, with a constructor. */
  public static final int BUFFER_HEAD = 36;

  /**
   * Objects in use when the load starts: the caches of a desktop after a kernel build.
   * Dentries ~30,000 (fs/VfsCache: 27,000 of them unused), inodes a third of them, buffer heads
   * for ~80 MB of 4 KiB buffers (PathParams' device at umount). Assumptions.
   */
  public static final long DENTRIES_AT_START = 30_000;
  /** See {@link #DENTRIES_AT_START}. */
  public static final long INODES_AT_START = 10_000;
  static final long BUFFER_HEADS_AT_START = 20_000;

  /** What the analysis names for a long reap: the free slabs counted with interrupts off. */
  public record KmemCacheReap() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      Site s = h.path().site();
      long n = h.iterations();
      String what;
      if (REAP_FREE.equals(s)) {
        what = String.format(Locale.ROOT, "kmem_cache_reap: %,d slabs freed", n);
      } else if (REAP_SCAN.equals(s)) {
        what = String.format(Locale.ROOT, "kmem_cache_reap: %,d caches scanned", n);
      } else {
        what = n > 0
            ? String.format(Locale.ROOT, "kmem_cache_reap: %,d free slabs counted, interrupts off", n)
            : "kmem_cache_reap: the scan of the slab caches";
      }
      return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
    }
  }

  private final String[] name = new String[CHAIN_LENGTH];
  private final long[] objsPerSlab = new long[CHAIN_LENGTH];
  private final int[] gfporder = new int[CHAIN_LENGTH];
  private final boolean[] ctor = new boolean[CHAIN_LENGTH];
  private final long[] slabs = new long[CHAIN_LENGTH];
  private final long[] live = new long[CHAIN_LENGTH];
  private final boolean[] grown = new boolean[CHAIN_LENGTH]; // DFLGS_GROWN
  private int clockHand; // clock_searchp

  // the scan in progress: the free slabs each cache visited had, in the order visited
  private final long[] counted = new long[REAP_SCANLEN];
  private int visits;
  private int best = -1;
  private long toFree;

  /** cachep->spinlock, one standing for every cache's. */
  public final SpinLock cacheLock = SpinLock.spin("cachep->spinlock");
  /** {@code kmem_cache_reap(gfp_mask)}. */
  public final KernelPath kmemCacheReap;

  /** Builds the allocator's state and path for one kernel. */
  public Slab() {
    cache(SIZE_512, "size-512", 8, 0, false, 0);
    cache(SIZE_16384, "size-16384", 1, 2, false, 0);
    cache(SIZE_32768, "size-32768", 1, 3, false, 0);
    cache(SKBUFF_HEAD_CACHE, "skbuff_head_cache", 24, 0, true, 0);
    cache(DENTRY_CACHE, "dentry_cache", 34, 0, false, DENTRIES_AT_START);
    cache(INODE_CACHE, "inode_cache", 8, 0, true, INODES_AT_START);
    cache(BUFFER_HEAD, "buffer_head", 40, 0, true, BUFFER_HEADS_AT_START);
    for (int i = 0; i < CHAIN_LENGTH; i++) {
      if (name[i] == null) {
        cache(i, "cache" + i, 1, 0, false, 0);
      }
    }
    KernelPath count =
        KernelPath.path("mm/slab.c", "kmem_cache_reap")
            .compute(CACHE_VISIT_NS)
            .spinLockIrq(cacheLock)
            .loop(REAP_COUNT, c -> counted[(int) c.loopIndex()], s -> s.compute(SLAB_COUNT_NS))
            .spinUnlockIrq(cacheLock)
            .build();
    kmemCacheReap =
        KernelPath.path("mm/slab.c", "kmem_cache_reap")
            .cause(new KmemCacheReap())
            .effect("scan = REAP_SCANLEN; searchp = clock_searchp", c -> scan())
            .loop(REAP_SCAN, c -> visits, v -> v.call(count))
            .loop(REAP_FREE, c -> toFree, f -> f
                .spinLockIrq(cacheLock)
                .compute(SLAB_UNLINK_NS)
                .effect("list_del(&slabp->list)", c -> slabs[best]--)
                .spinUnlockIrq(cacheLock)
                .compute(SLAB_DESTROY_NS))
            .build();
  }

  private void cache(int at, String n, long objs, int order, boolean hasCtor, long inUse) {
    name[at] = n;
    objsPerSlab[at] = objs;
    gfporder[at] = order;
    ctor[at] = hasCtor;
    live[at] = inUse;
    slabs[at] = (inUse + objs - 1) / objs;
  }

  /**
   * The walk of the chain: which caches it visits, what each counts, which one is reaped and how
   * many of its slabs go, as 2.4.17 decides them.
   */
  private void scan() {
    visits = 0;
    best = -1;
    toFree = 0;
    long bestPages = 0;
    long bestLen = 0;
    int at = clockHand;
    for (int scan = REAP_SCANLEN; scan > 0; scan--) {
      long full = 0;
      if (grown[at]) {
        grown[at] = false;
      } else {
        full = freeSlabs(at);
      }
      counted[visits++] = full;
      long pages = full << gfporder[at];
      if (ctor[at]) {
        pages = (pages * 4 + 1) / 5;
      }
      if (gfporder[at] > 0) {
        pages = (pages * 4 + 1) / 5;
      }
      int next = (at + 1) % CHAIN_LENGTH;
      if (pages > bestPages) {
        best = at;
        bestLen = full;
        bestPages = pages;
        if (pages >= REAP_PERFECT) {
          clockHand = next;
          toFree = (bestLen + 1) / 2;
          return;
        }
      }
      at = next;
      if (at == clockHand) {
        break;
      }
    }
    clockHand = at;
    toFree = best < 0 ? 0 : (bestLen + 1) / 2;
  }

  /** Free slabs of cache {@code at} now: its slabs less those its live objects fill. */
  public long freeSlabs(int at) {
    long used = (live[at] + objsPerSlab[at] - 1) / objsPerSlab[at];
    return Math.max(0, slabs[at] - used);
  }

  /** {@code kmem_cache_free} of {@code n} objects of cache {@code at}. */
  public void free(int at, long n) {
    live[at] = Math.max(0, live[at] - n);
  }

  /** {@code kmem_cache_alloc} of {@code n} objects: the cache grows if they do not fit. */
  public void alloc(int at, long n) {
    live[at] += n;
    long need = (live[at] + objsPerSlab[at] - 1) / objsPerSlab[at];
    if (need > slabs[at]) {
      slabs[at] = need;
      grown[at] = true;
    }
  }

  /** The name of cache {@code at}, as /proc/slabinfo shows it. */
  public String name(int at) {
    return name[at];
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    long typical = REAP_SCANLEN * CACHE_VISIT_NS;
    // a dentry cache emptied by a prune of ~12,000 dentries (PathParams' tail) holds ~350 free
    // slabs; the inode cache after a big prune ~1,500
    long tail = typical + 1_500 * SLAB_COUNT_NS + 750 * (SLAB_UNLINK_NS + SLAB_DESTROY_NS);
    return List.of(
        new CatalogEntry(
            "kmem_cache_reap", kmemCacheReap, List.of("irqs off (cachep->spinlock, spin_lock_irq)"),
            typical, tail,
            "a cache emptied by a big prune: every free slab counted with interrupts off",
            "175 ns per free slab counted, 350 ns per cache (DRAM misses, lmbench); destroy 1 us"
                + " (assumption); free slabs from the load's frees"));
  }
}
