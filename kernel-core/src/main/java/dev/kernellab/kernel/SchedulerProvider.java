package dev.kernellab.kernel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Registers a scheduler under a name, found through {@link ServiceLoader}: a scheduler module
 * lists its provider in {@code META-INF/services/dev.kernellab.kernel.SchedulerProvider}.
 *
 * <pre>{@code
 * Scheduler s = SchedulerProvider.create("o1");
 * }</pre>
 */
public interface SchedulerProvider {

  /** The name users pass ({@code "o1"}, {@code "goodness"}). */
  String name();

  /** One line on what the scheduler models. */
  String description();

  /** A fresh scheduler instance. */
  Scheduler create();

  /** Every provider on the class path, sorted by name; duplicate names are an error. */
  static List<SchedulerProvider> all() {
    List<SchedulerProvider> list = new ArrayList<>();
    ServiceLoader.load(SchedulerProvider.class).forEach(list::add);
    list.sort(Comparator.comparing(SchedulerProvider::name));
    for (int i = 1; i < list.size(); i++) {
      if (list.get(i).name().equals(list.get(i - 1).name())) {
        throw new IllegalStateException("two schedulers registered as '" + list.get(i).name() + "'");
      }
    }
    return list;
  }

  /**
   * Creates the scheduler registered as {@code name}.
   *
   * @throws IllegalArgumentException naming the known schedulers if there is none such
   */
  static Scheduler create(String name) {
    List<SchedulerProvider> all = all();
    for (SchedulerProvider p : all) {
      if (p.name().equals(name)) {
        Scheduler s = p.create();
        if (!s.name().equals(name)) {
          throw new IllegalStateException("scheduler provider " + p.getClass().getName() + " is registered as '" + name
              + "' but creates scheduler '" + s.name() + "'");
        }
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown scheduler '" + name + "'; known: "
            + (all.isEmpty()
                ? "none on the class path"
                : all.stream().map(SchedulerProvider::name).collect(Collectors.joining(", "))));
  }
}
