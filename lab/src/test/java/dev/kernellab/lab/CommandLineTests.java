package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line, in process: every subcommand, the JSON's documented fields, bad input. */
class CommandLineTests {

  private record Outcome(int code, String out, String err) {}

  private static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = KernelLab.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }

  @Test
  void compareShowsEveryConfigurationWithItsWorstCulprit() {
    Outcome o = run("compare", "--duration", "1s", "--quiet");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out())
        .contains("kernel-lab compare: stress on 1 CPU, goodness scheduler, HZ 100")
        .contains("vanilla", "preempt", "lowlat", "preempt+lowlat")
        .contains("worst sample: where it went")
        .contains("vanilla, worst");
  }

  @Test
  void theJsonHasItsDocumentedFields() throws Exception {
    Outcome o = run("compare", "--duration", "1s", "--quiet", "--configs", "vanilla,preempt", "--json", "-");
    assertThat(o.code()).as(o.err()).isZero();
    String json = o.out().substring(o.out().indexOf("{"));
    JsonNode root = new ObjectMapper().readTree(json);
    for (String f : new String[] {"workload", "duration_s", "seed", "scheduler", "cpus", "hz", "results"}) {
      assertThat(root.has(f)).as(f).isTrue();
    }
    assertThat(root.get("results")).hasSize(2);
    JsonNode r = root.get("results").get(0);
    assertThat(r.get("config").asText()).isEqualTo("vanilla");
    for (String f : new String[] {"latency", "realfeel", "throughput_mb_s", "phases", "worst", "sim"}) {
      assertThat(r.has(f)).as(f).isTrue();
    }
    for (String f : new String[] {"samples", "min_us", "avg_us", "p50_us", "p99_us", "p999_us", "max_us", "on_time_pct"}) {
      assertThat(r.get("latency").has(f)).as(f).isTrue();
    }
    JsonNode w = r.get("worst");
    for (String f : new String[] {"latency_us", "at_s", "cpu", "culprit_path", "culprit_site", "culprit_lock",
        "culprit_reason", "breakdown"}) {
      assertThat(w.has(f)).as(f).isTrue();
    }
    double sum = 0;
    for (JsonNode part : w.get("breakdown")) {
      assertThat(part.has("part") && part.has("us") && part.has("cause")).isTrue();
      sum += part.get("us").asDouble();
    }
    assertThat(sum).isCloseTo(w.get("latency_us").asDouble(), org.assertj.core.data.Offset.offset(0.01));
    for (String f : new String[] {"events", "wall_s", "realtime_factor"}) {
      assertThat(r.get("sim").has(f)).as(f).isTrue();
    }
  }

  @Test
  void runAndExplainPrintTheirFigures() {
    Outcome r = run("run", "--workload", "idle", "--duration", "1s", "--quiet");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("T: 0 (realfeel) P:99 I:488 C:");
    Outcome e = run("explain", "--workload", "dbench", "--duration", "1s", "--quiet", "--worst", "2");
    assertThat(e.code()).as(e.err()).isZero();
    assertThat(e.out()).contains("#1 ", "#2 ", "interrupt latency", "wait for the CPU", "culprit:");
  }

  @ParameterizedTest
  @ValueSource(strings = {"workloads", "patches", "schedulers", "sites", "paths"})
  void listPrintsWhatExists(String what) {
    Outcome o = run("list", what);
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out().lines().count()).isGreaterThan(1);
  }

  @Test
  void badInputGetsOneLineAndExitTwo() {
    String[][] bad = {
      {"compare", "--workload", "nope"},
      {"compare", "--duration", "5x"},
      {"compare", "--cpus", "0"},
      {"compare", "--configs", "vanilla,bogus"},
      {"compare", "--scheduler", "cfs"},
      {"compare", "--hz", "5"},
      {"compare", "--frobnicate"},
      {"list", "things"},
      {"explain", "--worst", "99"},
      {"sweep", "--seeds", "x"},
      {"sweep", "--seeds", "3..1"},
      {"sweep", "--seeds", "1..20000"},
      {"trace", "--config", "bogus"},
      {"trace", "--before", "-1ms"},
      {"sweep", "--seed", "3"},
    };
    for (String[] args : bad) {
      Outcome o = run(args);
      assertThat(o.code()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(o.err().strip().lines().count()).as(String.join(" ", args) + ": " + o.err()).isEqualTo(1);
      assertThat(o.err()).doesNotContain("Exception").startsWith("kernel-lab: ");
    }
  }

  @Test
  void aJsonFileIsWrittenWhole(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("out/results.json");
    Outcome o = run("compare", "--duration", "1s", "--quiet", "--configs", "vanilla", "--json", file.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(new ObjectMapper().readTree(Files.readString(file)).get("results")).hasSize(1);
    try (var files = Files.list(file.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("results.json");
    }
  }

  @Test
  void aSweepShowsTheSpreadOverSeedsAndItsCellsAreTheSameRunsAsCompare() throws Exception {
    Outcome o = run("sweep", "--duration", "1s", "--quiet", "--configs", "vanilla", "--seeds", "1..3", "--json", "-");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("seeds 1..3 (3 runs)", "max (min / median / max)", "worst run");
    JsonNode root = new ObjectMapper().readTree(o.out().substring(o.out().indexOf("{")));
    assertThat(root.get("cells")).hasSize(3);
    JsonNode summary = root.get("summary").get(0);
    long worstSeed = summary.get("worst_seed").asLong();
    double worstMax = 0;
    for (JsonNode cell : root.get("cells")) {
      worstMax = Math.max(worstMax, cell.get("latency").get("max_us").asDouble());
    }
    assertThat(summary.get("max_us").get("max").asDouble()).isEqualTo(worstMax);

    Outcome c = run("compare", "--duration", "1s", "--quiet", "--configs", "vanilla", "--seed",
        Long.toString(worstSeed), "--json", "-");
    JsonNode replay = new ObjectMapper().readTree(c.out().substring(c.out().indexOf("{")));
    assertThat(replay.get("results").get(0).get("latency").get("max_us").asDouble()).isEqualTo(worstMax);
  }

  @Test
  void aTraceEndsAtTheWorstSampleAndCoversItsWindow(@TempDir Path dir) throws Exception {
    Path text = dir.resolve("trace.txt");
    Path chrome = dir.resolve("trace.json");
    Outcome o = run("trace", "--duration", "1s", "--quiet", "-o", text.toString(), "--chrome", chrome.toString());
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode worst = worstOf(run("compare", "--duration", "1s", "--quiet", "--configs", "vanilla", "--json", "-"));
    double endS = worst.get("at_s").asDouble();
    double startS = endS - worst.get("latency_us").asDouble() / 1e6 - 0.002;

    java.util.List<String> lines = Files.readAllLines(text);
    assertThat(lines.get(0)).isEqualTo("# tracer: nop");
    java.util.List<Double> stamps = lines.stream().filter(l -> !l.startsWith("#"))
        .map(l -> Double.parseDouble(l.replaceAll("^.*\\s(\\d+\\.\\d{6}):.*$", "$1"))).toList();
    assertThat(stamps).isNotEmpty().isSorted();
    assertThat(stamps.get(0)).isBetween(startS - 1e-6, startS + 0.001);
    assertThat(stamps.get(stamps.size() - 1)).isBetween(endS - 0.001, endS + TraceCommand.AFTER_NS / 1e9 + 1e-6);
    assertThat(lines).anyMatch(l -> l.contains("sched_switch") && l.contains("realfeel"));

    JsonNode events = new ObjectMapper().readTree(Files.readString(chrome)).get("traceEvents");
    assertThat(events.size()).isGreaterThan(10);
    for (JsonNode e : events) {
      assertThat(e.has("name") && e.has("ph") && e.has("ts")).as(e.toString()).isTrue();
    }
  }

  private static JsonNode worstOf(Outcome compare) throws Exception {
    String json = compare.out().substring(compare.out().indexOf("{"));
    return new ObjectMapper().readTree(json).get("results").get(0).get("worst");
  }
}
