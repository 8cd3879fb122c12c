package dev.kernellab.workloads;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.FileIo;
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
 * ({@value #LOOKUP_PCT} %: an open and a close), or deleted (the rest). Every size and share is
 * an assumption said out loud; none is fitted to a reported throughput. With 16 clients the
 * working set is about the size of a 2002 machine's page cache, so writeback and the disk set
 * the pace, as the period's readers of dbench 16 said of it.
 */
final class Dbench {

  /** Clients of the usual run: {@code dbench 16}. */
  static final int DEFAULT_CLIENTS = 16;
  /** Files in a client's working set: assumption, 32. */
  static final int FILES_PER_CLIENT = 32;
  /** A file's size when created: assumption, log-normal with median 256 KiB. */
  static final Distribution FILE_BYTES = Distribution.logNormal(256 * 1024, 1.2);
  /** One read or write call: 4-64 KiB (SMB ReadX/WriteX of the trace; assumption). */
  static final Distribution IO_BYTES = Distribution.empirical(
      new long[] {4_096, 16_384, 65_536}, new double[] {0.5, 0.3, 0.2});
  /** Share of calls on an existing file that read a piece: assumption, 60 %. */
  static final int READ_PCT = 60;
  /** ... that write a piece: assumption, 25 %. */
  static final int WRITE_PCT = 25;
  /** ... that look it up (open + close): assumption, 12 %; the remaining 3 % delete it. */
  static final int LOOKUP_PCT = 12;
  /** A client's own work between two calls (the smbd side, parsing): assumption, 30 us. */
  static final long CLIENT_USER_NS = 30_000;

  private final List<TaskSpec> tasks = new ArrayList<>();
  private final long[] bytesMoved;
  private long operations;

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
    int file;
    int action; // 0 create, 1 read, 2 write, 3 lookup, 4 unlink
    long at;
    long len;
  }

  private KernelPath client(Kernel24Paths paths, int id) {
    Client s = new Client();
    KernelPath create =
        KernelPath.path("fs/namei.c", "open_namei: O_CREAT")
            .call(paths.syscalls().open)
            .effect("ext2_create()", c -> {
              int f = s.file;
              s.files[f] = s.files[f] == null
                  ? paths.pageCache().create("client" + id + "/f" + f, 0)
                  : paths.pageCache().recreate(s.files[f]);
              s.exists[f] = true;
              s.size[f] = Math.max(4_096, c.sample(FILE_BYTES));
              s.at = 0;
            })
            .build();
    return KernelPath.userProgram("dbench" + id)
        .loop("trace", Long.MAX_VALUE, l -> l
            .probe((c, t, now) -> pick(s, c.sample(PICK)))
            .loopWhile("create", c -> s.action == 0 && !s.exists[s.file], x -> x
                .syscall(create)
                .loopWhile("write", c -> s.at < s.size[s.file], w -> w
                    .probe((c, t, now) -> s.len = Math.min(c.sample(IO_BYTES), s.size[s.file] - s.at))
                    .syscall(paths.filemap().sysWrite, c -> s.io.on(s.files[s.file], s.at, s.len))
                    .probe((c, t, now) -> {
                      moved(id, s.len);
                      s.at += s.len;
                    })
                    .compute(CLIENT_USER_NS)))
            .loopWhile("read", c -> once(s, 1), r -> r
                .syscall(paths.filemap().sysRead, c -> s.io.on(s.files[s.file], s.at, s.len))
                .probe((c, t, now) -> moved(id, s.len)))
            .loopWhile("rewrite", c -> once(s, 2), w -> w
                .syscall(paths.filemap().sysWrite, c -> s.io.on(s.files[s.file], s.at, s.len))
                .probe((c, t, now) -> moved(id, s.len)))
            .loopWhile("lookup", c -> once(s, 3), q -> q
                .syscall(paths.syscalls().open)
                .syscall(paths.syscalls().close))
            .loopWhile("unlink", c -> once(s, 4), u -> u
                .syscall(paths.filemap().sysUnlink, c -> s.io.on(s.files[s.file], 0, 0))
                .probe((c, t, now) -> s.exists[s.file] = false))
            .compute(CLIENT_USER_NS)
            .probe((c, t, now) -> operations++))
        .build();
  }

  /** One draw for the next call's file, action and piece. */
  private static final Distribution PICK = Distribution.uniform(0, 9_999_999);

  /** Chooses the next call from one uniform draw: a file, then what to do with it. */
  private static void pick(Client s, long draw) {
    s.file = (int) (draw % FILES_PER_CLIENT);
    int pct = (int) (draw / FILES_PER_CLIENT % 100);
    if (!s.exists[s.file]) {
      s.action = 0;
      return;
    }
    s.action = pct < READ_PCT ? 1 : pct < READ_PCT + WRITE_PCT ? 2 : pct < READ_PCT + WRITE_PCT + LOOKUP_PCT ? 3 : 4;
    long size = s.size[s.file];
    s.len = Math.min(size, 16_384 + (draw % 3) * 24_576); // 16, 40 or 64 KiB, at most the file
    s.at = size > s.len ? (draw / 97) % (size - s.len) / 4_096 * 4_096 : 0;
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

  /** dbench's figure: 10^-6 x bytes moved / seconds. */
  double throughputMbPerS(long elapsedNs) {
    return elapsedNs <= 0 ? 0 : bytesMoved() / 1e6 / (elapsedNs / 1e9);
  }
}
