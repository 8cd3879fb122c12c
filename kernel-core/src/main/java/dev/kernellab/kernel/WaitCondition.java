package dev.kernellab.kernel;

/**
 * The condition of {@code wait_event(wq, condition)}: checked before sleeping and after every
 * wake-up, so a wake-up that arrives before the sleep is not lost.
 */
@FunctionalInterface
public interface WaitCondition {

  /** True if the waiter may proceed. */
  boolean ready();
}
