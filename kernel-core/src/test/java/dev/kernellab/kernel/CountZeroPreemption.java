package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.TaskView;
/**
 * A stand-in for the preempt-kernel patch's decisions, for kernel-core's own tests: preempt
 * when the count is zero and need_resched is set. The real patch lives in the preempt module
 * ({@code dev.kernellab.preempt.PreemptKernelModel}), which kernel-core may not see; keep the
 * two in step.
 */
public final class CountZeroPreemption implements PreemptionModel {

  @Override
  public boolean preemptOnIrqReturn(CpuView cpu, TaskView current) {
    return current.preemptCount() == 0 && current.needResched();
  }

  @Override
  public boolean preemptOnEnable(CpuView cpu, TaskView current) {
    return current.preemptCount() == 0 && current.needResched();
  }

  /** CONFIG_PREEMPT, as the real patch says: kernel code with a zero count is preemptible. */
  @Override
  public boolean preemptsKernelCode() {
    return true;
  }

  /** As a patch. */
  public static KernelPatch patch() {
    return new KernelPatch() {
      @Override
      public String name() {
        return "test-preempt";
      }

      @Override
      public void apply(Patching k) {
        k.preemptionModel(new CountZeroPreemption());
      }
    };
  }
}
