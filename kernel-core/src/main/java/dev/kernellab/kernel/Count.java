package dev.kernellab.kernel;

/**
 * A loop count or a length that the kernel works out when the code reaches it, from the state
 * of the task that runs it: the pages of its address space, the bytes its system call asked
 * for, the cached pages of the file it names. Returns a count (or ns) &gt;= 0.
 *
 * <pre>{@code
 * .loop(COPY_PTE_RANGE, c -> c.current().mm().largestVmaPages(), pte -> pte.compute(300))
 * }</pre>
 */
@FunctionalInterface
public interface Count {

  /** The value now, for the code running on {@code cpu}. */
  long at(KernelCpu cpu);
}
