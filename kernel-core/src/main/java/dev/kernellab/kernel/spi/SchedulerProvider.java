package dev.kernellab.kernel.spi;

import java.util.List;

/**
 * Registers a scheduler under a name, found through the {@link Registry} {@link #REGISTRY}: a
 * scheduler module lists its provider in
 * {@code META-INF/services/dev.kernellab.kernel.spi.SchedulerProvider}.
 *
 * <pre>{@code
 * Scheduler s = SchedulerProvider.create("o1");
 * }</pre>
 */
public interface SchedulerProvider extends Registry.Provider {

  /** Every registered scheduler, sorted by name. */
  Registry<SchedulerProvider> REGISTRY = Registry.sorted("scheduler", SchedulerProvider.class);

  /** The name users pass ({@code "o1"}, {@code "goodness"}). */
  @Override
  String name();

  /** One line on what the scheduler models. */
  String description();

  /** A fresh scheduler instance. */
  Scheduler create();

  /**
   * Every provider on the class path, sorted by name ({@link Registry#all()}).
   *
   * @throws IllegalStateException if two have one name
   */
  static List<SchedulerProvider> all() {
    return REGISTRY.all();
  }

  /**
   * Creates the scheduler registered as {@code name}.
   *
   * @throws IllegalArgumentException naming the known schedulers if there is none such
   */
  static Scheduler create(String name) {
    SchedulerProvider p = REGISTRY.get(name);
    Scheduler s = p.create();
    if (!s.name().equals(name)) {
      throw new IllegalStateException("scheduler provider " + p.getClass().getName() + " is registered as '" + name
          + "' but creates scheduler '" + s.name() + "'");
    }
    return s;
  }
}
