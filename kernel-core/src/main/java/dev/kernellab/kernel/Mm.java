package dev.kernellab.kernel;

/**
 * An address space ({@code struct mm_struct}): only its identity and size matter to the model
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
