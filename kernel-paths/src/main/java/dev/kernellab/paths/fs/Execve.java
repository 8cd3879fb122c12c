package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Mm;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.mm.Memory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Models fs/exec.c {@code do_execve()} with {@code exec_mmap()} and fs/binfmt_elf.c
 * {@code load_elf_binary()} (2.4.17): the old address space goes (exit_mmap of the copy fork
 * made), and the program's image is mapped in its place.
 *
 * <pre>{@code
 * Execve.Image cc1 = new Execve.Image("cc1", 500, 30, 1_024, 60);
 * KernelPath child = KernelPath.userProgram("cc1")
 *     .syscall(paths.execve().sysExecve(cc1))
 *     .loop("fault-in", cc1.residentPages(), p -> p.pageFault(paths.execve().fileFault))
 *     ...
 * }</pre>
 */
@Models(file = "fs/exec.c", function = "do_execve", version = "2.4.17")
@Models(file = "fs/exec.c", function = "exec_mmap", version = "2.4.17")
@Models(file = "fs/binfmt_elf.c", function = "load_elf_binary", version = "2.4.17")
public final class Execve {

  /*
   * Implementation overview
   *
   * After fork the child is the only user of its copy of the parent's mm, so exec_mmap takes
   * its first branch: mm_release, then exit_mmap(old_mm) on that very mm_struct, which stays
   * on the mmlist where dup_mmap put it (fs/exec.c exec_mmap, 2.4.17). exit_mmap zaps each vma
   * under page_table_lock (mm/Memory). After vfork the child's mm is its parent's, asleep in
   * do_fork (mm_users is 2), so exec_mmap takes the other branch: mm_alloc, the new mm put on
   * the mmlist under mmlist_lock, activate_mm, mm_release (which wakes the parent), and mmput
   * of the old mm, which only drops the child's reference: nothing is unmapped, the parent
   * goes on using it (kernel/fork.c mmput). load_elf_binary then maps the program's PT_LOAD
   * segments, the interpreter's, the bss (do_brk) and the stack: one vma each, the model's
   * Image. The shared libraries are mapped by ld.so in user mode (mmap calls); the model
   * folds them into the image, mapped here.
   *
   * The image's pages are counted resident from exec on (they are in the page cache: a build
   * runs the same programs again and again), and the program pays their faults in user mode
   * with fileFault, one kernel entry a page, as a real one faults them in as it touches them;
   * what runs between two faults is preemptible in every configuration, so only their number
   * matters. Simplification: swap_out and a fork in that window see the whole image at once.
   *
   * Costs, checked against lmbench's fork+exec (~1.3 ms on a 790 MHz machine, A. Marathe,
   * LKML 21 Feb 2003; docs/hardware-and-costs.md, lmbench costs): lat_proc's exec of its small
   * "hello" costs EXEC_FIXED_NS, the zap of the forked copy (~500 pages at 300 ns, 150 us,
   * Calibration.PTE_TEARDOWN_NS), the mapping of ~8 vmas (16 us) and the faults of its ~60
   * pages (240 us at lmbench's 4 us a fault), plus ld.so's relocation in user mode, about
   * 1.1 ms with the fork; docs/hardware-and-costs.md, Fork and exec, shows the sum.
   */

  /** exec's loop over the image's vmas (elf_map, do_brk, setup_arg_pages). */
  public static final Site EXEC_MAP_VMAS = new Site("fs/binfmt_elf.c", "load_elf_binary", "elf_map");

  /**
   * do_execve without the address spaces: open_exec and the path walk, prepare_binprm's read of
   * the first page (cached), copy_strings of argv and envp, search_binary_handler,
   * load_elf_binary's read of the program headers and the interpreter's, flush_old_exec's
   * signal and file work. Assumption: 100 us (about 20 times a cached open's ~5 us in the
   * same lmbench run's stat/open-close order, for two opens, two header reads and the
   * argument copy); see the overview for the check against lmbench's fork+exec.
   */
  public static final long EXEC_FIXED_NS = 100_000;

  /**
   * exec_mmap's new mm for a vforked child: mm_alloc (a slab object), mm_init's pgd_alloc (a
   * page, the kernel's 256 pgd entries copied into it, 1 KiB), list_add on the mmlist under
   * mmlist_lock, activate_mm's cr3 load. Assumption: 5 us, about 30 DRAM misses at lmbench's
   * ~175 ns (docs/hardware-and-costs.md, lmbench costs).
   */
  public static final long MM_ALLOC_NS = 5_000;

  /** One vma mapped by elf_map or do_brk: {@link Memory#DO_MMAP_NS}. */
  public static final long MAP_VMA_NS = Memory.DO_MMAP_NS;

  /**
   * A program's address space once it is running: the resident pages of each of its vmas.
   *
   * @param name the program, as {@code ps} shows it
   * @param vmaPages resident pages of each vma (text, data, heap, libraries, stack)
   */
  public record Image(String name, long... vmaPages) {
    /** Validates: a name and at least one vma, no negative sizes. */
    public Image {
      if (name.isBlank() || vmaPages.length == 0) {
        throw new IllegalArgumentException("an image needs a name and at least one vma");
      }
      vmaPages = vmaPages.clone();
      for (long p : vmaPages) {
        if (p < 0) {
          throw new IllegalArgumentException(name + ": negative vma size " + p);
        }
      }
    }

    /** Pages of all its vmas. */
    public long residentPages() {
      return Arrays.stream(vmaPages).sum();
    }

    /** Its vmas. */
    public int vmas() {
      return vmaPages.length;
    }

    @Override
    public long[] vmaPages() {
      return vmaPages.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Image i && name.equals(i.name) && Arrays.equals(vmaPages, i.vmaPages);
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + Arrays.hashCode(vmaPages);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s (%,d pages in %d vmas)", name, residentPages(), vmaPages.length);
    }
  }

  /**
   * The cause an execve declares: the exec of {@code image}, whose exec_mmap unmaps the
   * forked copy of the parent's address space with page_table_lock held per vma.
   */
  public record Exec(String image, long imagePages) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      String what = Memory.ZAP_PTE_RANGE.equals(h.path().site())
          ? String.format(Locale.ROOT, "exec of %s (%,d pages): %,d ptes of the forked copy unmapped with"
              + " page_table_lock held", image, imagePages, h.iterations())
          : String.format(Locale.ROOT, "exec of %s (%,d pages)", image, imagePages);
      return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
    }
  }

  /** A fault on a page of the image exec mapped: the page is counted resident already. */
  public final KernelPath fileFault;

  private final KernelPath exitMmap;

  private final KernelPath newMm;

  /** Builds exec for one kernel, unmapping the old image with {@code exitMmap} (mm/Memory). */
  public Execve(Locks l, KernelPath exitMmap) {
    this.exitMmap = exitMmap;
    newMm =
        KernelPath.path("fs/exec.c", "exec_mmap")
            .compute(MM_ALLOC_NS)
            .replaceSharedMm()
            .build();
    fileFault =
        KernelPath.path("mm/memory.c", "do_no_page")
            .compute(Calibration.PAGE_FAULT_NS)
            .spinLock(l.pageTableLock)
            .spinUnlock(l.pageTableLock)
            .build();
  }

  /** execve(2) of {@code image}: the forked copy unmapped, the image mapped. */
  @Models(file = "fs/exec.c", function = "do_execve", version = "2.4.17")
  public KernelPath sysExecve(Image image) {
    long[] pages = image.vmaPages();
    return KernelPath.path("fs/exec.c", "do_execve")
        .cause(new Exec(image.name(), image.residentPages()))
        .compute(EXEC_FIXED_NS)
        .callIfElse("mm_users == 1: exit_mmap(old_mm), the same mm_struct reused; else a new mm",
            Execve::aloneInMm, exitMmap, newMm)
        .mmRelease()
        .effect("exec_mmap(): the old vmas gone, the same mm_struct reused", c -> {
          Mm mm = c.current().mm();
          if (mm != null && mm.users() == 1) {
            while (mm.vmaCount() > 0) {
              mm.munmap(mm.vmaCount() - 1);
            }
            mm.setSwapAddress(0);
          }
        })
        .call(KernelPath.path("fs/binfmt_elf.c", "load_elf_binary")
            .loop(EXEC_MAP_VMAS, pages.length, v -> v
                .compute(MAP_VMA_NS)
                .effect("elf_map(): one vma of the image", c -> {
                  Mm mm = c.current().mm();
                  if (mm != null) {
                    mm.mmap(pages[(int) c.loopIndex()]);
                  }
                }))
            .build())
        .build();
  }

  /**
   * exec_mmap's test: the task is the only user of its mm (a forked child's copy), so exec
   * tears it down and reuses it; otherwise (a vforked child) it moves to a new one.
   */
  @Models(file = "fs/exec.c", function = "exec_mmap", version = "2.4.17")
  private static boolean aloneInMm(dev.kernellab.kernel.KernelCpu c) {
    Mm mm = c.current().mm();
    return mm == null || mm.users() == 1;
  }

  /** The rows of this file: the exec of a small program, and of a big one. */
  public List<CatalogEntry> entries(CatalogEntry exitMmapEntry) {
    Image small = new Image("hello", 8, 2, 4, 40, 4, 2);
    return List.of(
        new CatalogEntry(
            "sys_execve", sysExecve(small), List.of("page_table_lock"),
            EXEC_FIXED_NS + exitMmapEntry.typicalNs() + small.vmas() * MAP_VMA_NS,
            EXEC_FIXED_NS + exitMmapEntry.tailNs() + small.vmas() * MAP_VMA_NS,
            "exec from a big process: its forked copy is unmapped first (exit_mmap's tail)",
            "100 us fixed (assumption) + exit_mmap of the copy + 2 us a vma; checked against"
                + " lmbench fork+exec ~1.3 ms (docs/hardware-and-costs.md)"));
  }
}
