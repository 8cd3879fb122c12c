package dev.kernellab.sched.goodness;

import dev.kernellab.kernel.SchedulerContract;
import dev.kernellab.kernel.spi.Scheduler;

/**
 * The 2.4.17 scheduler passes kernel-core's scheduler contract on 1, 2 and 4 CPUs.
 *
 * <p>One feature differs from POSIX and is declared: among SCHED_FIFO tasks of one priority
 * 2.4.17 runs the last woken first, because add_to_runqueue() puts every woken task at the
 * head of the list and schedule() keeps the first of equal goodness. {@code
 * GoodnessRealTimeTests} pins the consequences.
 */
class GoodnessSchedulerContractTests extends SchedulerContract {

  @Override
  protected Scheduler newScheduler() {
    return new GoodnessScheduler();
  }

  @Override
  protected RealTimeOrder realTimeOrder() {
    return RealTimeOrder.LAST_WOKEN_FIRST;
  }
}
