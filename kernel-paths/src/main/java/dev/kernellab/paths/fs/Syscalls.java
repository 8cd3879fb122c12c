package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import java.util.List;

/**
 * The cheap everyday file system calls: fs/read_write.c {@code sys_read} / {@code sys_write} of
 * a small buffer, fs/open.c {@code sys_open} (with fs/namei.c {@code link_path_walk}) and
 * {@code sys_close}, fs/select.c {@code do_select}, and fs/pipe.c pipes (2.4.17).
 */
@Models(file = "fs/read_write.c", function = "sys_read", version = "2.4.17")
@Models(file = "fs/read_write.c", function = "sys_write", version = "2.4.17")
@Models(file = "fs/open.c", function = "sys_open", version = "2.4.17")
@Models(file = "fs/namei.c", function = "link_path_walk", version = "2.4.17")
@Models(file = "fs/open.c", function = "sys_close", version = "2.4.17")
public final class Syscalls {

  /*
   * Implementation overview
   *
   * Everything here is microseconds long; these paths matter to latency only through their
   * number (return to user mode is where vanilla reschedules, so frequent short system calls
   * make a vanilla kernel responsive) and through d_lookup's short dcache_lock holds. Lengths
   * are assumptions scaled from lmbench's null call (0.45 us; A. Marathe, "[BENCHMARK] 2.5.62
   * Lmbench performance", LKML 21 Feb 2003): that run's stat/open-close figures are not used.
   */

  /** link_path_walk's per-component loop. */
  public static final Site PATH_WALK = new Site("fs/namei.c", "link_path_walk", "link_path_walk");
  /** do_select's poll of each descriptor. */
  public static final Site DO_SELECT = new Site("fs/select.c", "do_select", "do_select");
  /** do_select's second poll of each descriptor, after the timeout. */
  public static final Site DO_SELECT_AGAIN = new Site("fs/select.c", "do_select", "do_select_again");

  /** fget + a cached copy of up to 1 KiB: assumption, 2.5 us. */
  public static final long SMALL_READ_NS = 2_500;
  /** fget + a copy of up to 1 KiB into a cached page, mark dirty: assumption, 3.5 us. */
  public static final long SMALL_WRITE_NS = 3_500;
  /** d_lookup of one component under dcache_lock: assumption, 2 DRAM misses + hash. */
  public static final long D_LOOKUP_NS = 400;
  /** permission check and follow of one component: assumption, 300 ns. */
  public static final long COMPONENT_NS = 300;
  /** get_empty_filp, dentry_open, fd install: assumption, 1.5 us. */
  public static final long OPEN_FIXED_NS = 1_500;
  /** filp_close + fput: assumption, 1 us. */
  public static final long CLOSE_NS = 1_000;
  /** One ->poll of a descriptor: assumption, 300 ns. */
  public static final long POLL_NS = 300;
  /**
   * A dcache miss on the last component: d_alloc, ext2_lookup's search of a cached directory
   * block, iget and ext2_read_inode from a cached inode-table block (a cold block would add a
   * disk read, not modelled). Assumption, 5 us.
   */
  public static final long REAL_LOOKUP_NS = 5_000;
  /** Components of a path name: assumption, 1..6. */
  public static final Distribution COMPONENTS = Distribution.uniform(1, 6);

  /** read(2) of a small buffer from a cached file. */
  public final KernelPath smallRead;
  /** write(2) of a small buffer. */
  public final KernelPath smallWrite;
  /** open(2). */
  public final KernelPath open;
  /** close(2). */
  public final KernelPath close;

  /**
   * Builds the paths for one kernel. An open or close given a {@link FileIo} (its file) looks
   * the file up in, or releases it to, {@code vfs}'s dcache; without one it stands for a hot
   * name whose dentry stays in use.
   */
  public Syscalls(Locks l, VfsCache vfs) {
    smallRead = KernelPath.path("fs/read_write.c", "sys_read").compute(SMALL_READ_NS).build();
    smallWrite = KernelPath.path("fs/read_write.c", "sys_write").compute(SMALL_WRITE_NS).build();
    open =
        KernelPath.path("fs/open.c", "sys_open")
            .call(KernelPath.path("fs/namei.c", "link_path_walk")
                .loop(PATH_WALK, COMPONENTS, c -> c
                    .spinLock(l.dcacheLock)
                    .compute(D_LOOKUP_NS)
                    .spinUnlock(l.dcacheLock)
                    .compute(COMPONENT_NS))
                .build())
            .callIf("d_lookup() missed the last component", c -> {
              FileIo io = c.syscallArgs(FileIo.class);
              return io != null && vfs.lookup(io.file());
            }, KernelPath.path("fs/namei.c", "real_lookup").compute(REAL_LOOKUP_NS).build())
            .compute(OPEN_FIXED_NS)
            .build();
    close =
        KernelPath.path("fs/open.c", "sys_close")
            .compute(CLOSE_NS)
            .effect("fput(): dput(file->f_dentry)", c -> {
              FileIo io = c.syscallArgs(FileIo.class);
              if (io != null) {
                vfs.dput(io.file());
              }
            })
            .build();
  }

  /** select(2) on {@code nfds} descriptors that stay idle for {@code timeoutNs}. */
  @Models(file = "fs/select.c", function = "do_select", version = "2.4.17")
  public KernelPath select(long nfds, long timeoutNs) {
    return KernelPath.path("fs/select.c", "do_select")
        .loop(DO_SELECT, nfds, fd -> fd.compute(POLL_NS))
        .sleepFor(timeoutNs)
        .loop(DO_SELECT_AGAIN, nfds, fd -> fd.compute(POLL_NS))
        .build();
  }

  /** A new pipe of this kernel, named for traces, for messages of 512 bytes. */
  public Pipe newPipe(String name) {
    return new Pipe(name);
  }

  /**
   * A new pipe of this kernel carrying a stream in whole pages: each write(2) a full
   * {@link Pipe#PIPE_BUF} (a stdio stream's buffer on a pipe, st_blksize), which fills the pipe,
   * and each read(2) that page.
   */
  public Pipe newPagePipe(String name) {
    return new Pipe(name, 1, Pipe.PAGE_WRITE_NS, Pipe.PAGE_READ_NS);
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    String src = "assumptions scaled from lmbench null call 0.45 us";
    Pipe sample = newPipe("table");
    return List.of(
        new CatalogEntry("sys_read (small)", smallRead, List.of(), SMALL_READ_NS, SMALL_READ_NS,
            "none: fixed", src),
        new CatalogEntry("sys_write (small)", smallWrite, List.of(), SMALL_WRITE_NS, SMALL_WRITE_NS,
            "none: fixed", src),
        new CatalogEntry("sys_open", open, List.of("dcache_lock"),
            OPEN_FIXED_NS + 4 * (D_LOOKUP_NS + COMPONENT_NS), OPEN_FIXED_NS + 6 * (D_LOOKUP_NS + COMPONENT_NS),
            "a 6-component path", src),
        new CatalogEntry("sys_close", close, List.of(), CLOSE_NS, CLOSE_NS, "none: fixed", src),
        new CatalogEntry("sys_select (16 fds)", select(16, 0), List.of(), 32 * POLL_NS, 32 * POLL_NS,
            "scales with nfds", src),
        new CatalogEntry("pipe_write", sample.write, List.of(), Pipe.PIPE_WRITE_NS, Pipe.PIPE_WRITE_NS,
            "none: one page at most", "lmbench pipe latency 8.1-8.6 us, split (see Pipe)"),
        new CatalogEntry("pipe_read", sample.read, List.of(), Pipe.PIPE_READ_NS, Pipe.PIPE_READ_NS,
            "none: one page at most", "lmbench pipe latency 8.1-8.6 us, split (see Pipe)"));
  }
}
