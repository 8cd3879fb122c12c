package dev.kernellab.kernel;

/**
 * Zero-time Java code inside a kernel path: what a driver does that is not worth a timing model
 * of its own (read a device register, bump a counter, wake a queue). Runs on the CPU executing
 * the path, at the instant the path reaches it.
 *
 * <pre>{@code
 * .effect("rtc_interrupt: read register C", c -> c.machine().rtc().readRegisterC())
 * }</pre>
 */
@FunctionalInterface
public interface Action {

  /** Runs the action on CPU {@code cpu}. */
  void run(KernelCpu cpu);
}
