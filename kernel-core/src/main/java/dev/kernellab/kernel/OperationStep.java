package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Softirq;

/**
 * The kernel's {@link Operation.Step}: one per CPU, reset before each step, read back by
 * {@link FlowOps.Custom} to start what the step asked for.
 */
final class OperationStep implements Operation.Step {
  private final KernelCpu cpu;
  private KernelPath call;
  private long computeNs;

  OperationStep(KernelCpu cpu) {
    this.cpu = cpu;
  }

  @Override
  public CpuView cpu() {
    return cpu;
  }

  @Override
  public KernelView kernel() {
    return cpu.kernel();
  }

  @Override
  public void call(PathView path) {
    if (!(path instanceof KernelPath)) {
      // the interpreter runs only its own paths; a view of another origin has no operations
      throw new IllegalArgumentException("an operation calls kernel paths built with KernelPath, not "
          + (path == null ? "null" : path.getClass().getName()));
    }
    KernelPath p = (KernelPath) path;
    if (p.isUser()) {
      throw new IllegalArgumentException("an operation calls kernel paths, not user program " + p.function());
    }
    start();
    call = p;
  }

  @Override
  public void compute(long ns) {
    if (ns < 0) {
      throw new IllegalArgumentException("negative compute time " + ns + " ns");
    }
    start();
    computeNs = ns;
  }

  @Override
  public void raiseSoftirq(Softirq softirq) {
    cpu.raiseSoftirq(java.util.Objects.requireNonNull(softirq, "raiseSoftirq: softirq"));
  }

  private void start() {
    if (call != null || computeNs >= 0) {
      throw new IllegalStateException("an operation step may start one thing (a call or a compute), not two");
    }
  }

  void reset() {
    call = null;
    computeNs = -1;
  }

  KernelPath calledPath() {
    return call;
  }

  long computeNs() {
    return computeNs;
  }
}
