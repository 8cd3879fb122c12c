package dev.kernellab.lab;

import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.preempt.LatencyTimes;
import dev.kernellab.workloads.LatencySummary;
import dev.kernellab.workloads.ProbeResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kernel-lab run}: one configuration, cyclictest-style. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one workload under one kernel configuration and prints cyclictest-style figures"
          + " (T: thread, P: priority, I: interval, C: count, Min, Avg, Max in us), the"
          + " percentiles, the workload's counters, and its worst sample broken down.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab run --config preempt+lowlat",
      "  kernel-lab run --workload cyclictest --cpus 2 --scheduler o1 --duration 10m",
      "  kernel-lab run --config preempt --workload dbench --preempt-stats",
      "",
      "Exit status: 0 success; 2 bad usage; 3 a kernel bug (--debug-checks); 1 other."
    })
final class RunCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin CommonOptions common;

  @Mixin ReportOptions report;

  @Option(names = "--config", defaultValue = "vanilla", paramLabel = "CONFIG",
      description = "vanilla, or patch names joined by '+'. Default: ${DEFAULT-VALUE}.")
  String config;

  @Option(names = "--preempt-stats",
      description = "Also print the 20 longest preempt-off periods per CPU as the preempt-stats patch's"
          + " /proc/latencytimes did (cause, where each began and ended), and the 20 longest"
          + " interrupts-off periods the same way. Needs a configuration with the preempt patch.")
  boolean preemptStats;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    Experiment e = common.experiment("--config", config);
    CommonOptions.checkIrqThreadPriorities(List.of(e));
    OutputFile json = common.jsonFile();
    report.check(json);
    // with --json - the JSON is the standard output, whole: the figures go to stderr
    PrintWriter out = json != null && json.isStandardOutput() ? spec.commandLine().getErr() : stdout;
    LatencyTimes preemptOff = preemptStats ? LatencyTimes.preemptOff() : null;
    LatencyTimes irqsOff = preemptStats ? LatencyTimes.irqsOff() : null;
    // the library's refusal of a kernel it cannot measure, named by the option that asked
    ConfigResult r = preemptStats
        ? Experiment.option("--preempt-stats",
            () -> Runs.runWith(e, Tracer.both(preemptOff, irqsOff), common.quiet, spec.commandLine().getErr()))
        : Runs.runAll(List.of(e), 1, common.quiet, spec.commandLine().getErr()).get(0);
    ProbeResult p = r.result().probes().get(0);
    LatencySummary l = p.latency();
    out.printf(Locale.ROOT, "kernel-lab run: %s under %s, %d CPU%s, %s, HZ %d, %s%s, seed %d%n",
        e.workload(), e.config(), e.cpus(), e.cpus() == 1 ? "" : "s", e.scheduler(), e.hz(),
        Durations.simulated(r.simulatedNs()), r.partial() ? " (stopped early)" : "", e.seed());
    if (l.samples() == 0) {
      out.printf(Locale.ROOT, "%s: no samples in %s%n", p.name(), Durations.simulated(r.simulatedNs()));
    } else {
      out.printf(Locale.ROOT, "T: 0 (%s) P:99 I:%d C:%d Min:%d Avg:%d Max:%d%n", p.name(),
          l.deadlineNs() / 1_000, l.samples(), l.minNs() / 1_000, l.avgNs() / 1_000, l.maxNs() / 1_000);
      out.printf(Locale.ROOT, "p50 %s  p99 %s  p99.9 %s  on time (<= %s): %.3f%%%n",
          Durations.latency(l.p50Ns()), Durations.latency(l.p99Ns()), Durations.latency(l.p999Ns()),
          Durations.latency(l.deadlineNs()), l.onTimePct());
    }
    if (p.periodError() != null) {
      LatencySummary pe = p.periodError();
      out.printf(Locale.ROOT, "realfeel period error: max %s, p99.9 %s%n",
          Durations.latency(pe.maxNs()), Durations.latency(pe.p999Ns()));
    }
    for (ProbeResult.PhaseResult ph : p.phases()) {
      out.printf(Locale.ROOT, "  phase %-11s C:%d max %s within 1 ms %.2f%% overruns %d%n", ph.phase(),
          ph.latency().samples(), Durations.latency(ph.latency().maxNs()), ph.latency().onTimePct(), ph.overruns());
    }
    if (r.result().throughputMbPerS() != null) {
      out.printf(Locale.ROOT, "throughput %.2f MB/s (%s)%n", r.result().throughputMbPerS(),
          r.result().throughputDefinition());
    }
    if (!r.result().counters().isEmpty()) {
      out.println("counters " + r.result().counters());
    }
    if (!r.worst().isEmpty()) {
      out.println();
      ExplainCommand.print(r.worst().get(0), out);
    }
    if (preemptStats) {
      out.println();
      preemptOff.table().forEach(out::println);
      out.println();
      irqsOff.table().forEach(out::println);
    }
    if (json != null) {
      json.write(JsonReport.write(JsonReport.of(e, List.of(r))), stdout);
    }
    report.write(e, List.of(r), common.replay("run", "--config " + config), out);
    return 0;
  }
}
