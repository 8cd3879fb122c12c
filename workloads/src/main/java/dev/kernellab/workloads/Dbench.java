package dev.kernellab.workloads;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.Readdir;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayList;
import java.util.List;

/**
 * dbench (Andrew Tridgell): N client processes replaying the file-system side of a NetBench
 * trace in their own directories: files created and written, read and rewritten in pieces,
 * their attributes looked up, and deleted. Throughput is the data the clients moved over the
 * time they took, as dbench prints it ({@code Throughput X MB/sec}, X = bytes / 10^6 / seconds;
 * over the whole trace of 132 MB a client, dbench's {@code 132 * N / t}).
 *
 * <p>The trace is synthetic, shaped after the NetBench client.txt it replays: each client keeps
 * a working set of {@value #FILES_PER_CLIENT} files and, call after call, picks one at random:
 * a file that does not exist is created and written whole; one that does is read in a piece
 * ({@value #READ_PCT} %), written in a piece ({@value #WRITE_PCT} %), looked up
 * ({@value #LOOKUP_PCT} %: an open and a close), its directory listed ({@value #FIND_PCT} %: a
 * FIND_FIRST, which dbench 1.2's fileio.c nb_findfirst runs as opendir, readdir to the end and
 * closedir, each empty buffer a getdents64 under vfs_readdir's BKL), or deleted (the rest). The
 * one measured figure
 * the sizes answer to is the trace's data per operation: client.txt holds about 90,000
 * operations a client (dbench README, Tridgell) over which a client moves 132 MB (dbench's
 * {@code 132 * N / t}), about {@value #TRACE_BYTES_PER_OP} bytes an operation; the shares and
 * the size distributions are assumptions chosen within that budget, never fitted to a reported
 * throughput ({@code DbenchTests} checks the budget). A client's files then total well under a
 * megabyte, so with 16 clients the data stays in the page cache, as the period's readers of
 * dbench 16 said of it (Morton and van Riel on linux-kernel, 2002), and the load is the
 * system calls, the page cache and writeback rather than reads from the disk.
 */
final class Dbench {

  /** Clients of the usual run: {@code dbench 16}. */
  static final int DEFAULT_CLIENTS = 16;
  /** Files in a client's working set: assumption, 32. */
  static final int FILES_PER_CLIENT = 32;
  /**
   * Data an operation of the trace moves on average: 132 MB a client (dbench 1.x, {@code
   * 132 * N / t}) over the about 90,000 operations of client.txt (dbench README).
   */
  static final long TRACE_BYTES_PER_OP = 132_000_000L / 90_000;
  /**
   * A file's size when created: assumption, log-normal with median 16 KiB (the office
   * documents of a NetBench client's tree; small enough that creating files stays within
   * {@link #TRACE_BYTES_PER_OP}).
   */
  static final Distribution FILE_BYTES = Distribution.logNormal(16 * 1024, 1.2);
  /** One write call while a file is created: assumption, 4 KiB (a page; SMB WriteX). */
  static final Distribution IO_BYTES = Distribution.fixed(4_096);
  /**
   * One read or write of a piece of an existing file: assumption, 512 B, 1 KiB or 4 KiB
   * (SMB ReadX/WriteX of application records), within {@link #TRACE_BYTES_PER_OP}.
   */
  static final Distribution PIECE_BYTES = Distribution.empirical(
      new long[] {512, 1_024, 4_096}, new double[] {0.4, 0.4, 0.2});
  /** Share of calls on an existing file that read a piece: assumption, 60 %. */
  static final int READ_PCT = 60;
  /** ... that write a piece: assumption, 25 %. */
  static final int WRITE_PCT = 25;
  /** ... that look it up (open + close): assumption, 9 %. */
  static final int LOOKUP_PCT = 9;
  /**
   * ... that list the client's directory (client.txt's FIND_FIRST): assumption, 3 %, taken from
   * the lookups (an application lists a folder before it opens in it; client.txt's own share
   * was not counted here); the remaining 3 % delete it.
   */
  static final int FIND_PCT = 3;
  /**
   * Bytes of a name in a client's directory: client.txt's names are DOS 8.3 ones (CHAP10.DOC,
   * NEWPCB.PPT): assumption, 12.
   */
  static final long NAME_BYTES = 12;
  /** A client's own work between two calls (the smbd side, parsing): assumption, 30 us. */
  static final long CLIENT_USER_NS = 30_000;

  private final List<TaskSpec> tasks = new ArrayList<>();
  private final long[] bytesMoved;
  private long operations;
  private long syscalls;

  Dbench(Kernel24Paths paths, int clients) {
    if (clients < 1) {
      throw new IllegalArgumentException("dbench needs at least one client, got " + clients);
    }
    bytesMoved = new long[clients];
    for (int i = 0; i < clients; i++) {
      tasks.add(TaskSpec.user("dbench" + i, client(paths, i)));
    }
  }

  /** One client's state, updated by its program between calls (in user mode). */
  private static final class Client {
    final VfsFile[] files = new VfsFile[FILES_PER_CLIENT];
    final boolean[] exists = new boolean[FILES_PER_CLIENT];
    final long[] size = new long[FILES_PER_CLIENT];
    final FileIo io = new FileIo();
    final Readdir.Getdents getdents = new Readdir.Getdents();
    Readdir.Directory dir;
    int file;
    int action; // 0 create, 1 read, 2 write, 3 lookup, 4 unlink, 5 find first
    long at;
    long len;
  }

  private KernelPath client(Kernel24Paths paths, int id) {
    Client s = new Client();
    // the client's directory: pinned in the dcache by its children (each d_parent holds it)
    VfsFile dirInode = paths.pageCache().create("client" + id, 1);
    paths.vfsCache().create(dirInode);
    s.dir = new Readdir.Directory(dirInode, NAME_BYTES);
    KernelPath create =
        KernelPath.path("fs/namei.c", "open_namei: O_CREAT")
            .call(paths.syscalls().open)
            .effect("ext2_create()", c -> {
              int f = s.file;
              s.files[f] = s.files[f] == null
                  ? paths.pageCache().create("client" + id + "/f" + f, 0)
                  : paths.pageCache().recreate(s.files[f]);
              // the client holds the new file open until it deletes it (fs/VfsCache.unlink)
              paths.vfsCache().create(s.files[f]);
              s.exists[f] = true;
              s.size[f] = Math.max(4_096, c.sample(FILE_BYTES));
              s.at = 0;
            })
            .build();
    return KernelPath.userProgram("dbench" + id)
        .loop("trace", Long.MAX_VALUE, l -> l
            .probe((c, t, now) -> pick(s, c.sample(PICK), c.sample(PIECE_BYTES)))
            .loopWhile("create", c -> s.action == 0 && !s.exists[s.file], x -> x
                .syscall(create)
                .probe((c, t, now) -> syscalls++)
                .loopWhile("write", c -> s.at < s.size[s.file], w -> w
                    .probe((c, t, now) -> s.len = Math.min(c.sample(IO_BYTES), s.size[s.file] - s.at))
                    .syscall(paths.filemap().sysWrite, c -> s.io.on(s.files[s.file], s.at, s.len))
                    .probe((c, t, now) -> {
                      moved(id, s.len);
                      syscalls++;
                      s.at += s.len;
                    })
                    .compute(CLIENT_USER_NS)))
            .loopWhile("read", c -> once(s, 1), r -> r
                .syscall(paths.filemap().sysRead, c -> s.io.on(s.files[s.file], s.at, s.len))
                .probe((c, t, now) -> {
                  moved(id, s.len);
                  syscalls++;
                }))
            .loopWhile("rewrite", c -> once(s, 2), w -> w
                .syscall(paths.filemap().sysWrite, c -> s.io.on(s.files[s.file], s.at, s.len))
                .probe((c, t, now) -> {
                  moved(id, s.len);
                  syscalls++;
                }))
            .loopWhile("lookup", c -> once(s, 3), q -> q
                .syscall(paths.syscalls().open, c -> s.io.on(s.files[s.file], 0, 0))
                .syscall(paths.syscalls().close, c -> s.io.on(s.files[s.file], 0, 0))
                .probe((c, t, now) -> syscalls += 2))
            .loopWhile("find_first", c -> once(s, 5), f -> f
                .syscall(paths.syscalls().open) // opendir: open(O_DIRECTORY) of its own directory
                .probe((c, t, now) -> {
                  s.dir.entries(2 + existing(s));
                  s.getdents.open(s.dir);
                })
                .loopWhile("readdir", c -> !s.getdents.atEnd(), r -> r
                    .syscall(paths.readdir().getdents, c -> s.getdents)
                    .probe((c, t, now) -> syscalls++))
                .syscall(paths.syscalls().close)
                .probe((c, t, now) -> syscalls += 2))
            .loopWhile("unlink", c -> once(s, 4), u -> u
                .syscall(paths.filemap().sysUnlink, c -> s.io.on(s.files[s.file], 0, 0))
                .probe((c, t, now) -> {
                  s.exists[s.file] = false;
                  syscalls++;
                }))
            .compute(CLIENT_USER_NS)
            .probe((c, t, now) -> operations++))
        .build();
  }

  /** One draw for the next call's file, action and piece. */
  private static final Distribution PICK = Distribution.uniform(0, 9_999_999);

  /** Chooses the next call from one uniform draw (a file, then what to do) and a piece size. */
  private static void pick(Client s, long draw, long piece) {
    s.file = (int) (draw % FILES_PER_CLIENT);
    int pct = (int) (draw / FILES_PER_CLIENT % 100);
    if (!s.exists[s.file]) {
      s.action = 0;
      return;
    }
    s.action = pct < READ_PCT ? 1
        : pct < READ_PCT + WRITE_PCT ? 2
        : pct < READ_PCT + WRITE_PCT + LOOKUP_PCT ? 3
        : pct < READ_PCT + WRITE_PCT + LOOKUP_PCT + FIND_PCT ? 5
        : 4;
    long size = s.size[s.file];
    s.len = Math.min(size, piece);
    s.at = size > s.len ? (draw / 97) % (size - s.len) / 512 * 512 : 0;
  }

  /** The client's files that exist: its directory's entries besides . and .. */
  private static long existing(Client s) {
    long n = 0;
    for (boolean e : s.exists) {
      if (e) {
        n++;
      }
    }
    return n;
  }

  /**
   * True once for the picked action: a user program's "if", written as a loop that runs its
   * body 0 or 1 times (the path language has no branch for user code).
   */
  private static boolean once(Client s, int action) {
    if (s.action == action) {
      s.action = -1;
      return true;
    }
    return false;
  }

  private void moved(int client, long bytes) {
    bytesMoved[client] += bytes;
  }

  List<TaskSpec> tasks() {
    return tasks;
  }

  /** Bytes all clients moved so far. */
  long bytesMoved() {
    long sum = 0;
    for (long b : bytesMoved) {
      sum += b;
    }
    return sum;
  }

  /** Files gone through so far, all clients. */
  long operations() {
    return operations;
  }

  /** System calls all clients made so far: the trace's operations. */
  long syscalls() {
    return syscalls;
  }

  /** dbench's figure: 10^-6 x bytes moved / seconds. */
  double throughputMbPerS(long elapsedNs) {
    return elapsedNs <= 0 ? 0 : bytesMoved() / 1e6 / (elapsedNs / 1e9);
  }
}
