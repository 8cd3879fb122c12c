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

/** {@code kernel-lab trace}: a run's events in ftrace's text format (and Chrome's JSON). */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one configuration and writes its kernel events in ftrace's trace format (the"
          + " latency-format columns irqs-off, need-resched, hardirq/softirq and preempt-depth;"
          + " sched_switch, sched_wakeup, irq and softirq entry and exit, irq and preempt off and"
          + " on, lock events). By default a window around the worst sample (from --before ahead of its"
          + " start to 100 us after its end): the run is made"
          + " twice from the same seed, once to find it and once to write it. --all writes the"
          + " whole run.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab trace --config preempt -o trace.txt --chrome trace.json",
      "  kernel-lab trace --config lowlat --duration 2s --all -o whole.txt",
      "  kernel-lab trace --config preempt+lowlat -o trace.txt --dat trace.dat",
      "The text reads like ftrace's; open the JSON in ui.perfetto.dev, the .dat with"
          + " trace-cmd report or KernelShark.",
      "",
      "Exit status: 0 success; 2 bad usage; 3 a kernel bug (--debug-checks); 1 other."
    })
final class TraceCommand implements Callable<Integer> {

  private static String replaced(OutputFile f) {
    return f.replaces() ? " (replacing the earlier file)" : "";
  }

  /**
   * How far past the worst sample the window runs: long enough to show the probe's return to
   * user space and what the CPU did next, short enough to keep the file small.
   */
  static final long AFTER_NS = 100_000;

  @Spec CommandSpec spec;

  @Mixin CommonOptions common;

  @Option(names = "--config", defaultValue = "vanilla", paramLabel = "CONFIG",
      description = "vanilla, or patch names joined by '+'. Default: ${DEFAULT-VALUE}.")
  String config;

  @Option(names = {"-o", "--output"}, defaultValue = "trace.txt", paramLabel = "FILE",
      description = "Where to write the ftrace text ('-' for standard output). Default: ${DEFAULT-VALUE}.")
  String output;

  @Option(names = "--chrome", paramLabel = "FILE",
      description = "Also write Chrome trace-event JSON (chrome://tracing, Perfetto) to FILE.")
  String chrome;

  @Option(names = "--dat", paramLabel = "FILE",
      description = "Also write a trace-cmd data file (trace.dat, version 6) to FILE, for"
          + " trace-cmd report and KernelShark.")
  String dat;

  @Option(names = "--before", defaultValue = "2ms", paramLabel = "TIME",
      description = "How much of the run before the worst sample's start to include. Default: ${DEFAULT-VALUE}.")
  String before;

  @Option(names = "--all", description = "Write the whole run, not a window (large).")
  boolean all;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Experiment e = common.experiment("--config", config);
    CommonOptions.checkIrqThreadPriorities(List.of(e));
    if (common.json != null) {
      throw new IllegalArgumentException("--json: trace writes no results; its outputs are -o, --chrome and --dat");
    }
    OutputFile text = OutputFile.of("-o", output, true);
    OutputFile json = chrome == null ? null : OutputFile.of("--chrome", chrome, true);
    OutputFile datFile = dat == null ? null : OutputFile.of("--dat", dat, false);
    if (json != null && text.isStandardOutput() && json.isStandardOutput()) {
      throw new IllegalArgumentException("-o - and --chrome -: only one of them can be standard output");
    }
    long beforeNs = Durations.parseOption("--before", before);
    if (all && spec.commandLine().getParseResult().hasMatchedOption("--before")) {
      throw new IllegalArgumentException("--before sets the window around the worst sample; --all writes the whole run");
    }
    long from = 0;
    long to = Long.MAX_VALUE;
    String what = "the whole run";
    if (!all) {
      ConfigResult first = Runs.runAll(List.of(e), 1, common.quiet, spec.commandLine().getErr()).get(0);
      if (first.worst().isEmpty()) {
        throw new IllegalArgumentException("the run took no sample: nothing to trace around");
      }
      Breakdown w = first.worst().get(0);
      from = Math.max(0, w.atNs() - w.latencyNs() - beforeNs);
      to = w.atNs() + AFTER_NS;
      what = String.format(Locale.ROOT, "the worst sample, %s ending at %.6f s, %s before it and 100 us after",
          Durations.latency(w.latencyNs()), w.atNs() / 1e9, before);
    }
    FtraceWriter writer = new FtraceWriter(from, to, chrome != null, dat != null);
    ExperimentRunner.Composed c = ExperimentRunner.compose(e, writer);
    c.kernel().run(all ? e.durationNs() : Math.min(e.durationNs(), to));
    text.write(writer.text(), out);
    if (json != null) {
      json.write(writer.chromeJson(), out);
    }
    if (datFile != null) {
      datFile.write(writer.traceDat());
    }
    if (!text.isStandardOutput() && (json == null || !json.isStandardOutput())) {
      out.printf(Locale.ROOT, "kernel-lab trace: %d events of %s under %s (%s) written to %s%s%s%s%n",
          writer.entries(), e.workload(), e.config(), what, output, replaced(text),
          json != null ? " and " + chrome + replaced(json) : "",
          datFile != null ? " and " + dat + replaced(datFile) : "");
    }
    return 0;
  }
}
