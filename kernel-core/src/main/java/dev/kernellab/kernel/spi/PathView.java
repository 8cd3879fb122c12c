package dev.kernellab.kernel.spi;

import java.util.List;
import java.util.Optional;

/**
 * What a plug-in sees of a kernel path (a modelled C function, or the body of one of its loops),
 * read-only: where it is in the kernel source and what it declared about itself. The kernel's
 * {@code dev.kernellab.kernel.KernelPath} is the only implementation.
 */
public interface PathView {

  /** The kernel source file. */
  String file();

  /** The C function. */
  String function();

  /** True for user-mode programs. */
  boolean isUser();

  /** The loop site whose body this is, or null for a whole function. */
  Site site();

  /** The cause this path declared for the time it holds a CPU, if it declared one. */
  Optional<LatencyCause> cause();

  /** Every loop site of the path and the paths it calls. */
  List<Site> sites();

  /** {@code file:function}, or the site's key for a loop body. */
  String location();
}
