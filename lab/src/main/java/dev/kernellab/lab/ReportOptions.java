package dev.kernellab.lab;

import java.util.List;
import picocli.CommandLine.Option;

/** The options of the commands that can write a report directory. */
final class ReportOptions {

  @Option(names = "--out", paramLabel = "DIR",
      description = "Also write the report to DIR: results.json, histogram.txt (cyclictest -h"
          + " layout, a column per configuration), realfeel-CONFIG.hist, the latency histogram and"
          + " latency-over-time charts (PNG and SVG) and report.html; for an rt-app file, each"
          + " thread's log in rt-app's format in a directory per configuration"
          + " (CONFIG/rt-app-THREAD.log). Written whole or not at all; an earlier report in DIR is"
          + " replaced.")
  String out;

  @Option(names = "--histogram", paramLabel = "US",
      description = "1 us buckets in histogram.txt, as cyclictest -h US; larger samples count as"
          + " overflows. Default: enough for the worst sample, at most 100000.")
  Integer histogram;

  /**
   * Refuses a bad directory or bucket count before the run, and a {@code --json} file inside
   * the report's directory, where the report writes its own results.json.
   */
  void check(OutputFile json) {
    if (histogram != null && out == null) {
      throw new IllegalArgumentException("--histogram sets histogram.txt of --out DIR: give --out too");
    }
    if (json != null && out != null && json.isInside(java.nio.file.Path.of(out))) {
      throw new IllegalArgumentException("--json " + json.name() + ": inside --out " + out
          + ", which holds the report's own results.json");
    }
    check();
  }

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
