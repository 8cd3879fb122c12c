package dev.kernellab.sched.o1;

import dev.kernellab.kernel.SchedulerContract;
import dev.kernellab.kernel.spi.Scheduler;

/** The O(1) scheduler passes kernel-core's scheduler contract on 1, 2 and 4 CPUs. */
class O1SchedulerContractTests extends SchedulerContract {

  @Override
  protected Scheduler newScheduler() {
    return new O1Scheduler();
  }
}
