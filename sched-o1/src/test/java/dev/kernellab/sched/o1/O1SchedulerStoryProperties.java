package dev.kernellab.sched.o1;

import dev.kernellab.kernel.SchedulerStoryContract;
import dev.kernellab.kernel.spi.Scheduler;

/** The O(1) scheduler under kernel-core's random stories with independently drawn steps. */
class O1SchedulerStoryProperties extends SchedulerStoryContract {

  @Override
  protected Scheduler newScheduler() {
    return new O1Scheduler();
  }
}
