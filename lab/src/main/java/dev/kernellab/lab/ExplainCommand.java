package dev.kernellab.lab;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code kernel-lab explain}: the worst samples of one configuration, broken down. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one configuration and breaks each of its worst samples into its parts: interrupt"
          + " latency (what had interrupts off), the handler, the wait for the CPU (which task,"
          + " in which kernel path and site, under which lock or preempt count), and the switch"
          + " back to user mode. The parts add up to the sample.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab explain --config preempt --worst 3",
      "  kernel-lab explain --config lowlat --seed 17 --duration 10m",
      "",
      "Exit status: 0 success; 2 bad usage; 3 a kernel bug (--debug-checks); 1 other."
    })
final class ExplainCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin CommonOptions common;

  @Option(names = "--config", defaultValue = "vanilla", paramLabel = "CONFIG",
      description = "vanilla, or patch names joined by '+'. Default: ${DEFAULT-VALUE}.")
  String config;

  @Option(names = "--worst", defaultValue = "5", paramLabel = "N",
      description = "How many of the worst samples (at most 8). Default: ${DEFAULT-VALUE}.")
  int worst;

  @Override
  public Integer call() {
    if (worst < 1 || worst > 8) {
      throw new IllegalArgumentException("--worst must be 1..8, got " + worst);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    Experiment e = common.experiment("--config", config);
    CommonOptions.checkIrqThreadPriorities(List.of(e));
    OutputFile json = common.jsonFile();
    // with --json - the JSON is the standard output, whole: the anatomy goes to stderr
    PrintWriter out = json != null && json.isStandardOutput() ? spec.commandLine().getErr() : stdout;
    ConfigResult r = Runs.runAll(List.of(e), 1, common.quiet, spec.commandLine().getErr()).get(0);
    out.printf(Locale.ROOT, "kernel-lab explain: %s under %s, %d CPU%s, %s, %s, seed %d%n%n",
        e.workload(), e.config(), e.cpus(), e.cpus() == 1 ? "" : "s", e.scheduler(),
        Durations.simulated(r.simulatedNs()), e.seed());
    List<Breakdown> ws = r.worst();
    if (ws.isEmpty()) {
      out.printf(Locale.ROOT, "no samples in %s%n", Durations.simulated(r.simulatedNs()));
    }
    for (int i = 0; i < Math.min(worst, ws.size()); i++) {
      out.printf(Locale.ROOT, "#%d ", i + 1);
      print(ws.get(i), out);
      out.println();
    }
    if (json != null) {
      json.write(JsonReport.write(JsonReport.of(e, List.of(r))), stdout);
    }
    return 0;
  }

  static void print(Breakdown b, PrintWriter out) {
    out.printf(Locale.ROOT, "%s at %.6f s on cpu%d%n", Durations.latency(b.latencyNs()), b.atNs() / 1e9, b.cpu());
    // the names' column is as wide as the longest name this sample has, 18 at the least
    int width = 18;
    for (Breakdown.Part p : b.parts()) {
      width = Math.max(width, p.part().length());
    }
    String part = "   %-" + width + "s %10s  %s%n";
    String share = "   %-" + width + "s %10s    %s%n";
    for (Breakdown.Part p : b.parts()) {
      out.printf(Locale.ROOT, part, p.part(), Durations.latency(p.ns()), p.cause());
      for (Breakdown.Share h : p.shares()) {
        out.printf(Locale.ROOT, share, "", Durations.latency(h.ns()), h.cause());
      }
    }
    out.printf(Locale.ROOT, "   culprit: %s%n", CompareCommand.culprit(b));
    if (b.culpritTask() != null) {
      out.printf(Locale.ROOT, "            task %s%s%n", b.culpritTask(),
          b.culpritLock() != null ? ", holding " + b.culpritLock() : "");
    }
  }
}
