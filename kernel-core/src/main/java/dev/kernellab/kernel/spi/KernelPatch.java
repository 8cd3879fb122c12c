package dev.kernellab.kernel.spi;

import java.util.List;

/**
 * A named change to the kernel, applied while the kernel is built ({@code preempt},
 * {@code lowlat}): it may install a {@link PreemptionModel}, run code at the {@link Site}s of
 * kernel paths, register run-time switches, or add tasks, all through {@link Patching}. The code
 * it adds is written in the kernel's path language ({@code KernelPath}, {@code TaskSpec}).
 *
 * <p>Part of the service-provider interface: a plug-in implements it and registers it with a
 * {@link KernelPatchProvider}; a library user passes one to {@code KernelBuilder.patch} or names
 * it in a configuration.
 */
public interface KernelPatch {

  /**
   * The name users pass, e.g. {@code "preempt"}: a lower-case letter, then lower-case letters,
   * digits, '_' or '-' ({@code KernelBuilder.patch} refuses any other).
   */
  String name();

  /** Applies the patch to the kernel being built. */
  void apply(Patching kernel);

  /**
   * Patches this one needs applied too, by name (a patch that depends on CONFIG_PREEMPT
   * requires {@code preempt}); the builder refuses a kernel without them. None by default.
   */
  default List<String> requires() {
    return List.of();
  }

  /**
   * Patches this one cannot be applied with, by name (two patches that rewrite the same sites
   * differently); the builder refuses a kernel with both. None by default.
   */
  default List<String> conflicts() {
    return List.of();
  }
}
