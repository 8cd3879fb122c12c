package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import dev.kernellab.paths.mm.Slab;
import java.util.Arrays;

/**
 * The dentry and inode caches of one kernel as the load leaves them: {@code dentry_stat}
 * (nr_dentry, nr_unused) with the {@code dentry_unused} LRU, {@code inodes_stat} (nr_inodes,
 * nr_unused) with the {@code inode_unused} list, and the superblock's {@code s_dirty} list. The
 * file paths change it as the kernel does (a lookup, a close, a create, an unlink, a write) and
 * the prunes and {@code sync_unlocked_inodes} size their walks from it.
 *
 * <pre>{@code
 * VfsCache vfs = catalog.vfsCache();
 * vfs.create(f);                       // open(O_CREAT) of a new name: d_alloc, new_inode, dirty
 * vfs.dput(f);                         // close: d_count 0, onto dentry_unused
 * long walk = vfs.planPruneDcache(VfsCache.DEF_PRIORITY);   // nr_unused / 6 freed, or what is there
 * }</pre>
 */
@Models(file = "fs/dcache.c", function = "dentry_stat", version = "2.4.17")
@Models(file = "fs/dcache.c", function = "d_lookup", version = "2.4.17")
@Models(file = "fs/dcache.c", function = "d_alloc", version = "2.4.17")
@Models(file = "fs/dcache.c", function = "dput", version = "2.4.17")
@Models(file = "fs/dcache.c", function = "d_delete", version = "2.4.17")
@Models(file = "fs/inode.c", function = "inodes_stat", version = "2.4.17")
@Models(file = "fs/inode.c", function = "iget4", version = "2.4.17")
@Models(file = "fs/inode.c", function = "iput", version = "2.4.17")
@Models(file = "fs/inode.c", function = "__mark_inode_dirty", version = "2.4.17")
public final class VfsCache {

  /*
   * Implementation overview
   *
   * Two kinds of cache entry. The load's own files (VfsFile: the ones a workload names) are
   * tracked one by one, each with its dentry (hashed or not, d_count, DCACHE_REFERENCED) and
   * its inode (in the icache or not, dirty or not); their name has one dentry and the dentry
   * pins the inode, so a file's inode is unused (i_count 0) exactly when it is cached and its
   * dentry is not. Everything else the machine cached before the load began (the rest) is
   * counts: they are the oldest entries of each list, so a prune reaches them first.
   *
   *   dentry_unused:  [rest: oldest, never referenced again] [tracked files, oldest first ...]
   *   inode_unused:   [rest: 2 in 3 with cached pages]       [tracked files, oldest first ...]
   *   s_dirty:        [tracked files made dirty]             (the rest is clean at boot)
   *
   * A tracked list is an array of (file, stamp) appended at the newest end; a file's stamp for
   * the list is bumped each time it enters, so an entry whose file has left (dget of an unused
   * dentry, __iget of an unused inode, a sync that cleaned it) or entered again is stale and
   * skipped at no cost: the kernel's list_del left no trace. The array is compacted when full
   * and by every prune, so it grows only with the live entries.
   *
   * The walks (2.4.17 fs/dcache.c prune_dcache, fs/inode.c prune_icache, sync_list) are planned
   * when they start: the state changes then, and the path then runs the planned number of
   * iterations (each dropping or holding its lock as the C does). Another task's lookup during a
   * prune's lock drop sees the prune's outcome early: an approximation.
   *
   * The prune's plan and prune_icache's freed count are one per kernel: kswapd is the only
   * caller of shrink_caches in the catalog (2.4.17's direct reclaim from __alloc_pages is not
   * modelled), so a prune's walk ends before the next is planned. umount's
   * shrink_dcache_parent and invalidate_inodes (fs/Super) free from the slab without telling
   * this cache: no workload umounts. prune_icache's unmet goal schedules
   * unused_inodes_flush_task in 2.4.17 (keventd's try_to_sync_unused_inodes, inode_lock over
   * s_dirty): not modelled. Inodes released by pruning the rest's positive dentries join the
   * rest at the oldest end, where iput puts them at the newest: a prune_icache that follows
   * may free them before the load's own older unused inodes.
   *
   * What does not change these counts: exec (the binary's dentry stays in use while the program
   * runs, and make, sh, gcc run throughout a build), exit (a task's descriptors at exit are its
   * terminal and pipes, shared with its parent: d_count stays above 0), directories (a
   * directory with cached children is in use: each child's d_alloc took dget(parent)), opens
   * and closes that name no file (the path walk of a hot name: a hit, net zero). The workloads'
   * own opens and closes name their files.
   */

  /** DEF_PRIORITY of mm/vmscan.c (2.4.17): the priority of try_to_free_pages' first pass. */
  public static final int DEF_PRIORITY = 6;

  /**
   * Dentries at boot: the desktop after a kernel build that {@link Slab}'s dentry_cache starts
   * with (30,000). Assumption.
   */
  public static final long DENTRIES_AT_BOOT = Slab.DENTRIES_AT_START;
  /**
   * ... of which in use: the shells', X's and the session's open files, cwds and the directories
   * above every cached name (one per ~10 names). Assumption, 3,000; all positive.
   */
  public static final long DENTRIES_IN_USE_AT_BOOT = 3_000;
  /**
   * Unused dentries at boot that still name an inode (their inode stays in use until the dentry
   * is pruned). The other unused ones are negative: names looked up and not found (every exec's
   * PATH search, ld.so's search of its library directories, cpp's of its include path).
   * Assumption, 5,000 positive of the 27,000 unused.
   */
  public static final long POSITIVE_UNUSED_DENTRIES_AT_BOOT = 5_000;
  /** Inodes at boot: {@link Slab}'s inode_cache start (10,000). Assumption. */
  public static final long INODES_AT_BOOT = Slab.INODES_AT_START;
  /**
   * Of the rest's unused inodes, how many in {@value #WITH_PAGES_OF} still have pages in the
   * page cache, which CAN_UNUSE rejects: after a build most sources and objects stay cached.
   * Assumption, 2 in 3 (prune_icache walks three inodes per one it frees).
   */
  public static final int WITH_PAGES_PER = 2;
  /** See {@link #WITH_PAGES_PER}. */
  public static final int WITH_PAGES_OF = 3;

  /**
   * Pages each of the rest's inodes with pages has cached: a source or object file of a 2.4
   * tree, median about 16 KiB. Assumption, 4.
   */
  public static final int PAGES_PER_REST_INODE = 4;

  private final Slab slab;

  // dentry_stat and inodes_stat, all entries
  private long nrDentry; // nr_dentry
  private long nrUnusedDentries; // dentry_stat.nr_unused: on dentry_unused
  private long nrInodes; // inodes_stat.nr_inodes
  private long nrUnusedInodes; // inodes_stat.nr_unused: i_count 0, clean (inode_unused) or dirty
  private long nrDirtyInodes; // on s_dirty, in use or not

  // the rest: oldest on their lists
  private long restUnusedDentries;
  private long restUnusedPositive; // <= restUnusedDentries
  private long restUnusedInodes; // clean, on inode_unused
  private long restUnusedWithPages; // <= restUnusedInodes
  private long withPagesCarry; // the fraction of WITH_PAGES_PER/WITH_PAGES_OF not yet counted
  private long restPagesReclaimed; // pages of the rest's unused inodes that reclaim freed

  private final Lru dentryUnused = new Lru(VfsCache::unusedDentry);
  private final Lru inodeUnused = new Lru(VfsCache::unusedCleanInode);
  private final Lru dirty = new Lru((f, stamp) -> f.inodeDirty && f.dirtyStamp == stamp);

  // the prune_dcache in progress: iteration i frees a dentry iff planFreed[i]
  private boolean[] planFreed = new boolean[64];
  private int planLength;
  private int planAt;
  private long lastPruneIcacheFreed;
  private boolean lastLookupMissed;

  /** The caches at boot; the dentries and inodes they free and allocate are {@code slab}'s. */
  public VfsCache(Slab slab) {
    this.slab = slab;
    nrDentry = DENTRIES_AT_BOOT;
    restUnusedDentries = DENTRIES_AT_BOOT - DENTRIES_IN_USE_AT_BOOT;
    nrUnusedDentries = restUnusedDentries;
    restUnusedPositive = POSITIVE_UNUSED_DENTRIES_AT_BOOT;
    nrInodes = INODES_AT_BOOT;
    restUnusedInodes = INODES_AT_BOOT - DENTRIES_IN_USE_AT_BOOT - POSITIVE_UNUSED_DENTRIES_AT_BOOT;
    nrUnusedInodes = restUnusedInodes;
    restUnusedWithPages = withPages(restUnusedInodes);
  }

  // ---- what the load does ----

  /**
   * The last component of a path walk naming {@code f} (open, or any lookup that takes a
   * reference): d_lookup; on a hit dget (a dentry with d_count 0 leaves dentry_unused) and
   * DCACHE_REFERENCED; on a miss d_alloc and ext2_lookup's iget (an unused inode back in use,
   * or one read from the disk). Returns true on a miss.
   */
  public boolean lookup(VfsFile f) {
    if (f.isUnlinked()) {
      throw new IllegalStateException("lookup of " + f.name() + ", which was unlinked");
    }
    lastLookupMissed = !f.dentry;
    if (f.dentry) {
      dget(f);
      f.referenced = true;
    } else {
      dAlloc(f);
      iget(f);
    }
    return lastLookupMissed;
  }

  /** True if the last {@link #lookup} missed the dcache. */
  public boolean lastLookupMissed() {
    return lastLookupMissed;
  }

  /**
   * open(O_CREAT) of {@code f}'s name when it does not exist (a new file, or one unlinked): the
   * lookup finds its negative dentry or allocates one, ext2_create's new_inode fills it, and the
   * new inode is dirty (ext2_new_inode: mark_inode_dirty). The opener holds the dentry.
   */
  @Models(file = "fs/namei.c", function = "open_namei", version = "2.4.17")
  public void create(VfsFile f) {
    if (f.inode) {
      throw new IllegalStateException("create of " + f.name() + ", which exists");
    }
    if (f.dentry) {
      dget(f);
      f.referenced = true;
    } else {
      dAlloc(f);
    }
    f.inode = true;
    nrInodes++;
    slab.alloc(Slab.INODE_CACHE, 1);
    markDirty(f);
  }

  /**
   * close (fput's dput) of a reference to {@code f}'s dentry: at d_count 0 a hashed dentry goes
   * on dentry_unused (2.4.17 dput).
   */
  public void dput(VfsFile f) {
    if (f.dCount <= 0) {
      throw new IllegalStateException("dput of " + f.name() + " with d_count " + f.dCount);
    }
    if (--f.dCount == 0) {
      nrUnusedDentries++;
      dentryUnused.add(f, ++f.dStamp);
    }
  }

  /**
   * sys_unlink of {@code f}: lookup, vfs_unlink (ext2_unlink drops i_nlink to 0), d_delete and
   * dput. The model's workloads unlink files they still hold open and run ext2_delete_inode at
   * the unlink (fs/Ext2): their close is taken to come just before it, so d_delete finds the
   * unlink's own reference alone and turns the dentry negative, iput deletes the inode, and the
   * negative dentry goes on dentry_unused.
   */
  @Models(file = "fs/namei.c", function = "vfs_unlink", version = "2.4.17")
  public void unlink(VfsFile f) {
    if (!f.dentry) {
      dAlloc(f);
      iget(f);
    } else {
      if (f.dCount == 0) {
        dget(f);
      } else {
        f.dCount = 1; // the workload's own references, closed before the unlink
      }
    }
    if (f.inode) {
      // iput of the last reference with i_nlink 0: removed from every list, freed
      if (f.inodeDirty) {
        f.inodeDirty = false;
        nrDirtyInodes--;
      }
      f.inode = false;
      nrInodes--;
      slab.free(Slab.INODE_CACHE, 1);
    }
    dput(f);
  }

  /**
   * mark_inode_dirty of {@code f}'s inode (a write's mtime and size, a read's atime): onto
   * s_dirty. A file the model's program writes or reads without opening it (cc1's object, the
   * latencytest files) is looked up and released around the call: its open and close are
   * folded into the call, as the workload folds them.
   */
  public void markDirty(VfsFile f) {
    if (!f.inode) {
      lookup(f);
      dput(f);
    }
    if (!f.inodeDirty) {
      f.inodeDirty = true;
      nrDirtyInodes++;
      dirty.add(f, ++f.dirtyStamp);
    }
  }

  // ---- the walks ----

  /**
   * shrink_dcache_memory(priority): prune_dcache(nr_unused / priority), planned now. Walks
   * dentry_unused from its oldest end: a DCACHE_REFERENCED dentry loses the flag and goes to the
   * newest end, any other is freed (its inode's reference dropped: iput, the inode unused),
   * until the count is freed or the list is empty; a count of 0 (fewer unused than the
   * priority) never reaches 0 by {@code !--count} and frees the whole list, as 2.4.17 does.
   * Returns the dentries walked; {@link #nextPrunedDentryFreed()} then tells each one's fate.
   */
  @Models(file = "fs/dcache.c", function = "shrink_dcache_memory", version = "2.4.17")
  public long planPruneDcache(int priority) {
    // one plan a kernel: kswapd is the only caller of shrink_caches in the catalog (no direct
    // reclaim from __alloc_pages), so a prune ends before the next begins
    long goal = nrUnusedDentries / priority;
    boolean all = goal == 0;
    planLength = 0;
    planAt = 0;
    long rest = all ? restUnusedDentries : Math.min(goal, restUnusedDentries);
    freeRestDentries(rest);
    for (long i = 0; i < rest; i++) {
      plan(true);
    }
    goal -= rest;
    Lru l = dentryUnused;
    int kept = 0;
    int scanned = 0;
    for (; scanned < l.size && (all || goal > 0); scanned++) {
      VfsFile f = l.files[scanned];
      if (!unusedDentry(f, l.stamps[scanned])) {
        continue;
      }
      if (f.referenced) {
        // list_add at the head: parked, re-added after the entries the walk did not reach
        f.referenced = false;
        plan(false);
        l.park(f);
      } else {
        freeDentry(f);
        plan(true);
        goal--;
      }
    }
    // the entries not reached stay, in order, ahead of the referenced ones moved to the head
    for (int i = scanned; i < l.size; i++) {
      if (unusedDentry(l.files[i], l.stamps[i])) {
        l.files[kept] = l.files[i];
        l.stamps[kept++] = l.stamps[i];
      }
    }
    int parked = l.parked;
    l.size = kept;
    for (int i = 0; i < parked; i++) {
      VfsFile f = l.parkedFiles[i];
      if (all || goal > 0) {
        freeDentry(f); // met again at the end of the walk, unreferenced now
        plan(true);
        goal--;
      } else {
        l.add(f, ++f.dStamp);
      }
    }
    Arrays.fill(l.parkedFiles, 0, parked, null);
    l.parked = 0;
    return planLength;
  }

  /** For prune_dcache's loop: true if the next dentry walked is freed, false if it was referenced. */
  public boolean nextPrunedDentryFreed() {
    return planAt < planLength && planFreed[planAt++];
  }

  /**
   * shrink_icache_memory(priority): prune_icache(nr_unused / priority), planned now. Walks
   * inode_unused from its oldest end, passing inodes CAN_UNUSE rejects (pages in the page
   * cache: a tracked file's own cached pages, the rest's stated share), freeing the others until
   * the goal is met or the list ends (goal 0: the whole list, as {@code !--goal} never hits 0).
   * Returns the inodes walked; {@link #lastPruneIcacheFreed()} the inodes freed, which
   * dispose_list then destroys.
   */
  @Models(file = "fs/inode.c", function = "shrink_icache_memory", version = "2.4.17")
  public long planPruneIcache(int priority) {
    long goal = nrUnusedInodes / priority;
    boolean all = goal == 0;
    long walked = 0;
    long freed = 0;
    long freeable = restUnusedInodes - restUnusedWithPages;
    if (all || goal >= freeable) {
      walked += restUnusedInodes;
      freed += freeable;
      goal -= freeable;
      restUnusedInodes = restUnusedWithPages;
    } else if (goal > 0) {
      // freeable and rejected inodes lie mixed along the list: the goal-th freeable one is
      // that far down it
      walked += (goal * restUnusedInodes + freeable - 1) / freeable;
      freed += goal;
      restUnusedInodes -= goal;
      goal = 0;
    }
    Lru l = inodeUnused;
    int kept = 0;
    for (int i = 0; i < l.size; i++) {
      VfsFile f = l.files[i];
      int stamp = l.stamps[i];
      if (!unusedCleanInode(f, stamp)) {
        continue;
      }
      if (all || goal > 0) {
        walked++;
        if (f.cachedPages() == 0) {
          f.inode = false;
          freed++;
          goal--;
          continue;
        }
      }
      l.files[kept] = f;
      l.stamps[kept++] = stamp;
    }
    l.size = kept;
    nrUnusedInodes -= freed;
    nrInodes -= freed;
    lastPruneIcacheFreed = freed;
    return walked;
  }

  /** The inodes the last {@link #planPruneIcache} freed: dispose_list's count. */
  public long lastPruneIcacheFreed() {
    return lastPruneIcacheFreed;
  }

  /**
   * sync_unlocked_inodes' sync_list over s_dirty, planned now: every dirty inode is written
   * (__sync_one) and refiled clean, to inode_unused if nothing uses it. Returns how many.
   */
  @Models(file = "fs/inode.c", function = "sync_unlocked_inodes", version = "2.4.17")
  public long planSyncUnlockedInodes() {
    long n = nrDirtyInodes;
    Lru l = dirty;
    for (int i = 0; i < l.size; i++) {
      VfsFile f = l.files[i];
      if (f.inodeDirty && f.dirtyStamp == l.stamps[i]) {
        f.inodeDirty = false;
        if (!f.dentry) {
          inodeUnused.add(f, ++f.iStamp);
        }
      }
    }
    l.size = 0;
    nrDirtyInodes = 0;
    return n;
  }

  // ---- the counts ----

  /** dentry_stat.nr_dentry. */
  public long nrDentry() {
    return nrDentry;
  }

  /** dentry_stat.nr_unused: dentries on dentry_unused. */
  public long nrUnusedDentries() {
    return nrUnusedDentries;
  }

  /** inodes_stat.nr_inodes. */
  public long nrInodes() {
    return nrInodes;
  }

  /** inodes_stat.nr_unused: inodes nothing references, clean or dirty. */
  public long nrUnusedInodes() {
    return nrUnusedInodes;
  }

  /** Inodes on s_dirty. */
  public long nrDirtyInodes() {
    return nrDirtyInodes;
  }

  @Override
  public String toString() {
    return "dentry_stat{" + nrDentry + ", unused " + nrUnusedDentries + "} inodes_stat{" + nrInodes + ", unused "
        + nrUnusedInodes + ", dirty " + nrDirtyInodes + "}";
  }

  // ---- inside ----

  private void dAlloc(VfsFile f) {
    f.dentry = true;
    f.dCount = 1;
    f.referenced = false;
    nrDentry++;
    slab.alloc(Slab.DENTRY_CACHE, 1);
  }

  private void dget(VfsFile f) {
    if (f.dCount++ == 0) {
      nrUnusedDentries--; // off dentry_unused: the list entry goes stale
    }
  }

  /** iget from ext2_lookup: the inode the new dentry names, cached or read in. */
  private void iget(VfsFile f) {
    if (f.inode) {
      nrUnusedInodes--; // a cached inode without a dentry had i_count 0
    } else {
      f.inode = true;
      nrInodes++;
      slab.alloc(Slab.INODE_CACHE, 1);
    }
  }

  /** prune_one_dentry of a tracked dentry: unhash, d_free, iput of its inode. */
  private void freeDentry(VfsFile f) {
    f.dentry = false;
    nrDentry--;
    nrUnusedDentries--;
    if (f.inode) {
      nrUnusedInodes++;
      if (!f.inodeDirty) {
        inodeUnused.add(f, ++f.iStamp);
      }
    }
  }

  /** prune_one_dentry of {@code n} of the rest's dentries, positive ones in their share. */
  private void freeRestDentries(long n) {
    if (n == 0) {
      return;
    }
    long positive = n * restUnusedPositive / restUnusedDentries;
    restUnusedPositive -= positive;
    restUnusedDentries -= n;
    nrDentry -= n;
    nrUnusedDentries -= n;
    nrUnusedInodes += positive;
    restUnusedInodes += positive;
    restUnusedWithPages += withPages(positive);
  }

  /**
   * One page freed by reclaim (shrink_cache). It takes the inactive list's oldest pages first,
   * and the pages cached before the load began are the oldest, so the first pages any reclaim
   * frees are theirs: each {@value #PAGES_PER_REST_INODE} freed, one of the rest's unused
   * inodes has lost its last page and passes CAN_UNUSE from then on. Without it, those inodes
   * would keep their pages forever and every prune_icache would walk past all of them.
   */
  @Models(file = "mm/vmscan.c", function = "shrink_cache", version = "2.4.17")
  public void pageReclaimed() {
    if (restUnusedWithPages > 0 && ++restPagesReclaimed % PAGES_PER_REST_INODE == 0) {
      restUnusedWithPages--;
    }
  }

  /** The rest's unused inodes that still have cached pages. */
  public long restUnusedWithPages() {
    return restUnusedWithPages;
  }

  private long withPages(long inodes) {
    long scaled = inodes * WITH_PAGES_PER + withPagesCarry;
    withPagesCarry = scaled % WITH_PAGES_OF;
    return scaled / WITH_PAGES_OF;
  }

  private static boolean unusedDentry(VfsFile f, int stamp) {
    return f.dentry && f.dCount == 0 && f.dStamp == stamp;
  }

  private static boolean unusedCleanInode(VfsFile f, int stamp) {
    return f.inode && !f.dentry && !f.inodeDirty && f.iStamp == stamp;
  }

  private void plan(boolean freed) {
    if (planLength == planFreed.length) {
      planFreed = Arrays.copyOf(planFreed, planLength * 2);
    }
    planFreed[planLength++] = freed;
  }

  /**
   * A kernel list of tracked files, oldest first, as (file, stamp) entries; stale entries (the
   * file's stamp moved on) are dropped when the array fills up.
   */
  private static final class Lru {
    final OnList on;
    VfsFile[] files = new VfsFile[64];
    int[] stamps = new int[64];
    int size;
    VfsFile[] parkedFiles = new VfsFile[16];
    int parked;

    Lru(OnList on) {
      this.on = on;
    }

    void add(VfsFile f, int stamp) {
      if (size == files.length) {
        compact();
        if (size > files.length / 2) {
          files = Arrays.copyOf(files, files.length * 2);
          stamps = Arrays.copyOf(stamps, stamps.length * 2);
        }
      }
      files[size] = f;
      stamps[size++] = stamp;
    }

    void park(VfsFile f) {
      if (parked == parkedFiles.length) {
        parkedFiles = Arrays.copyOf(parkedFiles, parked * 2);
      }
      parkedFiles[parked++] = f;
    }

    /** Drops the entries that are no longer on the list. */
    private void compact() {
      int kept = 0;
      for (int i = 0; i < size; i++) {
        if (on.test(files[i], stamps[i])) {
          files[kept] = files[i];
          stamps[kept++] = stamps[i];
        }
      }
      Arrays.fill(files, kept, size, null);
      size = kept;
    }
  }

  /** Whether a list's entry (file, stamp) still stands for the file on that list. */
  @FunctionalInterface
  private interface OnList {
    boolean test(VfsFile f, int stamp);
  }
}
