package dev.kernellab.sched.goodness;

import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerProvider;

/**
 * Registers {@link GoodnessScheduler} as {@code "goodness"} (listed in
 * {@code META-INF/services/dev.kernellab.kernel.spi.SchedulerProvider}).
 */
public final class GoodnessSchedulerProvider implements SchedulerProvider {

  @Override
  public String name() {
    return "goodness";
  }

  @Override
  public String description() {
    return "Linux 2.4.17 kernel/sched.c: goodness() over one global runqueue, epoch recalculation";
  }

  @Override
  public Scheduler create() {
    return new GoodnessScheduler();
  }
}
