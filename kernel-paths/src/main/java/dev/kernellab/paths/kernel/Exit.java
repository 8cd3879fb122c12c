package dev.kernellab.paths.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models kernel/exit.c {@code do_exit()} (2.4.17): {@code __exit_mm} (mm/mmap.c
 * {@code exit_mmap}), then, under the big kernel lock, {@code __exit_files} /
 * {@code close_files} and {@code exit_notify}, then the last {@code schedule()}.
 */
@Models(file = "kernel/exit.c", function = "do_exit", version = "2.4.17")
@Models(file = "kernel/exit.c", function = "close_files", version = "2.4.17")
public final class Exit {

  /*
   * Implementation overview
   *
   * do_exit drops the address space first (the long part for a big process: exit_mmap's
   * zap_page_range holds page_table_lock over every pte); __exit_mm's mm_release wakes a
   * vfork parent, and mmput tears the mm down only for its last user, so a vforked child
   * that exits without exec leaves its parent's mm whole. Then it takes lock_kernel() and keeps
   * it to the end: close_files runs under the BKL, and exit_notify takes
   * write_lock_irq(&tasklist_lock). There is no unlock_kernel(): the final schedule()
   * releases the BKL (release_kernel_lock) and the zombie never runs to retake it, so with
   * CONFIG_PREEMPT do_exit is not preemptible from lock_kernel() on.
   */

  /** close_files' loop over open descriptors, BKL held. */
  public static final Site CLOSE_FILES = new Site("kernel/exit.c", "close_files", "close_files");

  /** filp_close of one file: assumption, 1 us. */
  public static final long FILP_CLOSE_NS = 1_000;
  /** exit_notify under write_lock_irq(tasklist_lock): assumption, 2 us. */
  public static final long EXIT_NOTIFY_NS = 2_000;
  /** The rest of do_exit (sem_exit, exit_fs, exit_sighand): assumption, 5 us. */
  public static final long EXIT_FIXED_NS = 5_000;

  /** exit(2): the whole of do_exit; the task becomes a zombie at its end. */
  public final KernelPath sysExit;

  private final PathParams params;
  private final long exitMmapTypical;
  private final long exitMmapTail;

  /** Builds the path for one kernel around {@code exitMmap} (see mm/Memory). */
  public Exit(Locks l, PathParams params, KernelPath exitMmap, CatalogEntry exitMmapEntry) {
    this.params = params;
    this.exitMmapTypical = exitMmapEntry.typicalNs();
    this.exitMmapTail = exitMmapEntry.tailNs();
    sysExit =
        KernelPath.path("kernel/exit.c", "do_exit")
            .mmRelease()
            .callIf("mmput: the last user of the mm tears it down (a vforked child's is its parent's)",
                c -> c.current().mm() == null || c.current().mm().users() == 1, exitMmap)
            .lockKernel(l.kernelFlag)
            .compute(EXIT_FIXED_NS)
            .call(KernelPath.path("kernel/exit.c", "close_files")
                .loop(CLOSE_FILES, params.openFiles(), f -> f.compute(FILP_CLOSE_NS))
                .build())
            .localIrqDisable()
            .writeLock(l.tasklistLock)
            .compute(EXIT_NOTIFY_NS)
            .writeUnlock(l.tasklistLock)
            .localIrqEnable()
            .exit()
            .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution files = params.openFiles();
    long fixed = EXIT_FIXED_NS + EXIT_NOTIFY_NS;
    return List.of(
        new CatalogEntry(
            "sys_exit", sysExit, List.of("page_table_lock", "kernel_flag", "tasklist_lock (irq)"),
            exitMmapTypical + fixed + Quantiles.typical(files) * FILP_CLOSE_NS,
            exitMmapTail + fixed + Quantiles.tail(files) * FILP_CLOSE_NS,
            "a ~100 MB process exits (exit_mmap tail); a server with many files open",
            "exit_mmap row + 1 us/file under the BKL (assumption)"));
  }
}
