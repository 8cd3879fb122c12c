package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;

/**
 * Test patches that turn on some of realtime preemption's switches ({@link Patching}): threaded
 * interrupts, threaded softirqs, sleeping spinlocks, so that a test can take them apart.
 */
final class RtSwitches {

  private RtSwitches() {}

  /** A patch named {@code name} that turns on the switches asked for. */
  static KernelPatch of(String name, boolean interrupts, boolean softirqs, boolean sleepingSpinlocks) {
    return new KernelPatch() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void apply(Patching kernel) {
        if (interrupts) {
          kernel.threadInterrupts();
        }
        if (softirqs) {
          kernel.threadSoftirqs();
        }
        if (sleepingSpinlocks) {
          kernel.sleepingSpinlocks();
        }
      }
    };
  }
}
