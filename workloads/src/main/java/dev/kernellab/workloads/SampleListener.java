package dev.kernellab.workloads;

import dev.kernellab.kernel.spi.TaskView;

/**
 * Told of each latency sample as a probe takes it: a tracer that explains latencies (the lab's)
 * matches it against the kernel events it saw. Called in the simulation, at the instant the
 * probe is back in user mode; must not allocate or block.
 */
@FunctionalInterface
public interface SampleListener {

  /**
   * The probe {@code probe} took a sample on {@code cpu}: from {@code startNs} (the interrupt's
   * assertion, or the timer's programmed expiry) to {@code endNs} (now).
   */
  void sample(TaskView probe, long startNs, long endNs, int cpu);
}
