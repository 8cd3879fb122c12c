package dev.kernellab.workloads;

import dev.kernellab.kernel.spi.Registry;
import java.util.List;

/**
 * The registry of named workloads, {@link #REGISTRY}, in a fixed order that this class states
 * ({@link #ORDER}) and the registry checks:
 *
 * <pre>
 * stress       the Red Hat stress-kernel mix, with realfeel (the default)
 * latencytest  latencytest's five phases and its measuring loop
 * dbench       dbench 16, with realfeel
 * kbuild       make -j2 of a kernel tree, with realfeel
 * idle         realfeel alone on an otherwise idle machine
 * cyclictest   cyclictest's timer probe (one thread, 10 ms) under the stress mix
 * </pre>
 *
 * <p>A workload of another module is listed after these, by name, once it registers a
 * {@link WorkloadProvider}. {@code dev.kernellab.workloads.rtapp.RtAppWorkload#resolve} also
 * takes the path of an rt-app file (that package depends on this one, not the reverse).
 */
public final class Workloads {

  private Workloads() {}

  /**
   * The order of the listing and of error messages, stated here rather than left to the class
   * path: the default first, and the same order in a reactor build, a shaded jar and a Spark
   * executor.
   */
  public static final List<String> ORDER = List.of("stress", "latencytest", "dbench", "kbuild", "idle", "cyclictest");

  /** Every registered workload: {@link #ORDER}, then any other by name. */
  public static final Registry<WorkloadProvider> REGISTRY =
      Registry.ordered("workload", WorkloadProvider.class, ORDER);

  /** The workloads' names, in registry order. */
  public static List<String> names() {
    return REGISTRY.names();
  }

  /** One line per workload: name and description. */
  public static List<String> descriptions() {
    return REGISTRY.all().stream().map(p -> p.name() + ": " + p.description()).toList();
  }

  /**
   * A new instance of the workload named {@code name}, with its defaults.
   *
   * @throws IllegalArgumentException naming the known workloads if there is none such
   */
  public static Workload create(String name) {
    WorkloadProvider p = REGISTRY.get(name);
    Workload w = p.create();
    if (!w.name().equals(name)) {
      throw new IllegalStateException("workload provider " + p.getClass().getName() + " is registered as '" + name
          + "' but creates workload '" + w.name() + "'");
    }
    return w;
  }

  /**
   * The stress mix with realfeel, its crashme children under an {@code RLIMIT_CORE} of
   * {@code coreLimitBytes} ({@code ulimit -c}; the default, {@code stress}, is 0: no child dumps
   * core). {@code dev.kernellab.paths.fs.Coredump.RLIM_INFINITY} is {@code ulimit -c unlimited}:
   * each child that dies writes its core under the big kernel lock.
   */
  public static Workload stress(long coreLimitBytes) {
    if (coreLimitBytes < 0) {
      throw new IllegalArgumentException("a core limit is >= 0 bytes, got " + coreLimitBytes);
    }
    return StandardWorkloads.stress(coreLimitBytes);
  }

  /** dbench with {@code clients} clients and realfeel. */
  public static Workload dbench(int clients) {
    return StandardWorkloads.dbench(clients);
  }

  /** make -j{@code jobs} with realfeel. */
  public static Workload kbuild(int jobs) {
    return StandardWorkloads.kbuild(jobs);
  }

  /** cyclictest with {@code threads} threads at {@code intervalNs} under the stress mix. */
  public static Workload cyclictest(int threads, long intervalNs) {
    return StandardWorkloads.cyclictest(threads, intervalNs);
  }
}
