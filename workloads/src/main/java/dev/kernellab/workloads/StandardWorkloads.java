package dev.kernellab.workloads;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The compositions the registry names: probes and loads with their defaults, and their
 * providers, which this module's {@code META-INF/services/dev.kernellab.workloads.WorkloadProvider}
 * lists.
 */
final class StandardWorkloads {

  private StandardWorkloads() {}

  /** A provider of one of these workloads. */
  private abstract static class Standard implements WorkloadProvider {
    private final String name;
    private final String description;
    private final Supplier<Workload> factory;

    Standard(String name, String description, Supplier<Workload> factory) {
      this.name = name;
      this.description = description;
      this.factory = factory;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return description;
    }

    @Override
    public Workload create() {
      return factory.get();
    }
  }

  /** Registers {@code stress}. */
  public static final class StressProvider extends Standard {
    public StressProvider() {
      super("stress", STRESS_DESCRIPTION, StandardWorkloads::stress);
    }
  }

  /** Registers {@code latencytest}. */
  public static final class LatencytestProvider extends Standard {
    public LatencytestProvider() {
      super("latencytest", LATENCYTEST_DESCRIPTION, StandardWorkloads::latencytest);
    }
  }

  /** Registers {@code dbench}, with {@link Dbench#DEFAULT_CLIENTS} clients. */
  public static final class DbenchProvider extends Standard {
    public DbenchProvider() {
      super("dbench", DBENCH_DESCRIPTION, () -> dbench(Dbench.DEFAULT_CLIENTS));
    }
  }

  /** Registers {@code kbuild}, with {@link KernelBuild#DEFAULT_JOBS} jobs. */
  public static final class KbuildProvider extends Standard {
    public KbuildProvider() {
      super("kbuild", KBUILD_DESCRIPTION, () -> kbuild(KernelBuild.DEFAULT_JOBS));
    }
  }

  /** Registers {@code idle}. */
  public static final class IdleProvider extends Standard {
    public IdleProvider() {
      super("idle", IDLE_DESCRIPTION, StandardWorkloads::idle);
    }
  }

  /** Registers {@code cyclictest}: one thread at {@link #CYCLICTEST_INTERVAL_NS}. */
  public static final class CyclictestProvider extends Standard {
    public CyclictestProvider() {
      super("cyclictest", CYCLICTEST_DESCRIPTION, () -> cyclictest(1, CYCLICTEST_INTERVAL_NS));
    }
  }

  static final String STRESS_DESCRIPTION =
      "Red Hat stress-kernel (NFS compile over loopback, ttcp, FIFOs and mmap, FPU, fs churn,"
          + " crashme) with realfeel at 2048 Hz";
  static final String LATENCYTEST_DESCRIPTION =
      "latencytest's phases (x11, /proc, 350 MB disk write, copy, read) with its 2048 Hz RTC loop";
  static final String DBENCH_DESCRIPTION = "dbench clients replaying a NetBench-style trace, with realfeel";
  static final String KBUILD_DESCRIPTION = "make -jN of a kernel tree from the local disk, with realfeel";
  static final String IDLE_DESCRIPTION = "realfeel alone on an otherwise idle machine";
  static final String CYCLICTEST_DESCRIPTION =
      "cyclictest (1 thread, 10 ms, nanosleep as 2.4.17 has it: whole jiffies plus one) under the"
          + " stress mix";

  /**
   * The interval of the {@code cyclictest} workload: 10 ms, not cyclictest's own 1000 us,
   * because 2.4.17's sys_nanosleep busy-waits (udelay) for a SCHED_FIFO sleep of 2 ms or less:
   * at 1000 us the probe would take the whole CPU and starve the load it is meant to run under.
   * At 10 ms the sleep goes through the timer wheel and wakes on a jiffy, which is what the
   * probe shows of a 2.4 kernel.
   */
  static final long CYCLICTEST_INTERVAL_NS = 10_000_000;

  /** A workload made of parts: {@code build} adds them to a kernel and returns their handle. */
  private record Composed(String name, String description,
      java.util.function.BiFunction<Kernel24Paths, KernelBuilder, Workload.Run> build) implements Workload {
    @Override
    public Run install(Kernel24Paths paths, KernelBuilder b) {
      return build.apply(paths, b);
    }
  }

  /** An installed workload, as the parts that differ between workloads. */
  private record Parts(
      String name,
      Consumer<Kernel> onStart,
      Function<Kernel, WorkloadResult> results,
      LongSupplier samples,
      List<String> mustRun,
      Consumer<SampleListener> listener,
      ProbeSpec probe) implements Workload.Run {
    @Override
    public void start(Kernel k) {
      onStart.accept(k);
    }

    @Override
    public WorkloadResult result(Kernel k) {
      return results.apply(k);
    }

    @Override
    public long progress() {
      return samples.getAsLong();
    }

    @Override
    public void listen(SampleListener l) {
      listener.accept(l);
    }
  }

  private static void addAll(KernelBuilder b, List<TaskSpec> tasks) {
    tasks.forEach(b::task);
  }

  /** realfeel with a load: the parts every realfeel workload shares. */
  private static Parts withRealfeel(String name, Kernel24Paths paths, KernelBuilder b, List<TaskSpec> load,
      List<String> loadMustRun, Consumer<Kernel> startLoad, Function<Kernel, Map<String, Long>> counters,
      Function<Kernel, Double> throughput, String throughputDefinition) {
    Realfeel rf = new Realfeel(paths, Realfeel.DEFAULT_HZ);
    b.task(rf.task());
    addAll(b, load);
    List<String> must = new ArrayList<>(List.of("realfeel"));
    must.addAll(loadMustRun);
    return new Parts(name,
        k -> {
          startLoad.accept(k);
          rf.start(k);
        },
        k -> new WorkloadResult(name, List.of(rf.result()), throughput.apply(k), throughputDefinition,
            counters.apply(k)),
        rf::samples, List.copyOf(must), rf::listen, rf.probe());
  }

  static Workload stress() {
    return stress(StressMix.DEFAULT_CORE_LIMIT);
  }

  static Workload stress(long coreLimitBytes) {
    return new Composed("stress", STRESS_DESCRIPTION, (paths, b) -> {
      StressMix mix = new StressMix(paths, coreLimitBytes);
      return withRealfeel("stress", paths, b, mix.tasks(), mix.mustRun(), k -> mix.createFiles(),
          k -> {
            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("compiles", mix.compiles());
            counters.put("nfs_rpcs", mix.nfsRpcs());
            counters.put("ttcp_segments", mix.ttcpSegments());
            counters.put("fs_rounds", mix.fsRounds());
            return counters;
          }, k -> null, null);
    });
  }

  static Workload latencytest() {
    return new Composed("latencytest", LATENCYTEST_DESCRIPTION, (paths, b) -> {
      Latencytest lt = new Latencytest(paths, 350_000_000L);
      addAll(b, lt.tasks());
      return new Parts("latencytest", k -> lt.start(k, paths.pageCache()),
          k -> new WorkloadResult("latencytest", List.of(lt.result()), null, null,
              Map.of("file_bytes", lt.fileBytes())),
          lt::samples, List.of("latencytest", "do_tests"), lt::listen, lt.probe());
    });
  }

  static Workload dbench(int clients) {
    return new Composed("dbench", DBENCH_DESCRIPTION, (paths, b) -> {
      Dbench db = new Dbench(paths, clients);
      List<String> must = new ArrayList<>();
      db.tasks().forEach(t -> must.add(t.comm()));
      return withRealfeel("dbench", paths, b, db.tasks(), must, k -> { },
          k -> {
            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("clients", (long) clients);
            counters.put("bytes_moved", db.bytesMoved());
            counters.put("files", db.operations());
            counters.put("syscalls", db.syscalls());
            return counters;
          },
          k -> db.throughputMbPerS(k.now()),
          "dbench: 10^-6 x bytes read and written by all clients / elapsed seconds");
    });
  }

  static Workload kbuild(int jobs) {
    return new Composed("kbuild", KBUILD_DESCRIPTION, (paths, b) -> {
      KernelBuild kb = new KernelBuild(paths, jobs);
      // make sleeps in wait4 for as long as a compile takes: only the probe must keep running.
      return withRealfeel("kbuild", paths, b, kb.tasks(), List.of(), k -> kb.createFiles(paths.pageCache()),
          k -> Map.of("compiles", kb.compiles()), k -> null, null);
    });
  }

  static Workload idle() {
    return new Composed("idle", IDLE_DESCRIPTION, (paths, b) ->
        withRealfeel("idle", paths, b, List.of(), List.of(), k -> { }, k -> Map.of(), k -> null, null));
  }

  static Workload cyclictest(int threads, long intervalNs) {
    return new Composed("cyclictest", CYCLICTEST_DESCRIPTION, (paths, b) -> {
      Cyclictest ct = new Cyclictest(threads, intervalNs, b.hz());
      StressMix mix = new StressMix(paths);
      addAll(b, ct.tasks());
      addAll(b, mix.tasks());
      List<String> must = new ArrayList<>();
      ct.tasks().forEach(t -> must.add(t.comm()));
      return new Parts("cyclictest", k -> mix.createFiles(),
          k -> {
            Map<String, Long> counters = new LinkedHashMap<>();
            counters.put("interval_ns", ct.intervalNs());
            counters.put("compiles", mix.compiles());
            return new WorkloadResult("cyclictest", List.of(ct.result()), null, null, counters);
          },
          ct::samples, List.copyOf(must), ct::listen, ct.probe());
    });
  }
}
