package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.PTE_TEST_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models fs/proc/array.c {@code proc_pid_statm()} with {@code statm_pgd_range()} /
 * {@code statm_pte_range()} (2.4.17): what {@code top} and {@code ps} make the kernel do for
 * every process on every refresh, and the /proc/meminfo read ({@code meminfo_read_proc}).
 */
@Models(file = "fs/proc/array.c", function = "proc_pid_statm", version = "2.4.17")
@Models(file = "fs/proc/array.c", function = "statm_pte_range", version = "2.4.17")
@Models(file = "fs/proc/proc_misc.c", function = "meminfo_read_proc", version = "2.4.17")
public final class Proc {

  /*
   * Implementation overview
   *
   * statm walks every pte of the process's address space holding only mmap_sem (a sleeping
   * semaphore, not modelled): no spinlock, so the preempt patch can preempt it anywhere, but
   * vanilla has no reschedule point in it. The low-latency patch puts one per pte. One
   * iteration here is one pte.
   */

  /** statm_pte_range's loop. */
  public static final Site STATM_PTE_RANGE = new Site("fs/proc/array.c", "proc_pid_statm", "statm_pte_range");

  /** meminfo_read_proc's own formatting: assumption, 5 us. */
  public static final long MEMINFO_FORMAT_NS = 5_000;

  /** read of /proc/PID/statm. */
  public final KernelPath statm;
  /** read of /proc/meminfo. */
  public final KernelPath meminfo;

  private final PathParams params;

  /** Builds the paths for one kernel; /proc/meminfo calls {@code siSwapinfo}. */
  public Proc(PathParams params, KernelPath siSwapinfo) {
    this.params = params;
    statm =
        KernelPath.path("fs/proc/array.c", "proc_pid_statm")
            .loop(STATM_PTE_RANGE, params.processPages(), p -> p.compute(PTE_TEST_NS))
            .build();
    meminfo =
        KernelPath.path("fs/proc/proc_misc.c", "meminfo_read_proc")
            .call(siSwapinfo)
            .compute(MEMINFO_FORMAT_NS)
            .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    return List.of(
        new CatalogEntry(
            "/proc/PID/statm", statm, List.of(),
            Quantiles.typical(params.processPages()) * PTE_TEST_NS,
            Quantiles.tail(params.processPages()) * PTE_TEST_NS,
            "top reading a ~100 MB process; no lock, no vanilla reschedule point",
            "60 ns/pte (assumption: pte line + struct page); process size PathParams"));
  }
}
