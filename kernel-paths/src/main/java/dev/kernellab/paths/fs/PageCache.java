package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The page cache of one kernel, bounded by the machine's memory: which pages of which files are
 * cached, which are dirty, and which go when room is needed. Models mm/filemap.c's page cache
 * with mm/vmscan.c's reclaim and fs/buffer.c's dirty accounting (2.4.17), as far as they decide
 * whether a read goes to the disk and how much writeback there is to do.
 *
 * <pre>{@code
 * PageCache pc = catalog.pageCache();              // sized by Kernel24Paths.install
 * VfsFile f = pc.create("stress", 0);
 * pc.write(f, 0, now);  pc.read(f, 0);             // the second is a hit
 * }</pre>
 */
public final class PageCache {

  /*
   * Implementation overview
   *
   * The cache is a fixed array of slots, one per page frame the cache may use. A cached page
   * is (file, page index) in a slot; each file maps its page indexes to slots. Reclaim is a
   * clock (second chance) over the slots: a referenced page loses its bit and stays, an
   * unreferenced clean one is taken. That approximates 2.4's two LRU lists (pages start
   * inactive, a second touch moves them to the active list, refill_inactive ages the active
   * list into the inactive one, shrink_cache frees from the inactive tail). Dirty pages are
   * skipped by the clock (shrink_cache starts their writeback and moves on); if every slot is
   * dirty, the clock takes one anyway and counts it as a forced writeback, the stand-in for a
   * writer throttled in shrink_cache.
   *
   * Dirty pages are queued in the order they became dirty, each with its time, for kupdate's
   * "older than age_buffer" and for bdflush, which takes the oldest first. The queue is a
   * ring of slot numbers; an entry whose slot was cleaned, freed or reused since is skipped.
   *
   *     slots:  [f1:0 R][f1:1  ][f2:7 RD][ free ]...      hand -> next slot the clock looks at
   *     dirty:  head -> slot 2 (t=1.2 s) -> ...
   *
   * A batch a write_some_buffers walk takes is locked for its write I/O (BH_Lock) and cleaned,
   * as the walk does with lru_list_lock held [1]; its I/O completion unlocks it
   * (end_buffer_io_sync). A write() to a locked page dirties it again: generic_commit_write's
   * __mark_dirty refiles it to the tail of BUF_DIRTY while it is still locked, and there it
   * stays, locked and dirty, until its I/O ends. Those are the buffers a later walk skips
   * (test_and_set_bit(BH_Lock) fails) without taking: lockedSkipped() walks the dirty queue
   * from its head as write_some_buffers walks BUF_DIRTY. Batches complete in the order they
   * were submitted (an assumption: the elevator may reorder requests of concurrent batches,
   * which changes which buffers unlock first, not how many).
   *
   *     locked:  batch ring -> [32][32]      buffer ring -> slot 5, slot 9, ... (oldest first)
   *
   * Nothing here allocates per page: arrays are sized at install, files grow their slot maps.
   *
   * [1] 2.4.17 fs/buffer.c write_some_buffers, __refile_buffer, __block_commit_write,
   *     end_buffer_io_sync; include/linux/fs.h __mark_dirty.
   */

  /** PAGE_SIZE on i386. */
  public static final int PAGE_SIZE = 4096;
  /** Sectors of 512 bytes in a page. */
  public static final int SECTORS_PER_PAGE = 8;
  /**
   * Memory the kernel and the processes hold, out of the cache's reach: kernel text and data,
   * slab, page tables and the processes' anonymous pages of a 2002 desktop. Assumption: 32 MB.
   */
  public static final long RESERVED_BYTES = 32L << 20;
  /**
   * bdf_prm.nfract (fs/buffer.c 2.4.17): with 30 % of the cache dirty, balance_dirty wakes
   * bdflush.
   */
  public static final int NFRACT = 30;
  /** bdf_prm.nfract_sync: with 60 % dirty, the writer itself writes (throttled). */
  public static final int NFRACT_SYNC = 60;
  /** bdf_prm.age_buffer: kupdate writes back buffers dirty for more than 30 s. */
  public static final long AGE_BUFFER_NS = 30_000_000_000L;
  /**
   * First sector of file data: the model lays files out one after the other from here on the
   * disk (assumption: past the first gigabyte of system files).
   */
  public static final long DATA_START_LBA = 2_000_000;

  /** Sectors kept for each file to grow into, 1 GB: keeps extents apart (assumption). */
  static final long ROOM_TO_GROW = 2_097_152L;

  private int capacity;
  private VfsFile[] slotFile = new VfsFile[0];
  private int[] slotPage = new int[0];
  private boolean[] referenced = new boolean[0];
  private boolean[] dirty = new boolean[0];
  private int[] dirtyGeneration = new int[0]; // bumped each time a slot becomes dirty
  private int[] freeSlots = new int[0];
  private int freeCount;
  private int used; // slots ever filled, 0..capacity; below it the clock runs
  private int hand;
  private int[] dirtyRing = new int[0];
  private int[] dirtyRingGeneration = new int[0];
  private long[] dirtyRingNs = new long[0];
  private int dirtyHead;
  private int dirtyTail;
  private int dirtyQueued;
  private long nrDirty;
  private boolean[] locked = new boolean[0]; // under write I/O (BH_Lock)
  private int[] lockGeneration = new int[0]; // bumped each time a slot is locked
  private int[] ioRing = new int[0]; // locked slots, oldest submitted first
  private int[] ioRingGeneration = new int[0];
  private int ioHead;
  private int ioQueued;
  private int[] batchRing = new int[0]; // buffers of each batch in flight, oldest first
  private int batchHead;
  private int batchQueued;
  private int lockedPages; // slots locked: 0 when the disk has no write of the cache in flight
  private int lockedDirtyPages; // slots locked and dirty: on BUF_DIRTY, skipped by a walk
  private int lastBatchPages; // pages the latest startWriteback locked
  private long lastBatchLba; // and the sector of its first page

  private final List<VfsFile> files = new ArrayList<>();
  private long nextLba = DATA_START_LBA;
  private long diskSectors = Long.MAX_VALUE; // the disk's size: files are laid out within it
  private long hits;
  private long misses;
  private long evictions;
  private long forcedWritebacks;

  /** An empty cache; {@link #setMemory} sizes it. */
  public PageCache() {
    setMemory(256L << 20);
  }

  /**
   * Sizes the cache for a machine of {@code memoryBytes}: every page frame but
   * {@link #RESERVED_BYTES}. Only before the first page is cached.
   */
  public void setMemory(long memoryBytes) {
    if (used != 0) {
      throw new IllegalStateException("the page cache is already in use");
    }
    capacity = (int) Math.max(256, (memoryBytes - RESERVED_BYTES) / PAGE_SIZE);
    slotFile = new VfsFile[capacity];
    slotPage = new int[capacity];
    referenced = new boolean[capacity];
    dirty = new boolean[capacity];
    dirtyGeneration = new int[capacity];
    freeSlots = new int[capacity];
    dirtyRing = new int[capacity + 1];
    dirtyRingGeneration = new int[capacity + 1];
    dirtyRingNs = new long[capacity + 1];
    locked = new boolean[capacity];
    lockGeneration = new int[capacity];
    ioRing = new int[capacity];
    ioRingGeneration = new int[capacity];
    batchRing = new int[capacity];
  }

  /** Page frames the cache may use. */
  public int capacityPages() {
    return capacity;
  }

  /** The disk the files lie on, {@code sectors} long: a file that would not fit starts again at the front. */
  public void setDisk(long sectors) {
    if (sectors < DATA_START_LBA + ROOM_TO_GROW) {
      throw new IllegalArgumentException("a disk of " + sectors + " sectors has no room for file data past LBA "
          + DATA_START_LBA);
    }
    diskSectors = sectors;
  }

  /**
   * Creates a file of {@code sizePages} pages, none cached; its data goes after the last file's,
   * or back at the front of the data area when the disk has no room left there: placement only
   * sets seek distances (the model keeps no block map), so files that share sectors with an
   * earlier one cost what files close together cost.
   */
  public VfsFile create(String name, long sizePages) {
    long extent = Math.max(sizePages * SECTORS_PER_PAGE, ROOM_TO_GROW);
    if (DATA_START_LBA + extent > diskSectors) {
      throw new IllegalArgumentException("file " + name + " of " + sizePages + " pages does not fit on a disk of "
          + diskSectors + " sectors");
    }
    if (nextLba + extent > diskSectors) {
      nextLba = DATA_START_LBA;
    }
    VfsFile f = new VfsFile(name, files.size(), nextLba, sizePages);
    nextLba += extent;
    files.add(f);
    return f;
  }

  /**
   * The file {@code f} made again, empty, after an unlink: a new inode in the same place on the
   * disk, so that a workload that creates and unlinks files for ever keeps a bounded set.
   */
  public VfsFile recreate(VfsFile f) {
    truncate(f, 0);
    f.recreate();
    return f;
  }

  /** Every file created, in creation order. */
  public List<VfsFile> files() {
    return Collections.unmodifiableList(files);
  }

  /**
   * A read of page {@code page} of {@code f}: true if it was cached (and is now referenced);
   * false if not, and then it is cached now, as the read that follows brings it in.
   */
  public boolean read(VfsFile f, long page) {
    f.ensureSlots(page + 1);
    int s = f.slot[(int) page];
    if (s >= 0) {
      referenced[s] = true;
      hits++;
      return true;
    }
    misses++;
    insert(f, page, false);
    return false;
  }

  /** Read-ahead: brings page {@code page} of {@code f} in unreferenced, if it is not cached. */
  public void readAhead(VfsFile f, long page) {
    if (page >= f.sizePages()) {
      return;
    }
    f.ensureSlots(page + 1);
    if (f.slot[(int) page] < 0) {
      insert(f, page, false);
    }
  }

  /** A write of page {@code page} of {@code f} at {@code now}: cached and dirty. */
  public void write(VfsFile f, long page, long now) {
    f.ensureSlots(page + 1);
    f.grow(page + 1);
    int s = f.slot[(int) page];
    if (s < 0) {
      s = insert(f, page, true);
    } else {
      referenced[s] = true;
    }
    if (!dirty[s]) {
      dirty[s] = true;
      if (locked[s]) {
        lockedDirtyPages++;
      }
      dirtyGeneration[s]++;
      f.dirtyPages++;
      nrDirty++;
      queueDirty(s, now);
    }
  }

  /**
   * Cleans up to {@code max} dirty pages, oldest first, dirty since {@code dirtiedBeforeNs} or
   * earlier; returns how many. Their writeback I/O is the caller's.
   */
  public int writeback(int max, long dirtiedBeforeNs) {
    int cleaned = 0;
    while (cleaned < max && dirtyQueued > 0) {
      int s = dirtyRing[dirtyHead];
      int gen = dirtyRingGeneration[dirtyHead];
      long at = dirtyRingNs[dirtyHead];
      boolean live = slotFile[s] != null && dirty[s] && dirtyGeneration[s] == gen;
      if (live && at > dirtiedBeforeNs) {
        break;
      }
      dirtyHead = (dirtyHead + 1) % dirtyRing.length;
      dirtyQueued--;
      if (live) {
        clean(s);
        cleaned++;
      }
    }
    return cleaned;
  }

  /**
   * The walk and locking of one write_some_buffers batch: takes up to {@code max} unlocked dirty
   * pages from the head of the dirty queue, oldest first, cleans and locks them for their write
   * I/O, and skips the locked ones; returns how many it took. {@link #lastBatchLba} and
   * {@link #lastBatchPages} describe the batch for its I/O, {@link #endWriteback} ends it.
   */
  @Models(file = "fs/buffer.c", function = "write_some_buffers", version = "2.4.17")
  public int startWriteback(int max) {
    int taken = 0;
    lastBatchLba = DATA_START_LBA;
    for (int i = 0, at = dirtyHead; i < dirtyQueued && taken < max; i++, at = (at + 1) % dirtyRing.length) {
      int s = dirtyRing[at];
      if (!live(at) || locked[s]) {
        continue;
      }
      if (taken == 0) {
        lastBatchLba = slotFile[s].lbaOf(slotPage[s]);
      }
      clean(s);
      lock(s);
      taken++;
    }
    dropStaleHead();
    if (taken > 0) {
      if (batchQueued == batchRing.length) {
        batchRing = unroll(batchRing, batchHead, batchQueued);
        batchHead = 0;
      }
      batchRing[(batchHead + batchQueued) % batchRing.length] = taken;
      batchQueued++;
    }
    lastBatchPages = taken;
    return taken;
  }

  /**
   * end_buffer_io_sync of the oldest batch in flight: its pages unlock (a page written again
   * meanwhile stays dirty, now unlocked, for the next walk to take); returns how many.
   */
  @Models(file = "fs/buffer.c", function = "end_buffer_io_sync", version = "2.4.17")
  public int endWriteback() {
    if (batchQueued == 0) {
      throw new IllegalStateException("no write_some_buffers batch in flight");
    }
    int n = batchRing[batchHead];
    batchHead = (batchHead + 1) % batchRing.length;
    batchQueued--;
    for (int i = 0; i < n; i++) {
      int s = ioRing[ioHead];
      int gen = ioRingGeneration[ioHead];
      ioHead = (ioHead + 1) % ioRing.length;
      ioQueued--;
      if (locked[s] && lockGeneration[s] == gen) {
        unlock(s);
      }
    }
    return n;
  }

  /**
   * The locked buffers a write_some_buffers walk passes now: walking the dirty queue from its
   * head, the locked dirty pages met before {@code wanted} unlocked ones are found (or the queue
   * ends). Never more than {@link #lockedDirtyPages}.
   */
  public long lockedSkipped(int wanted) {
    long skipped = 0;
    int found = 0;
    for (int i = 0, at = dirtyHead; i < dirtyQueued && found < wanted; i++, at = (at + 1) % dirtyRing.length) {
      if (!live(at)) {
        continue;
      }
      if (locked[dirtyRing[at]]) {
        skipped++;
      } else {
        found++;
      }
    }
    return skipped;
  }

  /** Pages locked under write I/O of a batch (0 once the disk has written every batch). */
  public int lockedPages() {
    return lockedPages;
  }

  /** Pages locked under write I/O and dirtied again since: on BUF_DIRTY, skipped by walks. */
  public int lockedDirtyPages() {
    return lockedDirtyPages;
  }

  /** Pages of the latest {@link #startWriteback} batch (0: nothing to write). */
  public int lastBatchPages() {
    return lastBatchPages;
  }

  /** The sector of the latest {@link #startWriteback} batch's first page. */
  public long lastBatchLba() {
    return lastBatchLba;
  }

  /** Dirty pages that became dirty at or before {@code cutoffNs}. */
  public long dirtyOlderThan(long cutoffNs) {
    long n = 0;
    for (int i = 0, at = dirtyHead; i < dirtyQueued; i++, at = (at + 1) % dirtyRing.length) {
      if (dirtyRingNs[at] > cutoffNs) {
        break;
      }
      int s = dirtyRing[at];
      if (slotFile[s] != null && dirty[s] && dirtyGeneration[s] == dirtyRingGeneration[at]) {
        n++;
      }
    }
    return n;
  }

  /** The sector of the oldest dirty page, for the next writeback's I/O (file data start if none). */
  public long oldestDirtyLba() {
    for (int i = 0, at = dirtyHead; i < dirtyQueued; i++, at = (at + 1) % dirtyRing.length) {
      int s = dirtyRing[at];
      if (slotFile[s] != null && dirty[s] && dirtyGeneration[s] == dirtyRingGeneration[at]) {
        return slotFile[s].lbaOf(slotPage[s]);
      }
    }
    return DATA_START_LBA;
  }

  /**
   * {@code truncate_inode_pages(mapping, from)}: drops every cached page of {@code f} from
   * page {@code fromPage} on, dirty ones too; returns how many.
   */
  @Models(file = "mm/filemap.c", function = "truncate_inode_pages", version = "2.4.17")
  public long truncate(VfsFile f, long fromPage) {
    long removed = 0;
    for (int p = (int) Math.min(fromPage, f.slot.length); p < f.slot.length; p++) {
      int s = f.slot[p];
      if (s >= 0) {
        free(s);
        removed++;
      }
    }
    return removed;
  }

  /**
   * {@code inode->i_size = offset} of a truncate: {@code f} ends at page {@code sizePages} (a
   * size above the file's leaves it as it is: the model does not grow files by truncation).
   * The cached pages past the end are {@link #truncate}'s.
   */
  @Models(file = "mm/memory.c", function = "vmtruncate", version = "2.4.17")
  public void shrink(VfsFile f, long sizePages) {
    if (sizePages < 0) {
      throw new IllegalArgumentException("size must be >= 0 pages, got " + sizePages);
    }
    f.shrink(sizePages);
  }

  /** Cached pages of {@code f} below page {@code page}: what truncate walks past. */
  public long cachedBelow(VfsFile f, long page) {
    long n = 0;
    for (int p = 0; p < Math.min(page, f.slot.length); p++) {
      if (f.slot[p] >= 0) {
        n++;
      }
    }
    return n;
  }

  /** {@code unlink}: the file's pages are dropped and its name goes; returns the pages dropped. */
  public long unlink(VfsFile f) {
    long n = truncate(f, 0);
    f.unlink();
    return n;
  }

  /** Dirty pages in the cache. */
  public long dirtyPages() {
    return nrDirty;
  }

  /** Cached pages. */
  public long cachedPages() {
    return used - freeCount;
  }

  /** True at or above bdf_prm.nfract: time to wake bdflush. */
  public boolean overSoftDirtyLimit() {
    return nrDirty * 100 >= (long) capacity * NFRACT;
  }

  /** True at or above bdf_prm.nfract_sync: the writer must write some buffers itself. */
  public boolean overHardDirtyLimit() {
    return nrDirty * 100 >= (long) capacity * NFRACT_SYNC;
  }

  /** Reads that found their page cached. */
  public long hits() {
    return hits;
  }

  /** Reads that did not. */
  public long misses() {
    return misses;
  }

  /** Pages reclaimed to make room. */
  public long evictions() {
    return evictions;
  }

  /** Dirty pages the clock had to take for want of clean ones. */
  public long forcedWritebacks() {
    return forcedWritebacks;
  }

  private int insert(VfsFile f, long page, boolean ref) {
    int s = allocate();
    slotFile[s] = f;
    slotPage[s] = (int) page;
    referenced[s] = ref;
    dirty[s] = false;
    f.slot[(int) page] = s;
    f.cachedPages++;
    return s;
  }

  private int allocate() {
    if (freeCount > 0) {
      return freeSlots[--freeCount];
    }
    if (used < capacity) {
      return used++;
    }
    for (int step = 0; step < 2 * capacity; step++) {
      int s = hand;
      hand = (hand + 1) % capacity;
      if (dirty[s] || locked[s]) {
        continue;
      }
      if (referenced[s]) {
        referenced[s] = false;
        continue;
      }
      evict(s);
      return s;
    }
    int s = hand;
    hand = (hand + 1) % capacity;
    forcedWritebacks++;
    evict(s);
    return s;
  }

  private void evict(int s) {
    evictions++;
    VfsFile f = slotFile[s];
    if (dirty[s]) {
      clean(s);
    }
    if (locked[s]) {
      unlock(s);
    }
    f.slot[slotPage[s]] = -1;
    f.cachedPages--;
    slotFile[s] = null;
  }

  private void free(int s) {
    VfsFile f = slotFile[s];
    if (dirty[s]) {
      clean(s);
    }
    if (locked[s]) {
      unlock(s); // truncate_inode_pages waits for the page's I/O; the model drops it at once
    }
    f.slot[slotPage[s]] = -1;
    f.cachedPages--;
    slotFile[s] = null;
    freeSlots[freeCount++] = s;
  }

  private void clean(int s) {
    if (locked[s]) {
      lockedDirtyPages--;
    }
    dirty[s] = false;
    slotFile[s].dirtyPages--;
    nrDirty--;
  }

  private void lock(int s) {
    locked[s] = true;
    lockGeneration[s]++;
    lockedPages++;
    if (ioQueued == ioRing.length) {
      ioRing = unroll(ioRing, ioHead, ioQueued);
      ioRingGeneration = unroll(ioRingGeneration, ioHead, ioQueued);
      ioHead = 0;
    }
    int at = (ioHead + ioQueued) % ioRing.length;
    ioRing[at] = s;
    ioRingGeneration[at] = lockGeneration[s];
    ioQueued++;
  }

  private void unlock(int s) {
    locked[s] = false;
    lockedPages--;
    if (dirty[s]) {
      lockedDirtyPages--;
    }
  }

  /**
   * A ring twice as long with its entries from index 0: a slot dropped while locked and locked
   * again has two entries, so more can be in flight than there are slots (rare: not per event).
   */
  private static int[] unroll(int[] ring, int head, int queued) {
    int[] grown = new int[Math.max(1, 2 * ring.length)];
    for (int i = 0; i < queued; i++) {
      grown[i] = ring[(head + i) % ring.length];
    }
    return grown;
  }

  private boolean live(int at) {
    int s = dirtyRing[at];
    return slotFile[s] != null && dirty[s] && dirtyGeneration[s] == dirtyRingGeneration[at];
  }

  private void dropStaleHead() {
    while (dirtyQueued > 0 && !live(dirtyHead)) {
      dirtyHead = (dirtyHead + 1) % dirtyRing.length;
      dirtyQueued--;
    }
  }

  private void queueDirty(int s, long now) {
    if (dirtyQueued == dirtyRing.length) {
      compactDirtyRing();
    }
    dirtyRing[dirtyTail] = s;
    dirtyRingGeneration[dirtyTail] = dirtyGeneration[s];
    dirtyRingNs[dirtyTail] = now;
    dirtyTail = (dirtyTail + 1) % dirtyRing.length;
    dirtyQueued++;
  }

  /** Drops stale entries so a live one fits; live entries are at most capacity < ring size. */
  private void compactDirtyRing() {
    int n = dirtyRing.length;
    int w = 0;
    int[] s = new int[n];
    int[] g = new int[n];
    long[] t = new long[n];
    for (int i = 0, at = dirtyHead; i < dirtyQueued; i++, at = (at + 1) % n) {
      int slot = dirtyRing[at];
      if (slotFile[slot] != null && dirty[slot] && dirtyGeneration[slot] == dirtyRingGeneration[at]) {
        s[w] = slot;
        g[w] = dirtyRingGeneration[at];
        t[w] = dirtyRingNs[at];
        w++;
      }
    }
    dirtyRing = s;
    dirtyRingGeneration = g;
    dirtyRingNs = t;
    dirtyHead = 0;
    dirtyTail = w % n;
    dirtyQueued = w;
  }
}
