package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.FORK_FIXED_NS;
import static dev.kernellab.paths.Calibration.PTE_COPY_NS;
import static dev.kernellab.paths.Calibration.PTE_TEARDOWN_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Count;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Mm;
import dev.kernellab.kernel.spi.Site;
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
 * Memory mm = new Memory(locks, PathParams.defaults(), vmscan.allocWakeup);
 * KernelPath munmap = mm.sysMunmap;   // a system call body
 * }</pre>
 */
@Models(file = "mm/mmap.c", function = "do_munmap", version = "2.4.17")
@Models(file = "mm/mmap.c", function = "do_mmap_pgoff", version = "2.4.17")
@Models(file = "mm/memory.c", function = "do_anonymous_page", version = "2.4.17")
@Models(file = "mm/mmap.c", function = "exit_mmap", version = "2.4.17")
@Models(file = "kernel/fork.c", function = "dup_mmap", version = "2.4.17")
public final class Memory {

  /*
   * Implementation overview
   *
   * Vanilla 2.4.17 zap_page_range takes page_table_lock once per call and walks every pte of
   * the range (zap_pmd_range -> zap_pte_range), then flushes the TLB (tlb_finish_mmu) before
   * it drops the lock. exit_mmap (mm/mmap.c) detaches the vma list under a short hold and
   * calls zap_page_range once per vma, so the lock is free between vmas (a preemption point
   * under the preempt patch); flush_tlb_mm follows outside the lock, then clear_page_tables
   * takes it again. dup_mmap (kernel/fork.c) holds the child's page_table_lock around
   * copy_page_range once per vma, and flushes the parent's TLB after the loop. So the longest
   * stretch is the largest vma, not the process: a process is a few dozen small vmas (text,
   * data and bss of the program and of each shared library, the stack) and, for a big one,
   * one large anonymous or heap vma that holds nearly all its pages.
   *
   * The low-latency patch splits each zap into chunks of 256 pages (MAX_ZAP_BYTES) [1];
   * here the per-pte loop is the site and the patch's chunked lock drop does the chunking.
   * copy_page_range at fork no 2002 patch touched: a fork of a big process is a
   * non-preemptible stretch in every configuration.
   *
   * Simplifications: one page_table_lock stands for every mm's (Locks), so on SMP two
   * processes' page-table walks contend where the kernel's would not, and copy_page_range's
   * nested parent lock (taken per 1024-pte table) is folded into the child's; mmap_sem is not
   * modelled.
   *
   * References: [1] Morton's low-latency patch for 2.4, mm/memory.c and mm/mmap.c hunks (2.4.32
   * copy, iPodLinux/linux-2.4.32-ipod commit 5264fa3d; docs/lowlatency-sites.md); [2] Love,
   * "[PATCH] low-latency zap_page_range", LKML 20 Jul 2002 (10-20 ms hold); [3] lmbench fork
   * 260-335 us (A. Marathe, "[BENCHMARK] 2.5.62 Lmbench performance", LKML 21 Feb 2003).
   */

  /** The pte loop of zap_page_range; the low-latency patch chunks it. */
  public static final Site ZAP_PTE_RANGE = new Site("mm/memory.c", "zap_page_range", "zap_pte_range");

  /** The pte loop of copy_page_range; no 2.4 patch breaks it. */
  public static final Site COPY_PTE_RANGE = new Site("mm/memory.c", "copy_page_range", "copy_pte_range");

  /** exit_mmap's loop over the vmas it unmaps. */
  public static final Site EXIT_MMAP_VMAS = new Site("mm/mmap.c", "exit_mmap", "vmas");

  /** dup_mmap's loop over the vmas it copies. */
  public static final Site DUP_MMAP_VMAS = new Site("kernel/fork.c", "dup_mmap", "vmas");

  /**
   * flush_tlb_range after a zap: on i386 a cr3 reload plus the misses it causes. Assumption:
   * 2 us.
   */
  public static final long FLUSH_TLB_RANGE_NS = 2_000;

  /** find_vma, split of the vma, unlink: assumption, ~10 DRAM misses, 2 us. */
  public static final long DO_MUNMAP_FIXED_NS = 2_000;

  /** exit_mmap's walk of the vma list and free_pgtables: assumption, 10 us. */
  public static final long EXIT_MMAP_FIXED_NS = 10_000;

  /**
   * The small vmas of a 2002 process: program text, data and bss, three per shared library
   * for about eight libraries (libc, ld.so, libm, X and toolkit libraries), heap and stack.
   * Assumption: 30.
   */
  public static final long SMALL_VMAS = 30;

  /** Pages of one small vma: assumption, 8 (a library's data, a stack of 32 KiB). */
  public static final long SMALL_VMA_PAGES = 8;

  /** Detaching the vma list (mm->mmap = NULL) under page_table_lock: assumption, 0.2 us. */
  public static final long DETACH_VMAS_NS = 200;

  /** clear_page_tables of a process under page_table_lock: assumption, 5 us. */
  public static final long CLEAR_PAGE_TABLES_NS = 5_000;

  /** do_mmap_pgoff of an anonymous mapping: vma set-up, assumption 2 us (10 DRAM misses). */
  public static final long DO_MMAP_NS = 2_000;

  /** munmap of the task's newest mapping (or, without a workload's Mm, a drawn region). */
  public final KernelPath sysMunmap;
  /** mmap(2) of an anonymous region: a new, empty vma in the task's Mm. */
  public final KernelPath sysMmap;
  /** A page fault on anonymous memory: a page allocated and mapped in the newest vma. */
  public final KernelPath anonymousFault;
  /** exit_mmap of a whole process. */
  public final KernelPath exitMmap;
  /** dup_mmap's copy of the parent's page tables at fork. */
  public final KernelPath dupMmap;

  private final PathParams params;

  /** Builds the paths for one kernel. */
  public Memory(Locks locks, PathParams params, KernelPath allocWakeup) {
    this.params = params;
    // munmap of the task's most recent mapping when its Mm has one (a workload's process),
    // else of a drawn size.
    sysMunmap =
        KernelPath.path("mm/mmap.c", "do_munmap")
            .compute(DO_MUNMAP_FIXED_NS)
            .call(zapPageRange(locks, c -> {
              Mm mm = c.current().mm();
              return mm != null && mm.vmaCount() > 0
                  ? mm.munmap(mm.vmaCount() - 1) : c.sample(params.munmapPages());
            }))
            .build();
    sysMmap =
        KernelPath.path("mm/mmap.c", "do_mmap_pgoff")
            .compute(DO_MMAP_NS)
            .effect("insert_vm_struct(): a new vma, nothing resident", c -> {
              Mm mm = c.current().mm();
              if (mm != null) {
                mm.mmap(0);
              }
            })
            .build();
    anonymousFault =
        KernelPath.path("mm/memory.c", "do_anonymous_page")
            .call(allocWakeup)
            .compute(dev.kernellab.paths.Calibration.PAGE_FAULT_NS)
            .spinLock(locks.pageTableLock)
            // the task's own page counts only, which paths read when they walk them later
            .bookkeeping("set_pte(): one more page resident in the newest vma", c -> {
              Mm mm = c.current().mm();
              if (mm != null) {
                if (mm.vmaCount() == 0) {
                  mm.mmap(0);
                }
                mm.fault(mm.vmaCount() - 1, 1);
              }
            })
            .spinUnlock(locks.pageTableLock)
            .build();
    // The vma walk: the task's own Mm when it has one with pages (a workload's process), else
    // the catalog's default process of SMALL_VMAS small vmas and one of processPages.
    Distribution large = params.processPages();
    KernelPath zapVma = zapPageRange(locks, c -> vmaPages(c, large));
    exitMmap =
        KernelPath.path("mm/mmap.c", "exit_mmap")
            .spinLock(locks.pageTableLock)
            .compute(DETACH_VMAS_NS)
            .spinUnlock(locks.pageTableLock)
            .compute(EXIT_MMAP_FIXED_NS)
            .loop(EXIT_MMAP_VMAS, Memory::vmas, vma -> vma.call(zapVma))
            .compute(FLUSH_TLB_RANGE_NS) // flush_tlb_mm, outside the lock
            .spinLock(locks.pageTableLock)
            .compute(CLEAR_PAGE_TABLES_NS)
            .spinUnlock(locks.pageTableLock)
            .build();
    KernelPath copyVma = copyPageRange(locks, c -> vmaPages(c, large));
    dupMmap =
        KernelPath.path("kernel/fork.c", "dup_mmap")
            .compute(FORK_FIXED_NS)
            .loop(DUP_MMAP_VMAS, Memory::vmas, vma -> vma.call(copyVma))
            .compute(FLUSH_TLB_RANGE_NS) // flush_tlb_mm(current->mm), outside the lock
            .build();
  }

  /** Vmas of the running task's address space, or of the catalog's default process. */
  private static long vmas(KernelCpu c) {
    Mm mm = c.current().mm();
    return mm != null && mm.residentPages() > 0 ? mm.vmaCount() : SMALL_VMAS + 1;
  }

  /** Pages of the vma the walk is at (the loop index of the vma loop). */
  private static long vmaPages(KernelCpu c, Distribution large) {
    Mm mm = c.current().mm();
    int i = (int) c.loopIndex();
    if (mm != null && mm.residentPages() > 0) {
      return i < mm.vmaCount() ? mm.vmaPages(i) : 0;
    }
    return i < SMALL_VMAS ? SMALL_VMA_PAGES : c.sample(large);
  }

  /**
   * zap_page_range over {@code pages} pages of one vma: page_table_lock held throughout, the
   * TLB flushed (tlb_finish_mmu) before the unlock (vanilla 2.4.17).
   */
  static KernelPath zapPageRange(Locks locks, Distribution pages) {
    return zapPageRange(locks, c -> c.sample(pages));
  }

  @Models(file = "mm/memory.c", function = "zap_page_range", version = "2.4.17")
  @Models(file = "mm/memory.c", function = "zap_pte_range", version = "2.4.17")
  static KernelPath zapPageRange(Locks locks, Count pages) {
    return KernelPath.path("mm/memory.c", "zap_page_range")
        .spinLock(locks.pageTableLock)
        .loop(ZAP_PTE_RANGE, pages, b -> b.compute(PTE_TEARDOWN_NS))
        .compute(FLUSH_TLB_RANGE_NS)
        .spinUnlock(locks.pageTableLock)
        .build();
  }

  /** copy_page_range of one vma, the child's page_table_lock held (kernel/fork.c dup_mmap). */
  @Models(file = "mm/memory.c", function = "copy_page_range", version = "2.4.17")
  static KernelPath copyPageRange(Locks locks, Count pages) {
    return KernelPath.path("mm/memory.c", "copy_page_range")
        .spinLock(locks.pageTableLock)
        .loop(COPY_PTE_RANGE, pages, b -> b.compute(PTE_COPY_NS))
        .spinUnlock(locks.pageTableLock)
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
            exitFixed() + Quantiles.typical(proc) * PTE_TEARDOWN_NS,
            exitFixed() + Quantiles.tail(proc) * PTE_TEARDOWN_NS,
            "a ~100 MB process exits (1 exit in 1000): its large vma is one page_table_lock hold",
            "300 ns/pte as sys_munmap; process size assumption (PathParams); 30 small vmas"),
        new CatalogEntry(
            "dup_mmap (fork)", dupMmap, List.of("page_table_lock"),
            forkFixed() + Quantiles.typical(proc) * PTE_COPY_NS,
            forkFixed() + Quantiles.tail(proc) * PTE_COPY_NS,
            "fork of a ~100 MB process: its large vma unpatched in every 2002 kernel",
            "lmbench fork 260-335 us split 150 us fixed + 300 ns/pte (assumption); 30 small vmas"));
  }

  private static long exitFixed() {
    return DETACH_VMAS_NS + EXIT_MMAP_FIXED_NS + (SMALL_VMAS + 2) * FLUSH_TLB_RANGE_NS
        + SMALL_VMAS * SMALL_VMA_PAGES * PTE_TEARDOWN_NS + CLEAR_PAGE_TABLES_NS;
  }

  private static long forkFixed() {
    return FORK_FIXED_NS + FLUSH_TLB_RANGE_NS + SMALL_VMAS * SMALL_VMA_PAGES * PTE_COPY_NS;
  }
}
