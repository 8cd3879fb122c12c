package dev.kernellab.lab;

import java.util.List;
import picocli.CommandLine.Option;

/** The options of the commands that can write a report directory. */
final class ReportOptions {

  @Option(names = "--out", paramLabel = "DIR",
      description = "Also write the report to DIR: results.json, histogram.txt (cyclictest -h"
          + " layout, a column per configuration), realfeel-CONFIG.hist, the latency histogram and"
          + " latency-over-time charts (PNG and SVG) and report.html. Written whole or not at all;"
          + " an earlier report in DIR is replaced.")
  String out;

  @Option(names = "--histogram", paramLabel = "US",
      description = "1 us buckets in histogram.txt, as cyclictest -h US; larger samples count as"
          + " overflows. Default: enough for the worst sample, at most 100000.")
  Integer histogram;

  /** Refuses a bad directory or bucket count before the run. */
  void check() {
    if (histogram != null && (histogram < 1 || histogram > 10_000_000)) {
      throw new IllegalArgumentException("--histogram must be 1..10000000 us, got " + histogram);
    }
    if (out != null) {
      ReportDirectory.check(out);
    }
  }

  /** Writes the report if {@code --out} was given. */
  void write(Experiment base, List<ConfigResult> results, String command, java.io.PrintWriter stdout) {
    if (out != null) {
      ReportDirectory.write(out, base, results, command, histogram, stdout);
    }
  }
}
