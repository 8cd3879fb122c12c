package dev.kernellab.workloads;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * The registry of named workloads, in a fixed order, names checked unique at load:
 *
 * <pre>
 * stress       the Red Hat stress-kernel mix, with realfeel (the default)
 * latencytest  latencytest's five phases and its measuring loop
 * dbench       dbench 16, with realfeel
 * kbuild       make -j2 of a kernel tree, with realfeel
 * idle         realfeel alone on an otherwise idle machine
 * cyclictest   cyclictest's timer probe (one thread, 10 ms) under the stress mix
 * </pre>
 */
public final class Workloads {

  private Workloads() {}

  private record Entry(String name, String description, Supplier<Workload> factory) {}

  private static final List<Entry> ENTRIES = List.of(
      new Entry("stress", StandardWorkloads.STRESS_DESCRIPTION, StandardWorkloads::stress),
      new Entry("latencytest", StandardWorkloads.LATENCYTEST_DESCRIPTION, StandardWorkloads::latencytest),
      new Entry("dbench", StandardWorkloads.DBENCH_DESCRIPTION, () -> StandardWorkloads.dbench(Dbench.DEFAULT_CLIENTS)),
      new Entry("kbuild", StandardWorkloads.KBUILD_DESCRIPTION, () -> StandardWorkloads.kbuild(KernelBuild.DEFAULT_JOBS)),
      new Entry("idle", StandardWorkloads.IDLE_DESCRIPTION, StandardWorkloads::idle),
      new Entry("cyclictest", StandardWorkloads.CYCLICTEST_DESCRIPTION,
          () -> StandardWorkloads.cyclictest(1, StandardWorkloads.CYCLICTEST_INTERVAL_NS)));

  static {
    List<String> seen = new ArrayList<>();
    for (Entry e : ENTRIES) {
      if (seen.contains(e.name())) {
        throw new IllegalStateException("workload '" + e.name() + "' registered twice");
      }
      seen.add(e.name());
    }
  }

  /** The workloads' names, in registry order. */
  public static List<String> names() {
    List<String> out = new ArrayList<>();
    ENTRIES.forEach(e -> out.add(e.name()));
    return Collections.unmodifiableList(out);
  }

  /** One line per workload: name and description. */
  public static List<String> descriptions() {
    List<String> out = new ArrayList<>();
    ENTRIES.forEach(e -> out.add(e.name() + ": " + e.description()));
    return Collections.unmodifiableList(out);
  }

  /** A new instance of the workload named {@code name}, with its defaults. */
  public static Workload create(String name) {
    for (Entry e : ENTRIES) {
      if (e.name().equals(name)) {
        return e.factory().get();
      }
    }
    throw new IllegalArgumentException(
        "no workload '" + name + "' (one of " + String.join(", ", names()) + ")");
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
