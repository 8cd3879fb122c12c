package dev.kernellab.workloads;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.fs.Execve.Image;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.Pipe;
import dev.kernellab.paths.fs.VfsFile;

/**
 * One job slot of {@code make -jN} over a 2.4 tree: per target make runs the two command lines
 * of Rules.make's {@code %.o: %.c} rule (2.4.17), each in a vforked child, and waits for it.
 * The compile line ({@code $(CC) $(CFLAGS) ... -c -o $@ $<}) has no shell metacharacter, so
 * the child execs the gcc driver directly. 2.4.17's arch/i386/Makefile adds {@code -pipe} to
 * CFLAGS, so gcc's driver (gcc.c execute) starts the whole chain at once, cpp, cc1 and as, each
 * vforked, cpp's output piped to cc1 and cc1's to as, and then waits for the three. The
 * flags line ({@code ( echo ...; echo ...; echo ... ) > .foo.o.flags}) has some, so the
 * child execs {@code /bin/sh -c}, and the shell forks a subshell for the parenthesis, which
 * writes the three lines with its builtin echo and exits. cpp reads the source and headers in
 * {@code chunk}-byte calls and, as it goes, writes the preprocessed text to its pipe a page at a
 * time (a stdio stream on a pipe flushes PIPE_BUF-sized buffers); cc1 maps and faults in its
 * heap, reads that text a page at a time, compiling as it reads, and writes its assembly to
 * the second pipe the same way; as assembles what it reads and writes the object in
 * {@code chunk}-byte calls. Each exec maps its program's image
 * ({@link Programs}), so each fork copies and each exit tears down the address space of the
 * program that ran; a vforked child copies nothing and its exec unmaps nothing (fs/Execve).
 * The file system is the caller's: the local page cache (kbuild) or an NFS mount over loopback
 * (stress-kernel's NFS-COMPILE).
 *
 * <p>Which call each program makes, from its source:
 * <ul>
 *   <li>GNU make 3.79 (job.c, copyright 1988-99, with the jobserver: the 3.79 of 2000-2001
 *       distributions; 3.79.1 itself not told apart):
 *       start_job_command starts every command line with {@code vfork()}, and the child's
 *       child_execute_job / exec_command {@code execvp}s the argv that
 *       construct_command_argv_internal built: the words of the line when it has none of
 *       {@code sh_chars} ({@code #;"*?[]&|<>(){}$`^~}) and starts with no shell builtin, else
 *       {@code /bin/sh -c line}.
 *   <li>gcc 2.95's driver runs each pass with libiberty's pexecute (pexecute.c, copyright
 *       1996-2000, "lives in at least two places: libiberty and gcc"), whose Unix version
 *       starts the child with {@code vfork()} and {@code execv}/{@code execvp}s the pass.
 *   <li>bash forks every child, a subshell's included, in jobs.c make_child with
 *       {@code fork()}; the bash 2 execute_cmd.c execute_command_internal forks a
 *       {@code ( list )} subshell (CMD_WANT_SUBSHELL) with make_child unconditionally (a
 *       CMD_NO_FORK shortcut into the subshell appears only in later versions). Read in
 *       copies of those files without a version line: which 2.0x release is not pinned.
 * </ul>
 *
 * <p>Simplifications: each program's work is spread evenly over what it reads (cpp's over its
 * input chunks, cc1's and as's over their input pages), so the pipes' traffic interleaves with
 * the computing at that grain; a pipe's end-of-file is the page count each reader expects;
 * the final link (ld) of the tree is not part of the loop.
 */
final class CompileJob {

  /**
   * cc1's CPU time per file of a 2.4 kernel on an 800 MHz PIII: assumption, median 270 ms (with
   * cpp's {@link #CPP_COMPUTE_NS}, 300 ms a file).
   */
  static final dev.kernellab.kernel.Distribution CC1_COMPUTE_NS =
      dev.kernellab.kernel.Distribution.logNormal(270_000_000, 0.8);
  /** cpp's CPU time per file: assumption, 30 ms (a tenth of the compile's 300 ms). */
  static final long CPP_COMPUTE_NS = 30_000_000;
  /**
   * Pages of preprocessed text cpp writes for a file: assumption, 30 (120 KiB: the 160 KiB it
   * reads less comments and #defines, plus line markers).
   */
  static final long CPP_OUT_PAGES = 30;
  /** Pages of assembly cc1 writes for a file: assumption, 24 (96 KiB, four times the object). */
  static final long CC1_OUT_PAGES = 24;
  /** Bytes cpp reads per file, source and headers: assumption, 160 KiB. */
  static final long CC1_READ_BYTES = 160 * 1024;
  /** Bytes of one object file: assumption, 24 KiB. */
  static final long CC1_OBJECT_BYTES = 24 * 1024;
  /** cc1's address space: assumption, 4 MB (1,024 pages) once its heap is up. */
  static final long CC1_PAGES = 1_024;
  /** as's CPU time per file: assumption, 30 ms (a tenth of cc1's median). */
  static final long AS_COMPUTE_NS = 30_000_000;
  /** Lines the flags command of Rules.make writes, one echo each (2.4.17 Rules.make). */
  static final long FLAGS_LINES = 3;
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
   * {@code read} is the system call cpp reads the source with and {@code write} the one as
   * writes the object with, each for one chunk;
   * {@code echo}, if not null, is make's write(2) of each command to its terminal.
   */
  TaskSpec task(Kernel24Paths paths, int job, int jobs, VfsFile[] sources, VfsFile[] objects,
      KernelPath read, KernelPath write, long chunk, KernelPath echo) {
    ChildWait makeWait = new ChildWait("make" + job);
    ChildWait gccWait = new ChildWait("gcc" + job);
    ChildWait shWait = new ChildWait("sh" + job);
    Console.TtyWrite line = new Console.TtyWrite();
    FileIo io = new FileIo();
    int[] file = {job};
    long[] at = {0};
    Pipe toCc1 = paths.syscalls().newPagePipe("cpp|cc1 " + job);
    Pipe toAs = paths.syscalls().newPagePipe("cc1|as " + job);
    long chunks = (CC1_READ_BYTES + chunk - 1) / chunk;
    long[] written = {0}; // pages cpp has written of this file
    long[] chunk0 = {0}; // input chunks cpp has read
    long[] compiled = {0}; // cc1's input pages read
    long[] emitted = {0}; // cc1's assembly pages written
    long[] cc1Ns = {0}; // this file's cc1 time
    long[] out = {0}; // where as writes the object
    FileIo asIo = new FileIo();
    KernelPath cpp =
        exec(paths, KernelPath.userProgram("cpp"), Programs.CPP)
            .syscall(paths.syscalls().open, c -> io.on(sources[file[0]], 0, 0))
            .probe((c, t, now) -> {
              at[0] = 0;
              chunk0[0] = 0;
              written[0] = 0;
            })
            .loop("read", chunks, r -> r
                .syscall(read, c -> io.on(sources[file[0]], at[0], chunk))
                .probe((c, t, now) -> {
                  at[0] += chunk;
                  chunk0[0]++;
                })
                .compute(CPP_COMPUTE_NS / chunks)
                // the pages of output due by now: stdio flushes each one as it fills
                .loopWhile("flush", c -> written[0] < CPP_OUT_PAGES * chunk0[0] / chunks, w -> w
                    .syscall(toCc1.write)
                    .probe((c, t, now) -> written[0]++)))
            .syscall(paths.syscalls().close, c -> io.on(sources[file[0]], 0, 0))
            .syscall(gccWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath cc1 =
        exec(paths, KernelPath.userProgram("cc1"), Programs.CC1)
            .syscall(paths.memory().sysMmap)
            .loop("heap", CC1_PAGES, p -> p.pageFault(paths.memory().anonymousFault))
            .probe((c, t, now) -> {
              compiled[0] = 0;
              emitted[0] = 0;
              cc1Ns[0] = c.sample(CC1_COMPUTE_NS);
            })
            .loop("compile", CPP_OUT_PAGES, r -> r
                .syscall(toCc1.read)
                .probe((c, t, now) -> compiled[0]++)
                .compute("cc1's work on that page", c -> cc1Ns[0] / CPP_OUT_PAGES)
                .loopWhile("emit", c -> emitted[0] < CC1_OUT_PAGES * compiled[0] / CPP_OUT_PAGES, w -> w
                    .syscall(toAs.write)
                    .probe((c, t, now) -> emitted[0]++)))
            .syscall(gccWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath as =
        exec(paths, KernelPath.userProgram("as"), Programs.AS)
            .loop("assemble", CC1_OUT_PAGES, r -> r
                .syscall(toAs.read)
                .compute(AS_COMPUTE_NS / CC1_OUT_PAGES))
            .probe((c, t, now) -> out[0] = 0)
            .loop("write", (CC1_OBJECT_BYTES + chunk - 1) / chunk, w -> w
                .syscall(write, c -> asIo.on(objects[file[0]], out[0], chunk))
                .probe((c, t, now) -> out[0] += chunk))
            .syscall(gccWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath gcc =
        exec(paths, KernelPath.userProgram("gcc"), Programs.GCC)
            .syscall(gccWait.forked())
            .syscall(paths.fork().sysVfork("cpp", cpp))
            .syscall(gccWait.forked())
            .syscall(paths.fork().sysVfork("cc1", cc1))
            .syscall(gccWait.forked())
            .syscall(paths.fork().sysVfork("as", as))
            .syscall(gccWait.waitUntilAtMost(0))
            .syscall(makeWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    // ( echo ...; echo ...; echo ... ) > .foo.o.flags: the subshell opens the file, writes a
    // line per echo builtin, and exits
    KernelPath subshell =
        KernelPath.userProgram("sh")
            .syscall(paths.syscalls().open)
            .loop("echo", FLAGS_LINES, e -> e.syscall(paths.syscalls().smallWrite))
            .syscall(paths.syscalls().close)
            .syscall(shWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath sh =
        exec(paths, KernelPath.userProgram("sh"), Programs.SH)
            .syscall(shWait.forked())
            .syscall(paths.fork().sysFork("sh", subshell))
            .syscall(shWait.waitUntilAtMost(0))
            .syscall(makeWait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath make =
        exec(paths, KernelPath.userProgram("make" + job), Programs.MAKE)
            .loop("targets", Long.MAX_VALUE, l -> {
              l.probe((c, t, now) -> {
                file[0] = (file[0] + jobs) % sources.length;
                compiles++;
              });
              // make echoes the compile line; Rules.make's flags line starts with @, unechoed
              if (echo != null) {
                l.syscall(echo, c -> line.of(MAKE_ECHO_BYTES));
              }
              l.syscall(makeWait.forked())
                  .syscall(paths.fork().sysVfork("gcc", gcc))
                  .syscall(makeWait.waitUntilAtMost(0))
                  .syscall(makeWait.forked())
                  .syscall(paths.fork().sysVfork("sh", sh))
                  .syscall(makeWait.waitUntilAtMost(0));
            })
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
