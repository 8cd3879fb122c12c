package dev.kernellab.lowlat;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;

/** Registers {@link LowLatencyPatch} as {@value LowLatencyPatch#NAME}. */
public final class LowLatencyProvider implements KernelPatchProvider {

  @Override
  public String name() {
    return LowLatencyPatch.NAME;
  }

  @Override
  public String description() {
    return "Morton's 2.4 low-latency patch: reschedule points and lock breaks at catalog sites;"
        + " boots with /proc/sys/kernel/lowlatency at 1, where the patch's default is 0, so its"
        + " counted tests (TEST_RESCHED_COUNT) are on";
  }

  @Override
  public KernelPatch create() {
    return LowLatencyPatch.unbound();
  }
}
