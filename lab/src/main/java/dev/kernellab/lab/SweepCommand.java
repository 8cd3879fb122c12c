package dev.kernellab.lab;

import dev.kernellab.workloads.LatencySummary;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code kernel-lab sweep}: many seeds and configurations, the spread of each figure. */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one workload under several configurations for many seeds, in parallel on all cores"
          + " (each simulation on one thread) or as an Apache Spark job (--engine spark), and summarises each configuration with the spread"
          + " of its figures across seeds (min, median, max) and the coordinates of its worst run,"
          + " so that it can be replayed with kernel-lab explain.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab sweep --seeds 1..100 --duration 10m",
      "  kernel-lab sweep --seeds 3,17,42 --configs lowlat --json sweep.json",
      "  kernel-lab sweep --seeds 1..1000 --results sweep.jsonl      (rerun it to resume)",
      "  kernel-lab sweep --seeds 1..1000 --engine spark --master local[4]",
      "",
      "Exit status: 0 success; 2 bad usage; 3 a kernel bug in a cell (--debug-checks); 1 a cell lost, or other."
    })
final class SweepCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin CommonOptions common;

  @Option(names = "--configs", defaultValue = "vanilla,preempt,lowlat,preempt+lowlat", split = ",",
      paramLabel = "LIST", description = "Kernel configurations. Default: ${DEFAULT-VALUE}.")
  List<String> configs;

  @Option(names = "--seeds", defaultValue = "1..10", paramLabel = "SEEDS",
      description = "Seeds: a range A..B or a list A,B,C. Default: ${DEFAULT-VALUE}.")
  String seeds;

  @Option(names = "--workers", paramLabel = "N",
      description = "Simulations run at once by the local engine. Default: all cores.")
  Integer workers;

  @Option(names = "--engine", defaultValue = "local", paramLabel = "NAME",
      description = "Where the cells run: local (this JVM's threads) or spark (an Apache Spark job, with"
          + " lab-spark on the class path). Default: ${DEFAULT-VALUE}.")
  String engine;

  @Option(names = "--master", paramLabel = "URL",
      description = "The Spark master of --engine spark: local[*] (the default, no cluster), local[N],"
          + " spark://HOST:7077, yarn, k8s://https://HOST:443.")
  String master;

  @Option(names = "--results", paramLabel = "FILE.jsonl",
      description = "Append each finished cell to FILE as one line of JSON, and skip the cells FILE"
          + " already holds: a stopped sweep resumes where it was.")
  String results;

  @Override
  public Integer call() {
    List<Long> seedList = parseSeeds(seeds);
    List<Experiment> es = new ArrayList<>();
    for (String c : Experiment.distinctConfigs("--configs", configs)) {
      for (long s : seedList) {
        es.add(common.experiment("--configs", c.trim()).withSeed(s));
      }
    }
    CommonOptions.checkIrqThreadPriorities(es);
    if (master != null) {
      checkMaster(master);
    }
    SweepEngine eng = SweepEngine.named(engine);
    OutputFile json = common.jsonFile();
    PrintWriter err = spec.commandLine().getErr();
    SweepEngine.Options options = new SweepEngine.Options(
        workers == null ? OptionalInt.empty() : OptionalInt.of(workers), Optional.ofNullable(master), common.quiet, err);
    Map<Experiment, CellOutcome> outcomes = new ConcurrentHashMap<>();
    try (ResultsFile file = results == null ? null : ResultsFile.open(results, err)) {
      List<Experiment> todo = new ArrayList<>();
      for (Experiment e : es) {
        CellOutcome known = file == null ? null : file.get(e);
        if (known == null) {
          todo.add(e);
        } else {
          outcomes.put(e, known);
        }
      }
      if (file != null && !common.quiet) {
        err.printf(Locale.ROOT, "kernel-lab: %d of %d cells already in %s, %d to run%n", es.size() - todo.size(),
            es.size(), results, todo.size());
      }
      if (!todo.isEmpty()) {
        eng.run(todo, options, o -> {
          outcomes.put(o.cell(), o);
          if (file != null) {
            file.append(o);
          }
        });
      }
    }
    List<ConfigResult> done = new ArrayList<>();
    List<CellOutcome.Failed> failed = new ArrayList<>();
    for (Experiment e : es) {
      CellOutcome o = outcomes.get(e);
      if (o instanceof CellOutcome.Done d) {
        done.add(d.result());
      } else if (o instanceof CellOutcome.Failed f) {
        failed.add(f);
      } else {
        failed.add(new CellOutcome.Failed(e, CellOutcome.Failure.LOST, "the engine reported no outcome"));
      }
    }
    PrintWriter stdout = spec.commandLine().getOut();
    // with --json - the JSON is the standard output, whole: the table goes to stderr
    PrintWriter out = json != null && json.isStandardOutput() ? err : stdout;
    Experiment base = es.get(0);
    out.printf(Locale.ROOT, "kernel-lab sweep: %s on %d CPU%s, %s, HZ %d, %s each, seeds %s (%d runs)%n%n",
        base.workload(), base.cpus(), base.cpus() == 1 ? "" : "s", base.scheduler(), base.hz(),
        Durations.simulated(base.durationNs()), seeds, es.size());
    String col = CompareCommand.configColumn(configs);
    out.printf(Locale.ROOT, col + " %-27s %-27s %-27s %s%n", "config", "max (min / median / max)",
        "p99.9 (min / median / max)", "on-time % (min / med / max)", "worst run");
    List<Object> summary = new ArrayList<>();
    for (String c : configs) {
      List<ConfigResult> rs = done.stream().filter(r -> r.experiment().config().equals(c.trim())).toList();
      if (rs.isEmpty()) {
        out.printf(Locale.ROOT, col + " no run finished%n", c.trim());
        continue;
      }
      ConfigResult worst = rs.stream().max((a, b) -> Long.compare(latency(a).maxNs(), latency(b).maxNs())).orElseThrow();
      out.printf(Locale.ROOT, col + " %-27s %-27s %-27s seed %d (%s)%n", c.trim(),
          spread(rs, r -> latency(r).maxNs(), true), spread(rs, r -> latency(r).p999Ns(), true),
          spread(rs, r -> latency(r).onTimePct(), false), worst.experiment().seed(),
          Durations.latency(latency(worst).maxNs()));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("config", c.trim());
      m.put("max_us", stats(rs, r -> latency(r).maxNs() / 1e3));
      m.put("p999_us", stats(rs, r -> latency(r).p999Ns() / 1e3));
      m.put("avg_us", stats(rs, r -> latency(r).avgNs() / 1e3));
      m.put("on_time_pct", stats(rs, r -> latency(r).onTimePct()));
      m.put("worst_seed", worst.experiment().seed());
      // every option the cell ran with, so that the replay is that run (the handler threads'
      // priorities only where the configuration has handler threads, since explain refuses them
      // for one that has none)
      Experiment we = worst.experiment();
      m.put("worst_replay", common.replay("explain", "--config " + c.trim(), we.seed(),
          !we.irqThreadPriorities().isEmpty() && ExperimentRunner.threadsInterrupts(we)));
      summary.add(m);
    }
    out.println();
    out.println("replay the worst run of a configuration: kernel-lab explain --config CONFIG --seed SEED"
        + " (with the same --workload, --cpus, --duration)");
    if (!failed.isEmpty()) {
      out.println();
      out.printf(Locale.ROOT, "%d cell%s failed:%n", failed.size(), failed.size() == 1 ? "" : "s");
      for (CellOutcome.Failed f : failed) {
        out.printf(Locale.ROOT, "  %s: %s: %s%n", coordinates(f.cell()),
            f.failure() == CellOutcome.Failure.KERNEL_BUG ? "kernel bug" : "lost", f.message().lines().findFirst().orElse(""));
        if (f.failure() == CellOutcome.Failure.KERNEL_BUG) {
          err.println(coordinates(f.cell()) + ":");
          err.println(f.message());
        }
      }
      if (failed.stream().anyMatch(f -> f.failure() == CellOutcome.Failure.LOST)) {
        out.println(results == null
            ? "rerun with --results FILE.jsonl to keep finished cells and run only the others"
            : "rerun the same command: the cells in " + results + " are kept, the lost ones run again");
      }
    }
    if (json != null) {
      Map<String, Object> root = JsonReport.machine(base);
      List<Object> cells = new ArrayList<>();
      for (ConfigResult r : done) {
        Map<String, Object> cell = JsonReport.result(r);
        cell.put("seed", r.experiment().seed());
        cell.put("workload", r.experiment().workload());
        cell.put("scheduler", r.experiment().scheduler());
        cell.put("cpus", r.experiment().cpus());
        cells.add(cell);
      }
      root.put("cells", cells);
      root.put("summary", summary);
      List<Object> failures = new ArrayList<>();
      for (CellOutcome.Failed f : failed) {
        Map<String, Object> fm = new LinkedHashMap<>();
        fm.put("config", f.cell().config());
        fm.put("seed", f.cell().seed());
        fm.put("failure", f.failure() == CellOutcome.Failure.KERNEL_BUG ? "kernel_bug" : "lost");
        fm.put("message", f.message());
        failures.add(fm);
      }
      root.put("failures", failures);
      json.write(JsonReport.write(root), stdout);
    }
    if (failed.stream().anyMatch(f -> f.failure() == CellOutcome.Failure.KERNEL_BUG)) {
      return KernelLab.EXIT_KERNEL_BUG;
    }
    return failed.isEmpty() ? 0 : 1;
  }

  /**
   * The master URL forms Spark 4.0 accepts (SparkContext's master parsing, and the cluster
   * managers' own schemes), checked before Spark starts: a wrong one is then one line, not
   * Spark's start-up log and stack trace ahead of it.
   */
  private static final java.util.regex.Pattern MASTER = java.util.regex.Pattern.compile(
      "local(\\[(\\*|[1-9]\\d*)(,[1-9]\\d*)?\\])?|local-cluster\\[[1-9]\\d*,[1-9]\\d*,[1-9]\\d*\\]"
          + "|spark://[^/\\s:]+:\\d+(,[^/\\s:]+:\\d+)*|yarn|k8s://\\S+|mesos://\\S+");

  static void checkMaster(String master) {
    if (!MASTER.matcher(master).matches()) {
      throw new IllegalArgumentException("--master " + master
          + ": not a Spark master URL (local, local[N], local[*], spark://HOST:PORT, yarn, k8s://URL)");
    }
  }

  /** A cell's coordinates in one line, enough to replay it. */
  static String coordinates(Experiment e) {
    return String.format(Locale.ROOT, "%s %s, %s, %d CPU%s, HZ %d, %s, seed %d", e.workload(), e.config(),
        e.scheduler(), e.cpus(), e.cpus() == 1 ? "" : "s", e.hz(), Durations.simulated(e.durationNs()), e.seed());
  }

  private static LatencySummary latency(ConfigResult r) {
    return r.result().probes().get(0).latency();
  }

  /** More seeds than this is a typo, not a sweep: 10000 runs of a minute is a week of CPU. */
  private static final int MAX_SEEDS = 10_000;

  static List<Long> parseSeeds(String text) {
    List<Long> out = new ArrayList<>();
    try {
      if (text.contains("..")) {
        String[] ab = text.split("\\.\\.", -1);
        long a = Long.parseLong(ab[0].trim());
        long b = Long.parseLong(ab[1].trim());
        // b - a overflows for a range across most of the long line: compare without subtracting
        if (b < a || (a < 0 && b >= a + MAX_SEEDS) || (a >= 0 && b - a >= MAX_SEEDS)) {
          throw new IllegalArgumentException("--seeds " + text + ": the range must go up, at most " + MAX_SEEDS + " seeds");
        }
        for (long s = a; ; s++) {
          out.add(s);
          if (s == b) {
            break; // s++ past Long.MAX_VALUE would wrap and never end
          }
        }
      } else {
        for (String s : text.split(",", -1)) {
          long seed = Long.parseLong(s.trim());
          if (out.contains(seed)) {
            throw new IllegalArgumentException("--seeds " + text + ": seed " + seed + " is given twice");
          }
          out.add(seed);
          if (out.size() > MAX_SEEDS) {
            throw new IllegalArgumentException("--seeds " + text + ": at most " + MAX_SEEDS + " seeds");
          }
        }
      }
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("--seeds " + text + ": a range A..B or a list A,B,C of integers");
    }
    return out;
  }

  private static String spread(List<ConfigResult> rs, ToDoubleFunction<ConfigResult> f, boolean ns) {
    double[] s = stats3(rs, f);
    return ns
        ? Durations.latency((long) s[0]) + " / " + Durations.latency((long) s[1]) + " / " + Durations.latency((long) s[2])
        : String.format(Locale.ROOT, "%.2f / %.2f / %.2f", s[0], s[1], s[2]);
  }

  private static Map<String, Object> stats(List<ConfigResult> rs, ToDoubleFunction<ConfigResult> f) {
    double[] s = stats3(rs, f);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("min", s[0]);
    m.put("median", s[1]);
    m.put("max", s[2]);
    return m;
  }

  private static double[] stats3(List<ConfigResult> rs, ToDoubleFunction<ConfigResult> f) {
    double[] v = rs.stream().mapToDouble(f).sorted().toArray();
    double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    return new double[] {v[0], median, v[v.length - 1]};
  }
}
