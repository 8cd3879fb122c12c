package dev.kernellab.kernel;

/**
 * Models {@code struct mm_struct} of include/linux/sched.h (2.4.17): an address space, only its identity and size matter to the model
 * (same-mm bonus in 2.4's goodness(), lazy TLB for kernel threads, the length of exit_mmap and
 * fork's copy_page_range).
 *
 * @param id a stable number for traces
 * @param residentPages pages mapped, for paths whose length scales with the address space
 */
public record Mm(int id, long residentPages) {

  /** Validates. */
  public Mm {
    if (residentPages < 0) {
      throw new IllegalArgumentException("resident pages must be >= 0, got " + residentPages);
    }
  }
}
