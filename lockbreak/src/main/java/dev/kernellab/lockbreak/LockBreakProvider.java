package dev.kernellab.lockbreak;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;

/** Registers {@link LockBreakPatch} as {@value LockBreakPatch#NAME}. */
public final class LockBreakProvider implements KernelPatchProvider {

  @Override
  public String name() {
    return LockBreakPatch.NAME;
  }

  @Override
  public String description() {
    return "Love's 2.4 lock-break patch: long-held spinlocks dropped inside their walks (with preempt)";
  }

  @Override
  public KernelPatch create() {
    return new LockBreakPatch();
  }
}
