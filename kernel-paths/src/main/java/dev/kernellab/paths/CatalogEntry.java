package dev.kernellab.paths;

import dev.kernellab.kernel.KernelPath;
import java.util.List;
import java.util.Objects;

/**
 * One row of the catalog: a system call, kernel thread or handler as a {@link KernelPath},
 * with the locks it takes, how long it runs typically and in its tail, and where those figures
 * come from.
 *
 * @param name the kernel entry point users know it by, e.g. {@code sys_munmap}
 * @param path the timing model
 * @param locks kernel names of the spinlocks (and "irqs off") it holds somewhere
 * @param typicalNs median CPU time of one call, not counting sleeps
 * @param tailNs 99.9th percentile CPU time of one call
 * @param tail what makes the tail (which rare case, how rare)
 * @param source where the lengths come from
 */
public record CatalogEntry(
    String name,
    KernelPath path,
    List<String> locks,
    long typicalNs,
    long tailNs,
    String tail,
    String source) {

  /** Validates: every row says where its figures come from. */
  public CatalogEntry {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
    locks = List.copyOf(locks);
    if (typicalNs < 0 || tailNs < typicalNs) {
      throw new IllegalArgumentException(
          name + ": need 0 <= typical <= tail, got " + typicalNs + ", " + tailNs);
    }
    if (tail.isBlank() || source.isBlank()) {
      throw new IllegalArgumentException(name + ": a catalog row needs its tail and its source");
    }
  }

  /** {@code file:function} of the path. */
  public String location() {
    return path.location();
  }
}
