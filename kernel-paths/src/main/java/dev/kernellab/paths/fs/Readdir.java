package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import java.util.List;
import java.util.Locale;

/**
 * Reading a directory: fs/readdir.c {@code sys_getdents64} and {@code vfs_readdir} over
 * fs/ext2/dir.c {@code ext2_readdir} (2.4.17), the call glibc's {@code readdir()} makes when
 * its buffer is empty.
 */
@Models(file = "fs/readdir.c", function = "sys_getdents64", version = "2.4.17")
@Models(file = "fs/readdir.c", function = "vfs_readdir", version = "2.4.17")
@Models(file = "fs/readdir.c", function = "filldir64", version = "2.4.17")
@Models(file = "fs/ext2/dir.c", function = "ext2_readdir", version = "2.4.17")
@Models(file = "fs/ext2/dir.c", function = "ext2_get_page", version = "2.4.17")
public final class Readdir {

  /*
   * Implementation overview
   *
   * vfs_readdir takes the directory's i_sem and i_zombie, then lock_kernel(), and calls the
   * file system's readdir with the BKL held to the end. ext2_readdir walks the directory from
   * f_pos page by page (ext2_get_page: read_cache_page of the directory's page, kmap) and, in
   * each page, entry by entry (ext2_next_entry by rec_len), calling filldir for each live one
   * (de->inode != 0) until filldir finds the user's buffer full; then it stores f_pos and
   * updates the directory's atime (UPDATE_ATIME: mark_inode_dirty_sync, kupdate's to write).
   * A call that starts at the end (f_pos past the last entry) walks nothing, and only its
   * "done:" label's UPDATE_ATIME runs: the end-of-directory call every reader makes last. filldir64 copies one linux_dirent64 to user
   * space (three put_user and the name's copy_to_user). Nothing in 2.4.17 breaks the walk;
   * the low-latency patch adds conditional_schedule() in ext2_get_page, once per page, where
   * schedule() drops and retakes the BKL.
   *
   *     sys_getdents64: fget  vfs_readdir: down(i_sem) [BKL: page (entry entry ...) page ...] up
   *
   * Simplifications: the directory's pages are always cached (a reader lists a directory it
   * has just used; a cold page would sleep in read_cache_page, and schedule() would drop the
   * BKL); ext2_delete_entry merges a deleted entry into its predecessor's rec_len, so the walk
   * meets live entries only and the count walked is the count listed; the semaphores are
   * uncontended (each dbench client lists its own directory).
   */

  /** ext2_readdir's loop over the directory's pages, one ext2_get_page each. */
  public static final Site DIR_PAGES = new Site("fs/ext2/dir.c", "ext2_readdir", "ext2_get_page");
  /** ext2_readdir's loop over the live entries of one page, one filldir64 each. */
  public static final Site DIR_ENTRIES = new Site("fs/ext2/dir.c", "ext2_readdir", "filldir");

  /**
   * fget/fput, down/up of i_sem and i_zombie, the end's f_pos and UPDATE_ATIME: assumption,
   * 1 us (a few cache lines each, lmbench null call 0.45 us as the scale).
   */
  public static final long GETDENTS_FIXED_NS = 1_000;
  /**
   * ext2_get_page of a cached page: read_cache_page's hash lookup (pagecache_lock), kmap of a
   * lowmem page, PageChecked tested: assumption, 2 DRAM misses (lmbench 175 ns) and 0.4 us.
   */
  public static final long GET_PAGE_NS = 2 * MEMORY_MISS_NS + 400;
  /**
   * One live entry: the entry's line of the directory page (a DRAM miss for a page not read
   * since it was written, lmbench 175 ns) and filldir64's three put_user and copy_to_user of a
   * short name into the user's cached buffer (assumption, 100 ns).
   */
  public static final long ENTRY_NS = MEMORY_MISS_NS + 100;
  /**
   * glibc's readdir buffer: opendir allocates st_blksize bytes, 4 KiB on an ext2 file system
   * of 4 KiB blocks (assumption: glibc 2.2's opendir, and the block size mke2fs chose for a
   * disk of the time).
   */
  public static final long USER_BUFFER_BYTES = 4_096;
  /** PAGE_CACHE_SIZE on i386. */
  public static final long PAGE_BYTES = 4_096;

  /** getdents64(2) of a directory ({@link Getdents}: the directory and where the reader is). */
  public final KernelPath getdents;

  /** Builds the path for one kernel; {@code vfs} takes the directories' dirtied atimes. */
  public Readdir(Locks l, VfsCache vfs) {
    KernelPath ext2Readdir =
        KernelPath.path("fs/ext2/dir.c", "ext2_readdir")
            .loop(DIR_PAGES, Readdir::pages, page -> page
                .compute(GET_PAGE_NS)
                .loop(DIR_ENTRIES, Readdir::entriesOnPage, e -> e.compute(ENTRY_NS))
                .effect("f_pos to the next page", c -> args(c).nextPage()))
            .effect("UPDATE_ATIME(inode): mark_inode_dirty_sync", c -> {
              Getdents g = args(c);
              g.done();
              if (g.inode() != null) {
                vfs.markDirty(g.inode());
              }
            })
            .build();
    getdents =
        KernelPath.path("fs/readdir.c", "vfs_readdir")
            .cause(new ReaddirBkl())
            .compute(GETDENTS_FIXED_NS)
            .lockKernel(l.kernelFlag)
            .call(ext2Readdir)
            .unlockKernel(l.kernelFlag)
            .build();
  }

  private static Getdents args(KernelCpu c) {
    Getdents g = c.syscallArgs(Getdents.class);
    if (g == null) {
      throw new IllegalStateException("getdents64 needs the directory (Readdir.Getdents) as its arguments");
    }
    return g;
  }

  private static long pages(KernelCpu c) {
    return args(c).plan();
  }

  private static long entriesOnPage(KernelCpu c) {
    return args(c).entriesOnPage();
  }

  /**
   * A directory of ext2 as a reader sees it: its live entries (with "." and ".."), and the
   * length of their names, which sets how many fit a page and a reader's buffer. Its owner
   * keeps the count current.
   */
  public static final class Directory {
    private final VfsFile inode;
    private final long nameBytes;
    private long entries = 2; // "." and ".."

    /**
     * A directory whose inode is {@code inode} (its atime is dirtied by each listing; may be
     * null) and whose entries' names are {@code nameBytes} long on average.
     */
    public Directory(VfsFile inode, long nameBytes) {
      if (nameBytes < 1 || nameBytes > 255) {
        throw new IllegalArgumentException("an ext2 name is 1 to 255 bytes, got " + nameBytes);
      }
      this.inode = inode;
      this.nameBytes = nameBytes;
    }

    /** Sets the live entries, "." and ".." included. */
    public void entries(long n) {
      if (n < 2) {
        throw new IllegalArgumentException("a directory has at least . and .., got " + n);
      }
      entries = n;
    }

    /** Live entries, "." and ".." included. */
    public long entries() {
      return entries;
    }

    /** EXT2_DIR_REC_LEN(name_len): 8 bytes of header and the name, rounded up to 4. */
    long recLen() {
      return (nameBytes + 8 + 3) & ~3L;
    }

    /** Entries of one directory page (ext2's blocks of 4 KiB fill a page each). */
    long entriesPerPage() {
      return PAGE_BYTES / recLen();
    }

    /** ROUND_UP64(NAME_OFFSET(linux_dirent64) + namlen + 1): 19 + name + NUL, rounded to 8. */
    long direntBytes() {
      return (19 + nameBytes + 1 + 7) & ~7L;
    }
  }

  /**
   * The arguments of getdents64(2): the directory and the reader's position in it (f_pos, in
   * entries). One per reader, reused: {@link #open} at opendir, then calls until one returns
   * nothing.
   */
  public static final class Getdents {
    private Directory dir;
    private long pos; // f_pos, counted in entries
    private long callEnd; // where this call's filldir finds the buffer full, or the end
    private long returned; // entries the last call listed

    /** Points these arguments at the start of {@code d}: an opendir. */
    public Getdents open(Directory d) {
      this.dir = d;
      this.pos = 0;
      this.returned = 0;
      return this;
    }

    /** True once a call has listed nothing: readdir() returns NULL. */
    public boolean atEnd() {
      return dir == null || pos >= dir.entries() && returned == 0;
    }

    /** Entries the last call listed. */
    public long returned() {
      return returned;
    }

    /** On entry: plans this call and returns the pages it walks. */
    long plan() {
      if (dir == null) {
        // the catalog's caller's bug, not a user's input: getdents64 on a descriptor never opened
        throw new IllegalStateException("getdents64 before opendir: open() the directory first");
      }
      long fit = Math.max(1, USER_BUFFER_BYTES / dir.direntBytes());
      long start = Math.min(pos, dir.entries());
      callEnd = Math.min(dir.entries(), start + fit);
      returned = callEnd - start;
      if (returned == 0) {
        return 0; // f_pos past the last entry: "goto done"
      }
      long per = dir.entriesPerPage();
      return (callEnd - 1) / per - start / per + 1;
    }

    long entriesOnPage() {
      long per = dir.entriesPerPage();
      long pageEnd = (pos / per + 1) * per;
      return Math.min(pageEnd, callEnd) - pos;
    }

    void nextPage() {
      long per = dir.entriesPerPage();
      pos = Math.min((pos / per + 1) * per, callEnd);
    }

    /** The walk's end: f_pos stored. */
    void done() {
      pos = Math.max(pos, callEnd);
    }

    /** The directory's inode, whose atime the listing dirtied, or null. */
    VfsFile inode() {
      return dir.inode;
    }
  }

  /**
   * What the analysis names while a directory is read under vfs_readdir's BKL: the entries
   * and pages walked.
   */
  public record ReaddirBkl() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      long entries = h.iterationsAt(DIR_ENTRIES);
      long pages = h.iterationsAt(DIR_PAGES);
      String what = entries > 0
          ? String.format(Locale.ROOT, "ext2_readdir, %,d entries listed", entries)
          : pages > 0
              ? String.format(Locale.ROOT, "ext2_readdir, %,d directory pages", pages)
              : h.path().file() + " " + h.path().function();
      return String.format(Locale.ROOT, "BKL held by %s in vfs_readdir (%s, %.1f us)", h.task(), what, h.ns() / 1000.0);
    }
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    // typical: a dbench client's directory (34 entries, names of 12 bytes: one page, one call);
    // tail: a directory that fills the buffer, 128 linux_dirent64 of 32 bytes over two pages
    long typical = GETDENTS_FIXED_NS + GET_PAGE_NS + 34 * ENTRY_NS;
    long tail = GETDENTS_FIXED_NS + 2 * GET_PAGE_NS + 128 * ENTRY_NS;
    return List.of(new CatalogEntry(
        "getdents64 (ext2)", getdents, List.of("kernel_flag"), typical, tail,
        "a full user buffer: 4 KiB of linux_dirent64, 128 entries of 12-byte names across two pages",
        "1 us fixed, 0.75 us/page, 275 ns/entry (DRAM miss, lmbench, + filldir64 assumption);"
            + " glibc buffer 4 KiB (assumption)"));
  }
}
