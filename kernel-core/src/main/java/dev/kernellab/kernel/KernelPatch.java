package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.PreemptionModel;
/**
 * A named change to the kernel, applied while the kernel is built ({@code preempt},
 * {@code lowlat}): it may install a {@link PreemptionModel}, attach operations to the
 * {@link Site}s of kernel paths, register run-time switches, or add tasks and tracers.
 *
 * <p>Found by name through {@link KernelPatchProvider} (ServiceLoader) or passed to
 * {@link KernelBuilder#patch(KernelPatch)} directly.
 */
public interface KernelPatch {

  /**
   * The name users pass, e.g. {@code "preempt"}: a lower-case letter, then lower-case letters,
   * digits, '_' or '-' ({@link KernelBuilder#patch(KernelPatch)} refuses any other).
   */
  String name();

  /** Applies the patch to the kernel being built. */
  void apply(KernelBuilder.Patching kernel);

  /**
   * Patches this one needs applied too, by name (a patch that depends on CONFIG_PREEMPT
   * requires {@code preempt}); the builder refuses a kernel without them. None by default.
   */
  default java.util.List<String> requires() {
    return java.util.List.of();
  }

  /**
   * Patches this one cannot be applied with, by name (two patches that rewrite the same sites
   * differently); the builder refuses a kernel with both. None by default.
   */
  default java.util.List<String> conflicts() {
    return java.util.List.of();
  }
}
