package dev.kernellab.voluntary;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;

/** Registers {@link VoluntaryPreemptPatch} as {@value VoluntaryPreemptPatch#NAME}. */
public final class VoluntaryPreemptProvider implements KernelPatchProvider {

  @Override
  public String name() {
    return VoluntaryPreemptPatch.NAME;
  }

  @Override
  public String description() {
    return "Molnar's voluntary preemption (2.6.13 CONFIG_PREEMPT_VOLUNTARY): every might_sleep() a"
        + " reschedule point (not with preempt)";
  }

  @Override
  public KernelPatch create() {
    return new VoluntaryPreemptPatch();
  }
}
