package dev.kernellab.lockbreak;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.testkit.PatchContract;

/** The lock-break patch passes what every patch must. */
class LockBreakContractTests extends PatchContract {

  @Override
  protected KernelPatch patch() {
    return new LockBreakPatch();
  }
}
