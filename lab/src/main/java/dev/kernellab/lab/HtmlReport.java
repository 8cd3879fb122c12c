package dev.kernellab.lab;

import dev.kernellab.workloads.LatencySummary;
import dev.kernellab.workloads.ProbeResult;
import java.util.List;
import java.util.Locale;

/**
 * {@code report.html}: one self-contained page (styles and charts inline, nothing fetched) with
 * the command that reproduces the run, the table of {@code compare}, the two charts, and each
 * configuration's worst sample broken into its parts.
 */
final class HtmlReport {

  private HtmlReport() {}

  static String write(Experiment base, List<ConfigResult> results, String command, Charts.Chart histogram,
      Charts.Chart overTime) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>kernel-lab: ").append(esc(base.workload())).append("</title>\n")
        .append("<style>\n")
        .append("body{font-family:sans-serif;margin:2em auto;max-width:70em;color:#222}\n")
        .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.25em .6em}\n")
        .append("td.n{text-align:right;font-family:monospace}th{background:#eee}\n")
        .append("pre{background:#f4f4f4;padding:.6em;overflow-x:auto}svg{max-width:100%;height:auto}\n")
        .append("</style>\n</head>\n<body>\n");
    h.append("<h1>kernel-lab compare: ").append(esc(base.workload())).append("</h1>\n");
    h.append(String.format(Locale.ROOT, "<p>%d CPU%s, %s scheduler, HZ %d, %s simulated per configuration, seed %d.</p>%n",
        base.cpus(), base.cpus() == 1 ? "" : "s", esc(base.scheduler()), base.hz(),
        esc(Durations.simulated(base.durationNs())), base.seed()));
    ProbeResult first = results.get(0).result().probes().get(0);
    h.append("<p>Latency: ").append(esc(CompareCommand.measure(first.name()))).append("; on time: ")
        .append(esc(Durations.latency(first.latency().deadlineNs()))).append(" or less.</p>\n");
    h.append("<p>Reproduce it:</p>\n<pre>").append(esc(command)).append("</pre>\n");

    boolean throughput = results.stream().anyMatch(r -> r.result().throughputMbPerS() != null);
    h.append("<h2>Latency</h2>\n<table>\n<tr><th>config</th><th>samples</th><th>min</th><th>avg</th>")
        .append("<th>p99</th><th>p99.9</th><th>max</th><th>on time</th>").append(throughput ? "<th>MB/s</th>" : "")
        .append("<th>worst sample</th></tr>\n");
    for (ConfigResult r : results) {
      LatencySummary l = r.result().probes().get(0).latency();
      h.append("<tr><td>").append(esc(r.experiment().config())).append(r.partial() ? " (partial)" : "")
          .append("</td>").append(num(Long.toString(l.samples())))
          .append(num(Durations.latency(l.minNs()))).append(num(Durations.latency(l.avgNs())))
          .append(num(Durations.latency(l.p99Ns()))).append(num(Durations.latency(l.p999Ns())))
          .append(num(Durations.latency(l.maxNs())))
          .append(num(String.format(Locale.ROOT, "%.2f%%", l.onTimePct())))
          .append(!throughput ? "" : num(r.result().throughputMbPerS() == null ? "-"
              : String.format(Locale.ROOT, "%.2f", r.result().throughputMbPerS())))
          .append("<td>").append(r.worst().isEmpty() ? "-" : esc(CompareCommand.summary(r.worst().get(0))))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");

    h.append("<h2>Distribution</h2>\n").append(inline(histogram.svg())).append('\n');
    h.append("<h2>Over time</h2>\n").append(inline(overTime.svg())).append('\n');

    h.append("<h2>The worst sample of each configuration</h2>\n");
    for (ConfigResult r : results) {
      if (r.worst().isEmpty()) {
        continue;
      }
      Breakdown b = r.worst().get(0);
      h.append(String.format(Locale.ROOT, "<h3>%s: %s at %.6f s on cpu%d</h3>%n", esc(r.experiment().config()),
          esc(Durations.latency(b.latencyNs())), b.atNs() / 1e9, b.cpu()));
      h.append("<table>\n<tr><th>part</th><th>time</th><th>cause</th></tr>\n");
      for (Breakdown.Part p : b.parts()) {
        h.append("<tr><td>").append(esc(p.part())).append("</td>").append(num(Durations.latency(p.ns())))
            .append("<td>").append(esc(p.cause())).append("</td></tr>\n");
        for (Breakdown.Share s : p.shares()) {
          h.append("<tr><td></td>").append(num(Durations.latency(s.ns()))).append("<td>&nbsp;&nbsp;")
              .append(esc(s.cause())).append("</td></tr>\n");
        }
      }
      h.append("</table>\n<p>Culprit: ").append(esc(CompareCommand.culprit(b)));
      if (b.culpritTask() != null) {
        h.append("; task ").append(esc(b.culpritTask()));
        if (b.culpritLock() != null) {
          h.append(", holding ").append(esc(b.culpritLock()));
        }
      }
      h.append(".</p>\n");
    }
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  /** An SVG document as an element of the page: its XML prolog and doctype dropped. */
  static String inline(String svg) {
    int start = svg.indexOf("<svg");
    return start < 0 ? "" : svg.substring(start);
  }

  private static String num(String s) {
    return "<td class=\"n\">" + esc(s) + "</td>";
  }

  static String esc(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
