package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.Scheduler;
/** The test scheduler under the random stories every scheduler passes. */
class SimpleRoundRobinSchedulerStoryTests extends SchedulerStoryContract {

  @Override
  protected Scheduler newScheduler() {
    return new SimpleRoundRobinScheduler();
  }
}
