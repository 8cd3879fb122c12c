package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.MmView;
import java.util.Arrays;

/**
 * An address space: models {@code struct mm_struct} and its list of {@code vm_area_struct}s,
 * include/linux/sched.h and include/linux/mm.h (2.4.17), down to what the timing model needs:
 * how many vmas there are and how many resident pages each has. That drives the same-mm bonus
 * of 2.4's goodness(), lazy TLB for kernel threads, and the length of fork's dup_mmap and
 * copy_page_range, exit_mmap and munmap's zap_page_range, which walk those pages.
 *
 * <pre>{@code
 * Mm mm = task.mm();
 * int heap = mm.mmap(0);          // a new vma, nothing resident yet (do_mmap_pgoff)
 * mm.fault(heap, 256);            // 256 pages faulted in (do_anonymous_page)
 * mm.munmap(heap);                // gone (do_munmap)
 * }</pre>
 *
 * <p>An Mm belongs to one task (threads are not modelled) and is changed only by that task's
 * paths; fork copies it ({@link #copy}). vfork ({@code CLONE_VM | CLONE_VFORK}) lends it to
 * the child instead: {@code copy_mm} takes a reference ({@link #users()} counts them), and the
 * parent sleeps until the child's exec or exit gives it back, so the two never change it at
 * once (kernel/fork.c copy_mm, mm_release, 2.4.17).
 */
@Models(file = "include/linux/sched.h", function = "struct mm_struct", version = "2.4.17")
@Models(file = "include/linux/mm.h", function = "struct vm_area_struct", version = "2.4.17")
public final class Mm implements MmView {

  private final int id;
  private int users = 1; // mm_users: tasks whose mm this is (>= 1 while any of them lives)
  private long[] vmaPages = new long[8]; // resident pages of vma i, for i < vmaCount
  private int vmaCount;
  private long residentPages; // sum of vmaPages
  private long swapAddress; // mm->swap_address, counted in resident pages: 0..residentPages

  /** An empty address space, for traces named {@code id}. */
  public Mm(int id) {
    this.id = id;
  }

  /**
   * An address space of {@code residentPages} pages in one vma (or none for 0): the shape of a
   * task created with a size and nothing more said.
   */
  public Mm(int id, long residentPages) {
    this(id);
    if (residentPages < 0) {
      throw new IllegalArgumentException("resident pages must be >= 0, got " + residentPages);
    }
    if (residentPages > 0) {
      fault(mmap(0), residentPages);
    }
  }

  /** A stable number for traces. */
  @Override
  public int id() {
    return id;
  }

  /**
   * {@code mm_users}: how many tasks use this address space; more than one only while a
   * vforked child borrows its parent's (copy_mm's {@code atomic_inc(&oldmm->mm_users)} for
   * CLONE_VM), until the child's exec or exit drops its reference (mmput).
   */
  @Override
  public int users() {
    return users;
  }

  /** copy_mm with CLONE_VM: one more task uses this mm. */
  @Models(file = "kernel/fork.c", function = "copy_mm", version = "2.4.17")
  void get() {
    users++;
  }

  /**
   * mmput: one task less uses this mm. The caller tears the address space down when the
   * count was 1 (the kernel's exit_mmap is a kernel path, paid by whoever drops the last
   * reference); here the count only goes down.
   */
  @Models(file = "kernel/fork.c", function = "mmput", version = "2.4.17")
  void put() {
    if (users == 0) {
      throw new IllegalStateException("mmput of mm " + id + " that no task uses");
    }
    users--;
  }

  /** Pages mapped and resident, over all vmas. */
  @Override
  public long residentPages() {
    return residentPages;
  }

  /** Number of vmas. */
  public int vmaCount() {
    return vmaCount;
  }

  /** Resident pages of vma {@code i} (0 &lt;= i &lt; {@link #vmaCount()}). */
  public long vmaPages(int i) {
    if (i < 0 || i >= vmaCount) {
      throw new IndexOutOfBoundsException("no vma " + i + " in mm " + id + " of " + vmaCount);
    }
    return vmaPages[i];
  }

  /** The resident pages of the largest vma (0 if none). */
  public long largestVmaPages() {
    long max = 0;
    for (int i = 0; i < vmaCount; i++) {
      max = Math.max(max, vmaPages[i]);
    }
    return max;
  }

  /**
   * {@code mm->swap_address}: how far swap_out's walk of this address space has come, counted
   * in resident pages (the walk visits the resident ptes in address order). At or past
   * {@link #residentPages()} the walk has reached the end of the address space (the kernel's
   * {@code TASK_SIZE}), and swap_out moves on to the next mm.
   */
  @Models(file = "mm/vmscan.c", function = "swap_out_mm", version = "2.4.17")
  public long swapAddress() {
    return swapAddress;
  }

  /** Sets {@link #swapAddress()} ({@code 0} starts the walk again from the bottom). */
  public void setSwapAddress(long pages) {
    if (pages < 0) {
      throw new IllegalArgumentException("swap address must be >= 0, got " + pages);
    }
    swapAddress = pages;
  }

  /** {@code do_mmap_pgoff}: a new vma with {@code pages} resident already; returns its index. */
  @Models(file = "mm/mmap.c", function = "do_mmap_pgoff", version = "2.4.17")
  public int mmap(long pages) {
    if (pages < 0) {
      throw new IllegalArgumentException("pages must be >= 0, got " + pages);
    }
    if (vmaCount == vmaPages.length) {
      vmaPages = Arrays.copyOf(vmaPages, vmaCount * 2);
    }
    vmaPages[vmaCount] = pages;
    residentPages += pages;
    return vmaCount++;
  }

  /** Page faults bring {@code pages} more pages of vma {@code i} in. */
  @Models(file = "mm/memory.c", function = "do_anonymous_page", version = "2.4.17")
  public void fault(int i, long pages) {
    if (pages < 0) {
      throw new IllegalArgumentException("pages must be >= 0, got " + pages);
    }
    vmaPages(i);
    vmaPages[i] += pages;
    residentPages += pages;
  }

  /**
   * {@code do_munmap} of the whole vma {@code i}: returns its resident pages, which the
   * caller's zap_page_range walks. The last vma takes its index.
   */
  @Models(file = "mm/mmap.c", function = "do_munmap", version = "2.4.17")
  public long munmap(int i) {
    long pages = vmaPages(i);
    residentPages -= pages;
    vmaPages[i] = vmaPages[--vmaCount];
    return pages;
  }

  /**
   * {@code dup_mmap}: the child's copy, same vmas and resident pages; its swap_out walk starts
   * at the bottom ({@code mm->swap_address = 0}).
   */
  @Models(file = "kernel/fork.c", function = "dup_mmap", version = "2.4.17")
  public Mm copy(int childId) {
    Mm c = new Mm(childId);
    c.vmaPages = Arrays.copyOf(vmaPages, Math.max(8, vmaCount));
    c.vmaCount = vmaCount;
    c.residentPages = residentPages;
    return c;
  }

  @Override
  public String toString() {
    return "mm" + id + "{" + vmaCount + " vmas, " + residentPages + " pages"
        + (users > 1 ? ", " + users + " users" : "") + "}";
  }
}
