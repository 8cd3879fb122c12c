package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.FORK_FIXED_NS;
import static dev.kernellab.paths.Calibration.PTE_COPY_NS;
import static dev.kernellab.paths.Calibration.PTE_TEARDOWN_NS;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models mm/memory.c {@code zap_page_range()} and {@code copy_page_range()}, and their callers
 * mm/mmap.c {@code do_munmap()}, {@code exit_mmap()} and kernel/fork.c {@code dup_mmap()}
 * (2.4.17): tearing down and copying page tables with {@code mm->page_table_lock} held.
 *
 * <pre>{@code
 * Memory mm = new Memory(locks, PathParams.defaults());
 * KernelPath munmap = mm.sysMunmap;   // a system call body
 * }</pre>
 */
public final class Memory {

  /*
   * Implementation overview
   *
   * Vanilla 2.4.17 zap_page_range takes page_table_lock once and walks every pte of the range
   * (zap_pmd_range -> zap_pte_range) before it drops it: the whole unmapping of an exiting
   * process is one lock-held stretch, on SMP and (with the preempt patch) on UP too. The
   * low-latency patch splits the range into chunks of 256 pages with a reschedule point in
   * between (reference section 2.3); here the per-pte loop is the site and the patch's counted
   * lock break does the chunking. copy_page_range at fork is the same shape and no 2002 patch
   * touched it (reference section 2.3, last paragraph): a fork of a big process is a
   * non-preemptible stretch in every configuration.
   *
   * References: [1] reference preempt-lowlat-hw.md 2.3 (ll patch hunks of mm/memory.c and
   * mm/mmap.c); [2] Love, "[PATCH] low-latency zap_page_range", LKML 20 Jul 2002 (10-20 ms
   * hold); [3] lmbench fork 260-335 us (reference 5.6).
   */

  /** The pte loop of zap_page_range; the low-latency patch chunks it. */
  public static final Site ZAP_PTE_RANGE = new Site("mm/memory.c", "zap_page_range", "zap_pte_range");

  /** The pte loop of copy_page_range; no 2.4 patch breaks it. */
  public static final Site COPY_PTE_RANGE = new Site("mm/memory.c", "copy_page_range", "copy_pte_range");

  /**
   * flush_tlb_range after a zap: on i386 a cr3 reload plus the misses it causes. Assumption:
   * 2 us.
   */
  public static final long FLUSH_TLB_RANGE_NS = 2_000;

  /** find_vma, split of the vma, unlink: assumption, ~10 DRAM misses, 2 us. */
  public static final long DO_MUNMAP_FIXED_NS = 2_000;

  /** exit_mmap's walk of the vma list and free_pgtables: assumption, 10 us. */
  public static final long EXIT_MMAP_FIXED_NS = 10_000;

  /** munmap of a small region. */
  public final KernelPath sysMunmap;
  /** exit_mmap of a whole process. */
  public final KernelPath exitMmap;
  /** dup_mmap's copy of the parent's page tables at fork. */
  public final KernelPath dupMmap;

  private final PathParams params;

  /** Builds the paths for one kernel. */
  public Memory(Locks locks, PathParams params) {
    this.params = params;
    sysMunmap =
        KernelPath.path("mm/mmap.c", "do_munmap")
            .compute(DO_MUNMAP_FIXED_NS)
            .call(zapPageRange(locks, params.munmapPages()))
            .build();
    exitMmap =
        KernelPath.path("mm/mmap.c", "exit_mmap")
            .compute(EXIT_MMAP_FIXED_NS)
            .call(zapPageRange(locks, params.processPages()))
            .build();
    dupMmap =
        KernelPath.path("kernel/fork.c", "dup_mmap")
            .compute(FORK_FIXED_NS)
            .call(
                KernelPath.path("mm/memory.c", "copy_page_range")
                    .spinLock(locks.pageTableLock)
                    .loop(COPY_PTE_RANGE.label(), params.processPages(), b -> b.compute(PTE_COPY_NS))
                    .spinUnlock(locks.pageTableLock)
                    .build())
            .build();
  }

  /** zap_page_range over {@code pages} pages, page_table_lock held throughout (vanilla). */
  static KernelPath zapPageRange(Locks locks, Distribution pages) {
    return KernelPath.path("mm/memory.c", "zap_page_range")
        .spinLock(locks.pageTableLock)
        .loop(ZAP_PTE_RANGE.label(), pages, b -> b.compute(PTE_TEARDOWN_NS))
        .spinUnlock(locks.pageTableLock)
        .compute(FLUSH_TLB_RANGE_NS)
        .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Distribution munmap = params.munmapPages();
    Distribution proc = params.processPages();
    return List.of(
        new CatalogEntry(
            "sys_munmap", sysMunmap, List.of("page_table_lock"),
            DO_MUNMAP_FIXED_NS + FLUSH_TLB_RANGE_NS + Quantiles.typical(munmap) * PTE_TEARDOWN_NS,
            DO_MUNMAP_FIXED_NS + FLUSH_TLB_RANGE_NS + Quantiles.tail(munmap) * PTE_TEARDOWN_NS,
            "a large mapping unmapped in one call (munmapPages tail)",
            "300 ns/pte (assumption, checked against Love's 10-20 ms zap hold, LKML 2002-07-20)"),
        new CatalogEntry(
            "exit_mmap", exitMmap, List.of("page_table_lock"),
            EXIT_MMAP_FIXED_NS + FLUSH_TLB_RANGE_NS + Quantiles.typical(proc) * PTE_TEARDOWN_NS,
            EXIT_MMAP_FIXED_NS + FLUSH_TLB_RANGE_NS + Quantiles.tail(proc) * PTE_TEARDOWN_NS,
            "a ~100 MB process exits (1 exit in 1000): one unbroken page_table_lock hold",
            "300 ns/pte as sys_munmap; process size assumption (PathParams)"),
        new CatalogEntry(
            "dup_mmap (fork)", dupMmap, List.of("page_table_lock"),
            FORK_FIXED_NS + Quantiles.typical(proc) * PTE_COPY_NS,
            FORK_FIXED_NS + Quantiles.tail(proc) * PTE_COPY_NS,
            "fork of a ~100 MB process: unpatched in every 2002 kernel",
            "lmbench fork 260-335 us split 150 us fixed + 300 ns/pte (assumption)"));
  }
}
