package dev.kernellab.lab;

import com.sun.management.ThreadMXBean;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.OperationProfile;
import dev.kernellab.workloads.rtapp.RtAppWorkload;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code kernel-lab bench}: how fast the simulator runs each workload under each configuration,
 * with a bare primitive heap's hold rate measured in the same process as the yardstick, so that
 * the ratio stays meaningful on a noisy machine. Events and operations per simulated second are
 * properties of the model (the same on every machine); the rest is this machine's.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Measures the simulator: for each workload and configuration, one run after a warm-up run"
          + " (for the JIT), on this thread alone, timing the run and not the kernel's composition."
          + " Reports engine events and interpreter"
          + " operations per simulated second (deterministic), wall ns per event and its ratio to"
          + " a bare heap's hold operation, the real-time factor, the share of the wall time the"
          + " run was on a CPU (below 100%% on a machine shared with others), the allocation rate, the"
          + " peak heap and the heap the run keeps (live, after a collection).",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab bench                                    stress, the four kernels",
      "  kernel-lab bench --workloads stress,dbench,latencytest,kbuild,idle,cyclictest",
      "  kernel-lab bench --configs preempt+lowlat --ops     where the interpreter's time goes",
      "",
      "Exit status: 0 success; 2 bad usage; 1 other."
    })
final class BenchCommand implements Callable<Integer> {

  /** Keys in the yardstick heap: about the size of a loaded kernel's event queue. */
  static final int HOLD_SIZE = 1024;
  /** Hold operations of the yardstick per measurement. */
  static final int HOLD_OPS = 20_000_000;

  /** Where the yardstick's result goes, so that the JIT cannot drop the loop that made it. */
  static volatile long blackhole;

  @Spec CommandSpec spec;

  @Option(names = "--workloads", defaultValue = "stress", split = ",", paramLabel = "LIST",
      description = "Workloads to measure. Default: ${DEFAULT-VALUE}.")
  List<String> workloads;

  @Option(names = "--configs", defaultValue = "vanilla,preempt,lowlat,preempt+lowlat", split = ",",
      paramLabel = "LIST", description = "Kernel configurations. Default: ${DEFAULT-VALUE}.")
  List<String> configs;

  @Option(names = "--scheduler", defaultValue = "goodness", paramLabel = "NAME",
      description = "goodness or o1. Default: ${DEFAULT-VALUE}.")
  String scheduler;

  @Option(names = "--cpus", defaultValue = "1", paramLabel = "N", description = "CPUs. Default: ${DEFAULT-VALUE}.")
  int cpus;

  @Option(names = "--duration", defaultValue = "60s", paramLabel = "TIME",
      description = "Simulated time of each measured run. Default: ${DEFAULT-VALUE}.")
  String duration;

  @Option(names = "--warmup", defaultValue = "10s", paramLabel = "TIME",
      description = "Simulated time of a warm-up run. Default: ${DEFAULT-VALUE}.")
  String warmup;

  /*
   * Why a wall-time floor: the JIT compiles the interpreter's loop and the operations over the
   * first seconds of wall time, and a run measured before it is done is slower by as much as
   * it likes. Measured on this 2-core VM at c4f9a02, each in a fresh JVM: idle under
   * preempt+lowlat after one 10 s warm-up run (about 50 ms of wall time) ran at 88-121x in four
   * runs, and at 290-300x after 3 min simulated (0.6 s of wall time); stress under
   * preempt+lowlat ran at 65-69x after 2 min simulated (about 2 s), as after 5 min. 5 s is
   * over twice the longest of those, and is paid again before each workload and configuration,
   * whose operations the JIT has not yet seen together.
   */
  @Option(names = "--warmup-wall", defaultValue = "5s", paramLabel = "TIME",
      description = "Wall time the warm-up runs before each measured run take at least: they are repeated "
          + "until then, so that the JIT has compiled what the run measures; 0 for one warm-up run. "
          + "Default: ${DEFAULT-VALUE}.")
  String warmupWall;

  /** One measured run. */
  record Row(String workload, String config, long simulatedNs, long events, long queued, long ops, long wallNs,
      long cpuNs, long allocatedBytes, long peakHeapBytes, long liveHeapBytes) {

    double eventsPerSimS() {
      return events / (simulatedNs / 1e9);
    }

    double queuedPerSimS() {
      return queued / (simulatedNs / 1e9);
    }

    double opsPerSimS() {
      return ops / (simulatedNs / 1e9);
    }

    double nsPerEvent() {
      return (double) wallNs / Math.max(1, events);
    }

    /** The share of the wall time this thread ran: below 100 % on a machine shared with others. */
    double onCpuPct() {
      return 100.0 * cpuNs / Math.max(1, wallNs);
    }

    double realtimeFactor() {
      return (double) simulatedNs / wallNs;
    }

    double allocMbPerWallS() {
      return allocatedBytes / 1e6 / (wallNs / 1e9);
    }
  }

  @Option(names = "--ops",
      description = "After each measured run, a profiled run of the same length: the operations the"
          + " interpreter ran per simulated second, by kind and for the busiest paths, and each"
          + " kind's share of the wall time (the JDK Flight Recorder's method samples, 1 a ms).")
  boolean ops;

  /** Paths listed under --ops. */
  static final int BUSIEST_PATHS = 15;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    long durationNs = Durations.parseOption("--duration", duration);
    long warmupNs = Durations.parseOption("--warmup", warmup);
    long warmupWallNs = Durations.parseOptionOrZero("--warmup-wall", warmupWall);
    List<Experiment> es = new ArrayList<>();
    for (String w : workloads) {
      Experiment.option("--workloads", () -> RtAppWorkload.resolve(w.trim()));
      for (String c : Experiment.distinctConfigs("--configs", configs)) {
        Experiment.option("--configs", () -> KernelBuilder.configurationPatches(c.trim()));
        es.add(new Experiment(w.trim(), c.trim(), scheduler, cpus, 100, durationNs, 1, false));
      }
    }
    out.printf(Locale.ROOT,
        "kernel-lab bench: %s, %d CPU%s, HZ 100, seed 1, %s simulated per run after %s%n",
        scheduler, cpus, cpus == 1 ? "" : "s", Durations.simulated(durationNs),
        warmupWallNs == 0 ? "one warm-up run of " + Durations.simulated(warmupNs)
            : "warm-up runs of " + Durations.simulated(warmupNs) + " (" + Durations.simulated(warmupWallNs)
                + " of wall time at least)");
    double heapNs = holdNsPerOp();
    out.printf(Locale.ROOT, "yardstick: a bare heap of %d long keys holds at %.1f ns per operation%n%n", HOLD_SIZE, heapNs);
    out.printf(Locale.ROOT, "%-12s %-15s %12s %12s %12s %9s %8s %10s %7s %10s %8s %8s%n", "workload", "config",
        "events/sim-s", "queued/sim-s", "ops/sim-s", "ns/event", "x heap", "real time", "on-cpu", "alloc MB/s", "peak MB",
        "live MB");
    out.flush();
    for (Experiment e : es) {
      long warmingSince = System.nanoTime();
      do {
        run(e.withDuration(warmupNs));
      } while (System.nanoTime() - warmingSince < warmupWallNs);
      Row r = run(e);
      out.printf(Locale.ROOT, "%-12s %-15s %,12.0f %,12.0f %,12.0f %9.1f %8.1f %9.1fx %6.0f%% %10.2f %8.1f %8.1f%n",
          r.workload(), r.config(), r.eventsPerSimS(), r.queuedPerSimS(), r.opsPerSimS(), r.nsPerEvent(), r.nsPerEvent() / heapNs, r.realtimeFactor(),
          r.onCpuPct(), r.allocMbPerWallS(), r.peakHeapBytes() / 1e6, r.liveHeapBytes() / 1e6);
      out.flush();
      if (ops) {
        printProfile(out, e);
      }
    }
    return 0;
  }

  /** The --ops table of {@code e}: a run of its own, so that counting does not touch the figures above. */
  static void printProfile(PrintWriter out, Experiment e) {
    ExperimentRunner.Composed c = ExperimentRunner.compose(e, null);
    Kernel k = c.kernel();
    k.profileOperations();
    long ops0 = k.opsExecuted();
    long skipped0 = k.opsFastForwarded();
    OperationSampler.Samples samples = OperationSampler.run(k, e.durationNs());
    double simS = k.now() / 1e9;
    long ran = k.opsExecuted() - ops0;
    OperationProfile p = k.operationProfile();
    out.printf(Locale.ROOT, "%n  %s under %s: %,.0f operations per simulated second, %,d wall-time samples of %d ms%n",
        e.workload(), e.config(), ran / simS, samples.total(), OperationSampler.PERIOD.toMillis());
    out.printf(Locale.ROOT, "  and %,.0f per simulated second run by fast-forward, in the last table only%n",
        (k.opsFastForwarded() - skipped0) / simS);
    out.printf(Locale.ROOT, "  %-56s %14s %8s %8s%n", "operation", "ops/sim-s", "of ops", "of wall");
    for (OperationProfile.Count n : p.byKind()) {
      out.printf(Locale.ROOT, "  %-56s %,14.0f %7.1f%% %7.1f%%%n", n.name(), n.ops() / simS, 100.0 * n.ops() / Math.max(1, ran),
          100.0 * samples.byKind().getOrDefault(n.name(), 0L) / Math.max(1, samples.total()));
    }
    // the rest of the wall time: the interpreter's loop, the engine, the tracers, the counting
    samples.outside().entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(BUSIEST_PATHS)
        .forEach(o -> out.printf(Locale.ROOT, "  %-56s %14s %8s %7.1f%%%n", "(no operation) " + o.getKey(), "", "",
            100.0 * o.getValue() / Math.max(1, samples.total())));
    out.printf(Locale.ROOT, "  %-56s %14s %8s%n", "busiest paths", "ops/sim-s", "of ops");
    p.byPath().stream().limit(BUSIEST_PATHS).forEach(n -> out.printf(Locale.ROOT, "  %-56s %,14.0f %7.1f%%%n",
        n.name(), n.ops() / simS, 100.0 * n.ops() / Math.max(1, ran)));
    long forwarded = k.opsFastForwarded() - skipped0;
    out.printf(Locale.ROOT, "  %-56s %14s %8s%n", "busiest paths run by fast-forward", "ops/sim-s", "of those");
    p.fastForwardedByPath().stream().limit(BUSIEST_PATHS).forEach(n -> out.printf(Locale.ROOT, "  %-56s %,14.0f %7.1f%%%n",
        n.name(), n.ops() / simS, 100.0 * n.ops() / Math.max(1, forwarded)));
    out.println();
    out.flush();
  }

  /** Runs {@code e} on this thread, measuring the run's wall and CPU time, its allocation, and the peak heap. */
  static Row run(Experiment e) {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP).toList();
    System.gc();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    ExperimentRunner.Composed c = ExperimentRunner.compose(e, null);
    Kernel k = c.kernel();
    // the run alone: composing the kernel (the catalog, the page cache's arrays) is set-up
    long alloc0 = threads.getCurrentThreadAllocatedBytes();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    k.run(e.durationNs());
    long wall = System.nanoTime() - wall0;
    long cpu = threads.getCurrentThreadCpuTime() - cpu0;
    long alloc = threads.getCurrentThreadAllocatedBytes() - alloc0;
    // what the run keeps, with the kernel still reachable: the figure that must not grow with
    // the simulated time (the peak also counts garbage not yet collected)
    System.gc();
    long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    // read from the same pools after that collection, so the peak covers the live heap too (a
    // collection may promote into a pool past the peak it had during the run)
    long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    java.lang.ref.Reference.reachabilityFence(k);
    return new Row(e.workload(), e.config(), k.now(), k.eventsFired(),
        k.eventsFired() - k.eventsFiredInline(), k.opsExecuted(), wall, cpu, alloc, peak, live);
  }

  /**
   * The hold model on a bare binary heap of {@code long} keys (pop the earliest, push it back
   * later by an exponential increment): the least work an event queue can do per event.
   */
  static double holdNsPerOp() {
    SplittableRandom r = new SplittableRandom(1);
    long[] increments = new long[1 << 16];
    for (int i = 0; i < increments.length; i++) {
      increments[i] = (long) (-Math.log(1 - r.nextDouble()) * 1_000.0);
    }
    long[] heap = new long[HOLD_SIZE];
    for (int i = 0; i < HOLD_SIZE; i++) {
      heap[i] = increments[i];
    }
    java.util.Arrays.sort(heap);
    double best = Double.MAX_VALUE;
    long sink = 0;
    for (int round = 0; round < 3; round++) {
      long t0 = System.nanoTime();
      for (int op = 0; op < HOLD_OPS; op++) {
        long v = heap[0] + increments[op & (increments.length - 1)];
        int i = 0;
        while (true) {
          int l = 2 * i + 1;
          if (l >= HOLD_SIZE) {
            break;
          }
          int m = l + 1 < HOLD_SIZE && heap[l + 1] < heap[l] ? l + 1 : l;
          if (heap[m] >= v) {
            break;
          }
          heap[i] = heap[m];
          i = m;
        }
        heap[i] = v;
      }
      sink += heap[0];
      best = Math.min(best, (double) (System.nanoTime() - t0) / HOLD_OPS);
    }
    blackhole = sink;
    return best;
  }
}
