package dev.kernellab.workloads;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.Pipe;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.net.Net;
import java.util.ArrayList;
import java.util.List;

/**
 * The heavy load of the Red Hat latency test: Red Hat's stress-kernel package (the Cerberus test
 * control system) as the March 2002 whitepaper ran it, each of its components a user program
 * over the catalog:
 *
 * <ul>
 *   <li><b>NFS-COMPILE</b>: kernel compiles over a loopback NFS mount: {@value #COMPILE_JOBS}
 *       make jobs, each running gcc -pipe: cpp reads the source and headers through NFS (rsize
 *       RPCs to the nfsd threads, which read the page cache) and pipes them to cc1, which
 *       compiles and pipes its assembly to as, which writes the object through NFS;
 *   <li><b>TTCP</b>: a transfer over loopback TCP, a sender and a receiver of 16 KiB segments;
 *   <li><b>FIFOS_MMAP</b>: two processes passing messages through a FIFO, and a process that
 *       maps anonymous memory, touches it page by page and unmaps it;
 *   <li><b>P3_FPU</b>: floating-point matrix work, a CPU hog in user mode;
 *   <li><b>FS</b>: file-system churn: create a file, write it, read it back, unlink it;
 *   <li><b>CRASHME</b>: processes that fork children which fault pages in and die of a signal,
 *       dumping core when the load's {@code RLIMIT_CORE} lets them ({@link #StressMix(Kernel24Paths,
 *       long)}).
 * </ul>
 *
 * <p>Each program has the address space of {@link Programs} (P3_FPU its matrices, the others
 * a small C tool's), one vma of that size, so swap_out's walk and crashme's forks see them.
 *
 * <p>The component list follows the package as recalled in the whitepaper's setup (the exact
 * list is not in the surviving text); every size and time below is an assumption said out loud,
 * none fitted to the reports' results.
 */
final class StressMix {

  /** make jobs of NFS-COMPILE: {@code make -j2}, the stress-kernel default (assumption). */
  static final int COMPILE_JOBS = 2;
  /** ttcp's user work between two segments (buffer fill, loop): assumption, 20 us. */
  static final long TTCP_USER_NS = 20_000;
  /** FIFO messages' user work on either side: assumption, 50 us. */
  static final long FIFO_USER_NS = 50_000;
  /** Pages the mmap stress touches per round: assumption, 2,048 (8 MB). */
  static final long MMAP_PAGES = 2_048;
  /** P3_FPU's matrix block between two checks of the clock: assumption, 10 ms of user time. */
  static final long FPU_BLOCK_NS = 10_000_000;
  /** FS churn: file size, assumption 1 MB, written and read in 64 KiB calls. */
  static final long FS_FILE_BYTES = 1L << 20;
  /** FS churn's I/O size per call: 64 KiB (assumption). */
  static final long FS_CHUNK = 64 * 1024;
  /** CRASHME: pages a doomed child faults in before it dies, assumption median 64. */
  static final Distribution CRASHME_PAGES = Distribution.logNormal(64, 1.0);
  /** CRASHME's pause between forks: assumption, 20 ms. */
  static final long CRASHME_PAUSE_NS = 20_000_000;
  /**
   * RLIMIT_CORE of the load, bytes: 0, {@code ulimit -c 0}. crashme sets no limit of its own
   * (crashme.c 2.4, G. Carrette: no setrlimit), so its children have the shell's: the kernel
   * starts init with a soft core limit of 0 (2.4.17 include/asm-i386/resource.h INIT_RLIMITS),
   * and that Red Hat's /etc/profile kept it there ("ulimit -S -c 0", recalled) and that
   * stress-kernel's harness did not raise it are assumptions.
   */
  static final long DEFAULT_CORE_LIMIT = 0;

  private final Kernel24Paths paths;
  private final long coreLimitBytes;
  private final LoopbackNfs nfs;
  private final List<TaskSpec> tasks = new ArrayList<>();
  private final List<String> mustRun = new ArrayList<>();
  private final VfsFile[] sources = new VfsFile[CompileJob.SOURCE_FILES];
  private final VfsFile[] objects = new VfsFile[CompileJob.SOURCE_FILES];
  private final CompileJob compile = new CompileJob();
  private long ttcpSegments;
  private long fsRounds;

  StressMix(Kernel24Paths paths) {
    this(paths, DEFAULT_CORE_LIMIT);
  }

  /** The mix with crashme's children under {@code ulimit -c} of {@code coreLimitBytes}. */
  StressMix(Kernel24Paths paths, long coreLimitBytes) {
    this.paths = paths;
    this.coreLimitBytes = coreLimitBytes;
    this.nfs = new LoopbackNfs(paths, COMPILE_JOBS);
    tasks.addAll(nfs.daemons());
    for (int j = 0; j < COMPILE_JOBS; j++) {
      addCompileJob(j);
    }
    addTtcp();
    addFifosMmap();
    add(TaskSpec.user("p3_fpu", KernelPath.userProgram("p3_fpu")
        .loop("matrix", Long.MAX_VALUE, l -> l.compute(FPU_BLOCK_NS)).build())
        .residentPages(Programs.P3_FPU.residentPages()), true);
    addFsChurn();
    addCrashme();
  }

  private void add(TaskSpec t, boolean mustKeepRunning) {
    tasks.add(t);
    if (mustKeepRunning) {
      mustRun.add(t.comm());
    }
  }

  /** Files of the tree, made when the kernel starts (their pages are on disk, none cached). */
  void createFiles() {
    for (int i = 0; i < sources.length; i++) {
      sources[i] = nfs.create("src" + i + ".c", CompileJob.CC1_READ_BYTES);
      objects[i] = nfs.create("src" + i + ".o", 0);
    }
  }

  private void addCompileJob(int job) {
    // make sleeps in wait4 for as long as its compile takes under the load: not a must-run.
    // The harness logs make's output to a file (assumption), so no command reaches a terminal.
    add(compile.task(paths, job, COMPILE_JOBS, sources, objects, nfs.call(job, false), nfs.call(job, true),
        LoopbackNfs.RSIZE, null), false);
  }

  private void addTtcp() {
    Net.Connection conn = paths.net().newConnection("ttcp");
    add(TaskSpec.user("ttcp-t", KernelPath.userProgram("ttcp-t")
        .loop("send", Long.MAX_VALUE, l -> l.compute(TTCP_USER_NS).syscall(conn.send)
            .probe((c, t, now) -> ttcpSegments++)).build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
    add(TaskSpec.user("ttcp-r", KernelPath.userProgram("ttcp-r")
        .loop("recv", Long.MAX_VALUE, l -> l.syscall(conn.recv).compute(TTCP_USER_NS)).build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
  }

  private void addFifosMmap() {
    Pipe fifo = paths.syscalls().newPipe("fifo");
    add(TaskSpec.user("fifo-w", KernelPath.userProgram("fifo-w")
        .loop("w", Long.MAX_VALUE, l -> l.compute(FIFO_USER_NS).syscall(fifo.write)).build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
    add(TaskSpec.user("fifo-r", KernelPath.userProgram("fifo-r")
        .loop("r", Long.MAX_VALUE, l -> l.syscall(fifo.read).compute(FIFO_USER_NS)).build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
    add(TaskSpec.user("mmap", KernelPath.userProgram("mmap")
        .loop("round", Long.MAX_VALUE, l -> l
            .syscall(paths.memory().sysMmap)
            .loop("touch", MMAP_PAGES, p -> p.pageFault(paths.memory().anonymousFault).compute(1_000))
            .syscall(paths.memory().sysMunmap))
        .build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
  }

  private void addFsChurn() {
    FileIo io = new FileIo();
    VfsFile[] f = {null};
    long calls = FS_FILE_BYTES / FS_CHUNK;
    long[] at = {0};
    KernelPath creat =
        KernelPath.path("fs/namei.c", "open_namei: O_CREAT")
            .call(paths.syscalls().open)
            .effect("ext2_create(): a new inode (the last one's, reused)", c -> {
              f[0] = f[0] == null ? paths.pageCache().create("churn", 0) : paths.pageCache().recreate(f[0]);
              paths.vfsCache().create(f[0]); // held open until the unlink (fs/VfsCache.unlink)
              at[0] = 0;
            })
            .build();
    add(TaskSpec.user("fs-churn", KernelPath.userProgram("fs-churn")
        .loop("round", Long.MAX_VALUE, l -> l
            .syscall(creat)
            .loop("write", calls, w -> w
                .syscall(paths.filemap().sysWrite, c -> io.on(f[0], at[0], FS_CHUNK))
                .probe((c, t, now) -> at[0] += FS_CHUNK))
            .probe((c, t, now) -> at[0] = 0)
            .loop("read", calls, r -> r
                .syscall(paths.filemap().sysRead, c -> io.on(f[0], at[0], FS_CHUNK))
                .probe((c, t, now) -> at[0] += FS_CHUNK))
            .syscall(paths.filemap().sysUnlink, c -> io.on(f[0], 0, 0))
            .probe((c, t, now) -> fsRounds++))
        .build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
  }

  private void addCrashme() {
    // A crashme subprocess jumps into random bytes until one of them breaks it beyond its
    // SIGSEGV/SIGILL handler (crashme.c badboy_loop, again_handler): the child here dies of that
    // fault's signal, do_signal's default action, which goes through do_coredump. Every child
    // dying so, none reaching exit() after its tries, is an assumption.
    KernelPath doomed =
        KernelPath.userProgram("crashme-child")
            .syscall(paths.memory().sysMmap)
            .loop("touch", CRASHME_PAGES, p -> p.pageFault(paths.memory().anonymousFault))
            .pageFault(paths.coredump().fatalSignal(coreLimitBytes))
            .build();
    add(TaskSpec.user("crashme", KernelPath.userProgram("crashme")
        .loop("fork", Long.MAX_VALUE, l -> l
            .syscall(paths.fork().sysFork("crashme-child", doomed))
            .syscall(Timer.sysNanosleep(CRASHME_PAUSE_NS)))
        .build()).residentPages(Programs.SMALL_TOOL.residentPages()), true);
  }

  List<TaskSpec> tasks() {
    return tasks;
  }

  List<String> mustRun() {
    return mustRun;
  }

  long compiles() {
    return compile.compiles();
  }

  long nfsRpcs() {
    return nfs.rpcs();
  }

  long ttcpSegments() {
    return ttcpSegments;
  }

  long fsRounds() {
    return fsRounds;
  }

}
