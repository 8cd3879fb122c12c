package dev.kernellab.it.contracts;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.lowlat.LowLatencyPatch;
import dev.kernellab.testkit.PatchContract;

/**
 * Morton's patch passes what every patch must. Run here, not in its module: the testkit runs
 * the workloads, whose own tests use the lowlatency module.
 */
class LowLatencyContractTests extends PatchContract {

  @Override
  protected KernelPatch patch() {
    return LowLatencyPatch.unbound();
  }
}
