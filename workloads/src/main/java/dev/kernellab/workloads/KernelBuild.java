package dev.kernellab.workloads;

import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayList;
import java.util.List;

/**
 * A kernel build, {@code make -jN}, on the local disk: N {@link CompileJob}s reading their
 * sources through the page cache (cold the first time, cached after) in gcc's 4 KiB stdio
 * calls and writing their objects there.
 */
final class KernelBuild {

  /** {@code make -j2} (assumption: the common invocation on a uniprocessor of 2002). */
  static final int DEFAULT_JOBS = 2;
  /** The read and write size of gcc's stdio: 4 KiB (assumption). */
  static final long STDIO = 4_096;

  private final List<TaskSpec> tasks = new ArrayList<>();
  private final VfsFile[] sources = new VfsFile[CompileJob.SOURCE_FILES];
  private final VfsFile[] objects = new VfsFile[CompileJob.SOURCE_FILES];
  private final CompileJob compile = new CompileJob();

  KernelBuild(Kernel24Paths paths, int jobs) {
    if (jobs < 1) {
      throw new IllegalArgumentException("make needs at least one job, got " + jobs);
    }
    for (int j = 0; j < jobs; j++) {
      // make echoes each command to its terminal, the console (assumption: the build runs at a
      // VGA text console, not in an xterm, whose pty's writes the kernel does not draw).
      tasks.add(compile.task(paths, j, jobs, sources, objects, paths.filemap().sysRead,
          paths.filemap().sysWrite, STDIO, paths.console().ttyWrite));
    }
  }

  /** The tree's files, on disk and not cached. */
  void createFiles(PageCache pc) {
    long pages = (CompileJob.CC1_READ_BYTES + PageCache.PAGE_SIZE - 1) / PageCache.PAGE_SIZE;
    for (int i = 0; i < sources.length; i++) {
      sources[i] = pc.create("linux/src" + i + ".c", pages);
      objects[i] = pc.create("linux/src" + i + ".o", 0);
    }
  }

  List<TaskSpec> tasks() {
    return tasks;
  }

  long compiles() {
    return compile.compiles();
  }
}
