package dev.kernellab.workloads;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayList;
import java.util.List;

/**
 * A kernel build, {@code make -jN}, on the local disk: N job slots, each forking a gcc driver
 * whose cc1 maps and faults in its heap, reads its source and headers through the page cache
 * (cold the first time, cached after), computes, writes its object, and exits, while make
 * waits for it. The file sizes and cc1's times are StressMix's, with the same sources.
 */
final class KernelBuild {

  /** {@code make -j2} (assumption: the common invocation on a uniprocessor of 2002). */
  static final int DEFAULT_JOBS = 2;
  /** The read and write size of gcc's stdio: 4 KiB (assumption). */
  static final long STDIO = 4_096;

  private final List<TaskSpec> tasks = new ArrayList<>();
  private final VfsFile[] sources = new VfsFile[StressMix.SOURCE_FILES];
  private final VfsFile[] objects = new VfsFile[StressMix.SOURCE_FILES];
  private long compiles;

  KernelBuild(Kernel24Paths paths, int jobs) {
    if (jobs < 1) {
      throw new IllegalArgumentException("make needs at least one job, got " + jobs);
    }
    for (int j = 0; j < jobs; j++) {
      tasks.add(job(paths, j, jobs));
    }
  }

  private TaskSpec job(Kernel24Paths paths, int j, int jobs) {
    ChildWait wait = new ChildWait("make" + j);
    FileIo io = new FileIo();
    int[] file = {j};
    long[] at = {0};
    KernelPath cc1 =
        KernelPath.userProgram("cc1")
            .syscall(paths.memory().sysMmap)
            .loop("heap", StressMix.CC1_PAGES, p -> p.pageFault(paths.memory().anonymousFault))
            .syscall(paths.syscalls().open)
            .probe((c, t, now) -> at[0] = 0)
            .loop("read", StressMix.CC1_READ_BYTES / STDIO, r -> r
                .syscall(paths.filemap().sysRead, c -> io.on(sources[file[0]], at[0], STDIO))
                .probe((c, t, now) -> at[0] += STDIO))
            .compute(StressMix.CC1_COMPUTE_NS)
            .probe((c, t, now) -> at[0] = 0)
            .loop("write", StressMix.CC1_OBJECT_BYTES / STDIO, w -> w
                .syscall(paths.filemap().sysWrite, c -> io.on(objects[file[0]], at[0], STDIO))
                .probe((c, t, now) -> at[0] += STDIO))
            .syscall(paths.syscalls().close)
            .syscall(wait.exiting())
            .syscall(paths.exit().sysExit)
            .build();
    KernelPath make =
        KernelPath.userProgram("make" + j)
            .loop("targets", Long.MAX_VALUE, l -> l
                .probe((c, t, now) -> {
                  file[0] = (file[0] + jobs) % StressMix.SOURCE_FILES;
                  compiles++;
                })
                .syscall(wait.forked())
                .syscall(paths.fork().sysFork("cc1", cc1))
                .syscall(wait.waitUntilAtMost(0)))
            .build();
    return TaskSpec.user("make" + j, make).residentPages(StressMix.CC1_PAGES / 4);
  }

  /** The tree's files, on disk and not cached. */
  void createFiles(PageCache pc) {
    long pages = (StressMix.CC1_READ_BYTES + PageCache.PAGE_SIZE - 1) / PageCache.PAGE_SIZE;
    for (int i = 0; i < sources.length; i++) {
      sources[i] = pc.create("linux/src" + i + ".c", pages);
      objects[i] = pc.create("linux/src" + i + ".o", 0);
    }
  }

  List<TaskSpec> tasks() {
    return tasks;
  }

  long compiles() {
    return compiles;
  }
}
