package dev.kernellab.it.contracts;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.testkit.PatchContract;

/** Love's preempt-kernel patch passes what every patch must; it hooks no site. */
class PreemptContractTests extends PatchContract {

  @Override
  protected KernelPatch patch() {
    return new PreemptKernelPatch();
  }

  @Override
  protected boolean hooksSites() {
    return false;
  }
}
