package dev.kernellab.lab;

import dev.kernellab.workloads.LatencySummary;
import dev.kernellab.workloads.ProbeResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code kernel-lab compare}: one workload under several kernels, side by side. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one workload under several kernel configurations with the same seed and prints their"
          + " latency distributions side by side, the throughput where the workload has one, and"
          + " the culprit of each configuration's worst sample: which part of the latency dominated"
          + " and which kernel path, lock or state caused it.",
      "The defaults are the situation of Clark Williams' Red Hat whitepaper (March 2002): the"
          + " stress workload on one CPU, HZ 100, the 2.4 goodness scheduler, 60 simulated"
          + " seconds.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab compare                      the whitepaper's situation",
      "  kernel-lab compare --duration 12h --out report",
      "  kernel-lab compare --workload latencytest --scheduler o1",
      "  kernel-lab compare --workload dbench --json -",
      "",
      "Exit status: 0 success; 2 bad usage; 3 a kernel bug (--debug-checks); 1 other."
    })
final class CompareCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin CommonOptions common;

  @Mixin ReportOptions report;

  @Option(names = "--configs", defaultValue = "vanilla,preempt,lowlat,preempt+lowlat", split = ",",
      paramLabel = "LIST",
      description = "Kernel configurations: vanilla, or patch names joined by '+'. Default: ${DEFAULT-VALUE}.")
  List<String> configs;

  @Option(names = "--workers", paramLabel = "N",
      description = "Simulations run at once (each on one thread). Default: all cores.")
  Integer workers;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<Experiment> es = new ArrayList<>();
    for (String c : Experiment.distinctConfigs("--configs", configs)) {
      es.add(common.experiment("--configs", c));
    }
    CommonOptions.checkIrqThreadPriorities(es);
    int w = workers == null ? Runtime.getRuntime().availableProcessors() : workers;
    if (w < 1) {
      throw new IllegalArgumentException("--workers must be at least 1, got " + w);
    }
    OutputFile json = common.jsonFile();
    report.check(json);
    long wall0 = System.nanoTime();
    List<ConfigResult> results = Runs.runAll(es, w, common.quiet, err);
    // with --json - the JSON is the standard output, whole, for a parser to read: the table goes to stderr
    print(es.get(0), results, json != null && json.isStandardOutput() ? err : out, System.nanoTime() - wall0, w);
    if (json != null) {
      json.write(JsonReport.write(JsonReport.of(es.get(0), results)), out);
    }
    report.write(es.get(0), results, common.replay("compare", "--configs " + String.join(",", configs)), out);
    return 0;
  }

  /**
   * The format of the configuration column of the tables: 16 wide, so the four standard
   * configurations line up as always; a longer name widens it.
   */
  static String configColumn(List<String> configs) {
    int width = 16;
    for (String c : configs) {
      width = Math.max(width, c.trim().length() + 1);
    }
    return "%-" + width + "s";
  }

  static void print(Experiment base, List<ConfigResult> results, PrintWriter out, long wallNs, int workers) {
    ProbeResult first = results.get(0).result().probes().get(0);
    out.printf(Locale.ROOT, "kernel-lab compare: %s on %d CPU%s, %s scheduler, HZ %d, %s simulated, seed %d%n",
        base.workload(), base.cpus(), base.cpus() == 1 ? "" : "s", base.scheduler(), base.hz(),
        Durations.simulated(base.durationNs()), base.seed());
    out.println("latency: " + measure(first.name()) + "; on time: "
        + Durations.latency(first.latency().deadlineNs()) + " or less");
    boolean throughput = results.stream().anyMatch(r -> r.result().throughputMbPerS() != null);
    out.println();
    String col = configColumn(results.stream().map(r -> r.experiment().config()).toList());
    out.printf(Locale.ROOT, col + " %9s %9s %9s %9s %9s %9s %8s%s  %s%n", "config", "samples", "min", "avg",
        "p99", "p99.9", "max", "on-time", throughput ? String.format(Locale.ROOT, " %10s", "MB/s") : "",
        "worst sample: where it went");
    for (ConfigResult r : results) {
      LatencySummary l = r.result().probes().get(0).latency();
      if (l.samples() == 0) {
        out.printf(Locale.ROOT, col + " no samples in %s%n", r.experiment().config() + (r.partial() ? "*" : ""),
            Durations.simulated(r.simulatedNs()));
        continue;
      }
      String mbs = throughput
          ? String.format(Locale.ROOT, " %10s", r.result().throughputMbPerS() == null ? "-"
              : String.format(Locale.ROOT, "%.2f", r.result().throughputMbPerS()))
          : "";
      out.printf(Locale.ROOT, col + " %9d %9s %9s %9s %9s %9s %7.2f%%%s  %s%n",
          r.experiment().config() + (r.partial() ? "*" : ""), l.samples(),
          Durations.latency(l.minNs()), Durations.latency(l.avgNs()), Durations.latency(l.p99Ns()),
          Durations.latency(l.p999Ns()), Durations.latency(l.maxNs()), l.onTimePct(), mbs,
          r.worst().isEmpty() ? "-" : summary(r.worst().get(0)));
    }
    out.println();
    for (ConfigResult r : results) {
      if (!r.worst().isEmpty()) {
        Breakdown b = r.worst().get(0);
        out.printf(Locale.ROOT, "%s, worst %s at %.3f s on cpu%d: %s%n", r.experiment().config(),
            Durations.latency(b.latencyNs()), b.atNs() / 1e9, b.cpu(), culprit(b));
      }
    }
    if (results.stream().anyMatch(ConfigResult::partial)) {
      out.println("* stopped before its end: the figures are of the time simulated");
    }
    out.printf(Locale.ROOT, "%nsimulated in %.1f s of wall time on %d worker%s (each simulation x%.0f real time)%n",
        wallNs / 1e9, Math.min(workers, results.size()), Math.min(workers, results.size()) == 1 ? "" : "s",
        results.stream().mapToDouble(ConfigResult::realtimeFactor).min().orElse(0));
  }

  static String measure(String probe) {
    return switch (probe) {
      case "cyclictest" -> "the timer's programmed expiry to cyclictest back in user mode"
          + " (2.4's nanosleep wakes up to two jiffies after it: on time is within that)";
      case "latencytest" -> "the RTC interrupt's assertion to latencytest's loop back in user mode";
      case "rt-app wu_lat" -> "rt-app's wu_lat: a timer event's expiry to its thread back in user mode"
          + " (2.4's nanosleep wakes up to two jiffies after it: on time is within that)";
      default -> "the RTC interrupt's assertion to " + probe + " back in user mode"
          + " (realfeel's own period error is in --json)";
    };
  }

  /** The dominant part of the worst sample, in a few words. */
  static String summary(Breakdown b) {
    Breakdown.Part d = b.dominant();
    String where = b.culpritPath() != null ? " in " + shortPath(b.culpritPath(), b.culpritSite()) : "";
    String lock = b.culpritLock() != null ? " [" + b.culpritLock() + "]" : "";
    return d.part() + " " + Durations.latency(d.ns()) + where + lock;
  }

  static String culprit(Breakdown b) {
    return b.dominant().part() + " " + Durations.latency(b.dominant().ns()) + ": " + b.culpritReason();
  }

  private static String shortPath(String path, String site) {
    String p = site != null ? site : path;
    int slash = p.lastIndexOf('/');
    return slash >= 0 ? p.substring(slash + 1) : p;
  }
}
