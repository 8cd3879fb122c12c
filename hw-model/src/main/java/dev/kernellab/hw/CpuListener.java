package dev.kernellab.hw;

/**
 * What the machine tells the software running on a CPU: the kernel implements this.
 *
 * <p>Both callbacks run inside the simulation's event loop, at the instant they describe, with
 * the CPU holding no work segment. Before returning, the implementation normally starts the
 * CPU's next segment ({@link Cpu#startCompute}, {@link Cpu#startSpin} or {@link Cpu#halt}).
 */
public interface CpuListener {

  /**
   * The CPU accepted an interrupt: interrupts are now disabled (an interrupt gate clears IF),
   * the vector is in service until {@link Cpu#eoi()}, and the segment that was running is
   * suspended.
   *
   * @param cpu the CPU
   * @param vector the accepted vector
   * @param suspendedComputeNs what was left of the suspended compute segment, 0 if the CPU was
   *     spinning, halted or between segments
   */
  void interruptAccepted(Cpu cpu, int vector, long suspendedComputeNs);

  /** The compute segment started with {@link Cpu#startCompute} ran to its end. */
  void segmentFinished(Cpu cpu);
}
