package dev.kernellab.kernel;

/**
 * A measurement taken in user space, at the instant the probing task runs user code again
 * (realfeel's {@code rdtsc} after {@code read()} returns; cyclictest's clock read after the
 * wake-up).
 */
@FunctionalInterface
public interface UserProbe {

  /** Records a sample for {@code task} at {@code now}. */
  void record(KernelCpu cpu, Task task, long now);
}
