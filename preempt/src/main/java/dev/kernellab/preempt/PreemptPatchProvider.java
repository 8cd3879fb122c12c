package dev.kernellab.preempt;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;

/** Registers {@link PreemptKernelPatch} as {@code preempt}. */
public final class PreemptPatchProvider implements KernelPatchProvider {

  @Override
  public String name() {
    return PreemptKernelPatch.NAME;
  }

  @Override
  public String description() {
    return "Robert Love's preempt-kernel patch (CONFIG_PREEMPT: 2.4.17-1, and the O(1) 2.4.18-2)";
  }

  @Override
  public KernelPatch create() {
    return new PreemptKernelPatch();
  }
}
