package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.Scheduler;
/** The test scheduler passes the contract, which is what lets the other tests rely on it. */
class SimpleRoundRobinSchedulerTests extends SchedulerContract {

  @Override
  protected Scheduler newScheduler() {
    return new SimpleRoundRobinScheduler();
  }
}
