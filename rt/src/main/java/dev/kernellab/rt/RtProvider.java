package dev.kernellab.rt;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;

/** Registers {@link RtPatch} as {@value RtPatch#NAME}. */
public final class RtProvider implements KernelPatchProvider {

  @Override
  public String name() {
    return RtPatch.NAME;
  }

  @Override
  public String description() {
    return "realtime-preempt (PREEMPT_RT): device handlers in irq/N threads at SCHED_FIFO 50, the timer's"
        + " softirqs in ktimers/N, spinlock_t and the BKL as an rt_mutex with priority inheritance";
  }

  @Override
  public KernelPatch create() {
    return new RtPatch();
  }
}
