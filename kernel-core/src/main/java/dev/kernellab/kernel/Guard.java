package dev.kernellab.kernel;

/**
 * A zero-time test inside a kernel path that decides whether a call happens: a
 * {@code down_trylock()}, a flag of a driver. May change state (a trylock takes what it tests).
 */
@FunctionalInterface
public interface Guard {

  /** True if the guarded call runs, tested on CPU {@code cpu}. */
  boolean test(KernelCpu cpu);
}
