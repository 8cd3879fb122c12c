package dev.kernellab.kernel.spi;

/**
 * A named place in kernel code where a patch may act: typically a loop whose every iteration
 * can be followed by a reschedule point or a lock break ({@code prune_dcache}'s walk of the
 * unused list, {@code zap_page_range}'s pte loop), or a point in straight-line code
 * ({@code KernelPath.Builder.point}) where a patch may put a reschedule point.
 *
 * <p>Sites are how {@code lowlatency} finds what Morton's patch touched: by file, function and
 * a label for the loop within the function. {@link #key()} is the stable name used in tables
 * and on the command line: {@code fs/dcache.c:prune_dcache} or
 * {@code fs/dcache.c:prune_dcache#unused} when a function has several.
 *
 * @param file kernel source file, e.g. {@code fs/dcache.c}
 * @param function C function, e.g. {@code prune_dcache}
 * @param label distinguishes several sites in one function; equal to the function if only one
 */
public record Site(String file, String function, String label) {

  /** Validates. */
  public Site {
    if (file.isBlank() || function.isBlank() || label.isBlank()) {
      throw new IllegalArgumentException("a site needs a file, a function and a label");
    }
  }

  /** {@code file:function}, plus {@code #label} when the label differs from the function. */
  public String key() {
    return label.equals(function) ? file + ":" + function : file + ":" + function + "#" + label;
  }

  @Override
  public String toString() {
    return key();
  }
}
