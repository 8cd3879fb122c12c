package dev.kernellab.workloads;

import dev.kernellab.paths.fs.Execve.Image;

/**
 * The address spaces of the programs the loads run, as exec maps them: the resident pages of
 * each vma (4 KiB pages) of the program once it runs. fork copies them (kernel/fork.c
 * dup_mmap, one page_table_lock hold per vma), exec unmaps the forked copy and maps these
 * (fs/exec.c exec_mmap), exit and swap_out walk them. vfork copies nothing, and the vforked
 * child's exec unmaps nothing: make and gcc start their children so ({@link CompileJob}).
 *
 * <p>Every size is an assumption said out loud: no {@code ps} or {@code size} listing of these
 * programs on a 2002 distribution was found to cite. Each is the part of the binary a run
 * touches plus its heap, for the programs of a Red Hat 7.2/7.3 system (glibc 2.2, bash 2.05,
 * GNU make 3.79, gcc 2.96 / 2.95.3, binutils 2.11). They are kept small on purpose where no
 * figure says otherwise: a fork or exit hold scales with them (300 ns a pte,
 * docs/hardware-and-costs.md, Fork and exec).
 */
final class Programs {

  private Programs() {}

  // The shared libraries every dynamically linked program maps, as four vmas: ld.so's text
  // and data, libc's text and data. Assumption: 20 and 2 pages of ld-2.2.so, 100 pages of
  // libc-2.2.so's ~1.2 MB text touched by a typical program, 6 of its data and bss.
  private static final long LD_TEXT = 20;
  private static final long LD_DATA = 2;
  private static final long LIBC_TEXT = 100;
  private static final long LIBC_DATA = 6;
  /** A stack of 16 KiB: assumption. */
  private static final long STACK = 4;

  /** An image of the program's text, data and heap, the libraries, and a stack. */
  private static Image image(String name, long text, long data, long heap) {
    return new Image(name, text, data, heap, LD_TEXT, LD_DATA, LIBC_TEXT, LIBC_DATA, STACK);
  }

  /**
   * bash 2.05 as {@code sh}: 120 pages of its ~500 KB text touched, 10 of data, a heap of 40
   * (its variables and the environment of a build). Assumption.
   */
  static final Image SH = image("sh", 120, 10, 40);

  /**
   * GNU make 3.79 in a kernel tree: 30 pages of text, 4 of data, a heap of 250 pages (~1 MB:
   * the rules and the .depend files of a 2.4 tree it reads in). Assumption.
   */
  static final Image MAKE = image("make", 30, 4, 250);

  /** The gcc driver: 25 pages of text, 3 of data, a heap of 16 (its spec strings). Assumption. */
  static final Image GCC = image("gcc", 25, 3, 16);

  /**
   * cc1 of gcc 2.95/2.96 as exec maps it: 480 pages of its ~2.3 MB text touched by a C
   * compile at -O2, 25 of data, 30 of bss, its heap empty (it grows by faults as cc1 parses and
   * optimises: {@link CompileJob#CC1_PAGES}). Assumption.
   */
  static final Image CC1 = image("cc1", 480, 25, 30);

  /**
   * cpp of gcc 2.95/2.96 (cccp): 40 pages of its ~200 KB text touched, 4 of data, a heap of 64
   * pages (its macro hash table and the buffers it reads each file into). Assumption.
   */
  static final Image CPP = image("cpp", 40, 4, 64);

  /** as of binutils 2.11: 60 pages of text, 8 of data, a heap of 100 (its symbol and frag tables). Assumption. */
  static final Image AS = image("as", 60, 8, 100);

  /**
   * A small C test program of the stress mix (ttcp, the FIFO pair, fs churn, crashme): 8
   * pages of text, 2 of data, a heap of 8 (ttcp's and churn's buffers). Assumption.
   */
  static final Image SMALL_TOOL = image("tool", 8, 2, 8);

  /**
   * P3_FPU's matrix program: three 256 x 256 matrices of doubles, 1.5 MB, as its heap (384
   * pages). Assumption.
   */
  static final Image P3_FPU = image("p3_fpu", 8, 2, 384);
}
