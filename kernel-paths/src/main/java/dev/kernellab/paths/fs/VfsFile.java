package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import java.util.Arrays;

/**
 * A regular file of the model's file system: its size, where its data lies on the disk, and
 * which of its pages the {@link PageCache} holds. Models the parts of {@code struct inode} and
 * its {@code address_space} (include/linux/fs.h, 2.4.17) that decide how long the kernel's file
 * paths run: a read misses where a page is not cached, an unlink truncates the cached pages.
 *
 * <p>Made by {@link PageCache#create}; belongs to one kernel.
 */
@Models(file = "include/linux/fs.h", function = "struct inode", version = "2.4.17")
@Models(file = "include/linux/fs.h", function = "struct address_space", version = "2.4.17")
public final class VfsFile {

  private final String name;
  private final int id;
  private final long startLba; // the file's data is one extent from here (fresh ext2 files)
  private long sizePages;
  int[] slot = new int[0]; // page index -> page-cache slot, -1 when not cached
  long cachedPages;
  long dirtyPages;
  private boolean unlinked;
  // its name's dentry and its inode in the dcache and icache (VfsCache keeps the lists)
  boolean dentry; // hashed: positive while the inode exists, negative after an unlink
  int dCount; // d_count
  boolean referenced; // DCACHE_REFERENCED: d_lookup found it since prune_dcache last passed it
  boolean inode; // in the icache
  boolean inodeDirty; // on s_dirty
  int dStamp; // bumped each time the dentry goes on dentry_unused
  int iStamp; // ... the inode on inode_unused
  int dirtyStamp; // ... the inode on s_dirty

  VfsFile(String name, int id, long startLba, long sizePages) {
    this.name = name;
    this.id = id;
    this.startLba = startLba;
    this.sizePages = sizePages;
  }

  /** The file's name. */
  public String name() {
    return name;
  }

  /** Size in pages of {@value PageCache#PAGE_SIZE} bytes. */
  public long sizePages() {
    return sizePages;
  }

  /** Pages of the file in the page cache now. */
  public long cachedPages() {
    return cachedPages;
  }

  /** Cached pages written and not yet written back. */
  public long dirtyPages() {
    return dirtyPages;
  }

  /** True if its name has a dentry in the dcache (positive or, after an unlink, negative). */
  public boolean dentryCached() {
    return dentry;
  }

  /** The dentry's d_count: references held (open files, a walk in progress); 0 when none. */
  public int dentryCount() {
    return dCount;
  }

  /** True if its inode is in the icache. */
  public boolean inodeCached() {
    return inode;
  }

  /** True if its inode is dirty (on the superblock's s_dirty list). */
  public boolean inodeDirty() {
    return inodeDirty;
  }

  /** True once the file was unlinked. */
  public boolean isUnlinked() {
    return unlinked;
  }

  /** The disk sector where page {@code page} of the file lies. */
  public long lbaOf(long page) {
    return startLba + page * PageCache.SECTORS_PER_PAGE;
  }

  /** True if page {@code page} is in the page cache. */
  public boolean isCached(long page) {
    return page < slot.length && slot[(int) page] >= 0;
  }

  void grow(long pages) {
    sizePages = Math.max(sizePages, pages);
  }

  void ensureSlots(long pages) {
    if (pages > slot.length) {
      int old = slot.length;
      slot = Arrays.copyOf(slot, (int) Math.max(pages, old * 2L));
      Arrays.fill(slot, old, slot.length, -1);
    }
  }

  void shrink(long pages) {
    sizePages = Math.min(sizePages, pages);
  }

  void unlink() {
    unlinked = true;
    sizePages = 0;
  }

  void recreate() {
    unlinked = false;
    sizePages = 0;
  }

  int id() {
    return id;
  }

  @Override
  public String toString() {
    return name + "{" + sizePages + " pages, " + cachedPages + " cached, " + dirtyPages + " dirty}";
  }
}
