package dev.kernellab.sched.o1;

import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerProvider;

/**
 * Registers {@link O1Scheduler} as {@code "o1"} (listed in
 * META-INF/services/dev.kernellab.kernel.spi.SchedulerProvider).
 */
public final class O1SchedulerProvider implements SchedulerProvider {

  /** Used by {@link java.util.ServiceLoader}. */
  public O1SchedulerProvider() {}

  @Override
  public String name() {
    return "o1";
  }

  @Override
  public String description() {
    return "Ingo Molnar's O(1) scheduler, kernel/sched.c of Linux 2.5.5 (the K3 scheduler)";
  }

  @Override
  public Scheduler create() {
    return new O1Scheduler();
  }
}
