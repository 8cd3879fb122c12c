package dev.kernellab.sched.goodness;

import dev.kernellab.kernel.SchedulerStoryContract;
import dev.kernellab.kernel.spi.Scheduler;

/** The 2.4.17 scheduler under kernel-core's random stories with independently drawn steps. */
class GoodnessSchedulerStoryProperties extends SchedulerStoryContract {

  @Override
  protected Scheduler newScheduler() {
    return new GoodnessScheduler();
  }
}
