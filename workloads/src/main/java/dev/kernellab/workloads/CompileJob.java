package dev.kernellab.workloads;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.Execve.Image;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.VfsFile;

/**
 * One job slot of {@code make -jN}: make (exec'd by a shell) forks a child per target that
 * execs the gcc driver, which forks and execs cc1 and then as, waiting for each, as gcc 2.95
 * does without {@code -pipe}; make waits for gcc. cc1 maps and faults in its heap, reads its
 * source and headers in {@code chunk}-byte calls, computes, writes its output the same way,
 * and exits; as computes and exits. Each exec maps its program's image ({@link Programs}), so
 * each fork copies and each exit tears down the address space of the program that ran. The
 * file system is the caller's: the local page cache (kbuild) or an NFS mount over loopback
 * (stress-kernel's NFS-COMPILE).
 *
 * <p>Simplifications: cc1 writes the object (its assembler output and as's read of it are
 * folded into that write); make runs the command without a {@code sh -c} (GNU make execs a
 * command line without shell metacharacters directly); the final link (ld) of the tree is not
 * part of the loop.
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
  /** as's CPU time per file: assumption, 30 ms (a tenth of cc1's median). */
  static final long AS_COMPUTE_NS = 30_000_000;
  /** Source files of the tree, cycled: assumption, 400. */
  static final int SOURCE_FILES = 400;

  private long compiles;

  /**
   * Job {@code job} of {@code jobs}, cycling through the files {@code job, job + jobs, ...};
   * {@code read} and {@code write} are the system calls cc1 makes, each for one chunk.
   */
  TaskSpec task(Kernel24Paths paths, int job, int jobs, VfsFile[] sources, VfsFile[] objects,
      KernelPath read, KernelPath write, long chunk) {
    ChildWait makeWait = new ChildWait("make" + job);
    ChildWait gccWait = new ChildWait("gcc" + job);
    FileIo io = new FileIo();
    int[] file = {job};
    long[] at = {0};
    KernelPath cc1 =
        exec(paths, KernelPath.userProgram("cc1"), Programs.CC1)
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
            .syscall(gccWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath as =
        exec(paths, KernelPath.userProgram("as"), Programs.AS)
            .compute(AS_COMPUTE_NS)
            .syscall(gccWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath gcc =
        exec(paths, KernelPath.userProgram("gcc"), Programs.GCC)
            .syscall(gccWait.forked())
            .syscall(paths.fork().sysFork("cc1", cc1))
            .syscall(gccWait.waitUntilAtMost(0))
            .syscall(gccWait.forked())
            .syscall(paths.fork().sysFork("as", as))
            .syscall(gccWait.waitUntilAtMost(0))
            .syscall(makeWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath make =
        exec(paths, KernelPath.userProgram("make" + job), Programs.MAKE)
            .loop("targets", Long.MAX_VALUE, l -> l
                .probe((c, t, now) -> {
                  file[0] = (file[0] + jobs) % sources.length;
                  compiles++;
                })
                .syscall(makeWait.forked())
                .syscall(paths.fork().sysFork("gcc", gcc))
                .syscall(makeWait.waitUntilAtMost(0)))
            .build();
    // make starts as the shell's forked copy (the shell that ran it), then execs make
    return TaskSpec.user("make" + job, make).residentPages(Programs.SH.residentPages());
  }

  /**
   * {@code program} begun by an execve of {@code image} and the faults that bring the image
   * in, one kernel entry a page.
   */
  static KernelPath.Builder exec(Kernel24Paths paths, KernelPath.Builder program, Image image) {
    return program
        .syscall(paths.execve().sysExecve(image))
        .loop("fault-in", image.residentPages(), p -> p.pageFault(paths.execve().fileFault));
  }

  /** Compiles started so far, all jobs of this instance. */
  long compiles() {
    return compiles;
  }
}
