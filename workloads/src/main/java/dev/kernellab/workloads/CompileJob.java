package dev.kernellab.workloads;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.VfsFile;

/**
 * One job slot of {@code make -jN}: make forks a cc1 per target and waits for it; cc1 maps and
 * faults in its heap, reads its source and headers in {@code chunk}-byte calls, computes,
 * writes its object the same way, and exits. The file system is the caller's: the local page
 * cache (kbuild) or an NFS mount over loopback (stress-kernel's NFS-COMPILE).
 */
final class CompileJob {

  /** cc1's CPU time per file of a 2.4 kernel on an 800 MHz PIII: assumption, median 300 ms. */
  static final dev.kernellab.kernel.Distribution CC1_COMPUTE_NS =
      dev.kernellab.kernel.Distribution.logNormal(300_000_000, 0.8);
  /** Bytes cc1 reads per file, source and headers: assumption, 160 KiB. */
  static final long CC1_READ_BYTES = 160 * 1024;
  /** Bytes of one object file: assumption, 24 KiB. */
  static final long CC1_OBJECT_BYTES = 24 * 1024;
  /** cc1's address space: assumption, 4 MB (1,024 pages) once its heap is up. */
  static final long CC1_PAGES = 1_024;
  /** Source files of the tree, cycled: assumption, 400. */
  static final int SOURCE_FILES = 400;
  /**
   * The command make echoes before each compile: 2.4.17 Rules.make's %.o rule with the top
   * Makefile's CFLAGS and arch/i386's (-pipe, -mpreferred-stack-boundary=2, -march=i686) in
   * /usr/src/linux-2.4.17, for a file of 5 letters, counted: 215 bytes and the newline.
   */
  static final long MAKE_ECHO_BYTES = 216;

  private long compiles;

  /**
   * Job {@code job} of {@code jobs}, cycling through the files {@code job, job + jobs, ...};
   * {@code read} and {@code write} are the system calls cc1 makes, each for one chunk;
   * {@code echo}, if not null, is make's write(2) of each command to its terminal.
   */
  TaskSpec task(Kernel24Paths paths, int job, int jobs, VfsFile[] sources, VfsFile[] objects,
      KernelPath read, KernelPath write, long chunk, KernelPath echo) {
    ChildWait wait = new ChildWait("make" + job);
    Console.TtyWrite line = new Console.TtyWrite();
    FileIo io = new FileIo();
    int[] file = {job};
    long[] at = {0};
    KernelPath cc1 =
        KernelPath.userProgram("cc1")
            .syscall(paths.memory().sysMmap)
            .loop("heap", CC1_PAGES, p -> p.pageFault(paths.memory().anonymousFault))
            .syscall(paths.syscalls().open)
            .probe((c, t, now) -> at[0] = 0)
            .loop("read", (CC1_READ_BYTES + chunk - 1) / chunk, r -> r
                .syscall(read, c -> io.on(sources[file[0]], at[0], chunk))
                .probe((c, t, now) -> at[0] += chunk))
            .compute(CC1_COMPUTE_NS)
            .probe((c, t, now) -> at[0] = 0)
            .loop("write", (CC1_OBJECT_BYTES + chunk - 1) / chunk, w -> w
                .syscall(write, c -> io.on(objects[file[0]], at[0], chunk))
                .probe((c, t, now) -> at[0] += chunk))
            .syscall(paths.syscalls().close)
            .syscall(wait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath make =
        KernelPath.userProgram("make" + job)
            .loop("targets", Long.MAX_VALUE, l -> {
              l.probe((c, t, now) -> {
                file[0] = (file[0] + jobs) % sources.length;
                compiles++;
              });
              if (echo != null) {
                l.syscall(echo, c -> line.of(MAKE_ECHO_BYTES));
              }
              l.syscall(wait.forked())
                  .syscall(paths.fork().sysFork("cc1", cc1))
                  .syscall(wait.waitUntilAtMost(0));
            })
            .build();
    return TaskSpec.user("make" + job, make).residentPages(CC1_PAGES / 4);
  }

  /** Compiles started so far, all jobs of this instance. */
  long compiles() {
    return compiles;
  }
}
