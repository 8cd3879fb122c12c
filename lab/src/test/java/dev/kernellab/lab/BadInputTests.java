package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input as a new user gives it: every output path is checked before the run and written
 * whole or not at all, nothing the tool did not write is touched, and every option is checked
 * before the first simulated nanosecond, with one line naming it. The runs are short; a refusal
 * "before the run" is one that happens with a duration of an hour and still returns at once.
 */
class BadInputTests {

  private static Outcome run(String... args) {
    return Outcome.run(args);
  }

  private static void refused(String expected, String... args) {
    Outcome o = run(args);
    assertThat(o.code()).as(String.join(" ", args)).isEqualTo(2);
    assertThat(o.err().lines()).as(String.join(" ", args)).containsExactly("kernel-lab: " + expected);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  // ---- rt-app files ----

  @Test
  void aBadRtAppFileIsOneLineBeforeTheRun(@TempDir Path tmp) throws IOException {
    Path missing = tmp.resolve("none.json");
    Outcome o = run("compare", "--duration", "1h", "--quiet", "--workload", missing.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines()).singleElement().asString()
        .isEqualTo("kernel-lab: --workload: unknown workload '" + missing + "'; known: stress, latencytest, dbench, kbuild,"
            + " idle, cyclictest; nor is it an rt-app file (no such file)");
    Path malformed = Files.writeString(tmp.resolve("bad.json"), "{ \"tasks\": { \"t\": { \"run\": 1 }");
    refused("--workload: rt-app file " + malformed + ": malformed JSON at line 1 column 31 (in tasks): the file ends inside an object",
        "compare", "--duration", "1h", "--quiet", "--workload", malformed.toString());
    Path deadline = Files.writeString(tmp.resolve("dl.json"),
        "{ \"tasks\": { \"t\": { \"policy\": \"SCHED_DEADLINE\", \"run\": 1 } } }");
    refused("--workload: rt-app file " + deadline + ": tasks.t.policy (line 1): not supported: SCHED_DEADLINE (Linux 3.14);"
        + " 2.4 has SCHED_OTHER, SCHED_FIFO, SCHED_RR", "run", "--duration", "1h", "--quiet", "--workload", deadline.toString());
    Path pinned = Files.writeString(tmp.resolve("pin.json"), "{ \"tasks\": { \"t\": { \"cpus\": [1], \"run\": 1 } } }");
    refused("--workload: rt-app file " + pinned + ": tasks.t.cpus: CPU 1 does not exist on a machine of 1 CPU"
        + " (rt-app exits when sched_setaffinity fails; give --cpus 2)",
        "compare", "--duration", "1h", "--quiet", "--workload", pinned.toString());
    // the logs' names begin with log_basename, under --out: it may not name another directory
    Path escape = Files.writeString(tmp.resolve("esc.json"),
        "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"global\": { \"log_basename\": \"../../x\" } }");
    refused("--workload: rt-app file " + escape + ": global.log_basename (line 1): log_basename is the beginning of a"
        + " file name (not empty, no '/', not starting with '.'), got \"../../x\"",
        "compare", "--duration", "1h", "--quiet", "--workload", escape.toString(), "--out", tmp.resolve("r").toString());
  }

  @Test
  void anRtAppFileRunsAsTheWorkload(@TempDir Path tmp) throws IOException {
    Path f = Files.writeString(tmp.resolve("t.json"), """
        { "tasks": { "tick": { "policy": "SCHED_FIFO", "priority": 50, "run": 1000,
                               "timer": { "ref": "unique", "period": 10000, "mode": "absolute" } } } }""");
    Outcome o = run("compare", "--duration", "1s", "--configs", "vanilla,preempt", "--workload", f.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("rt-app's wu_lat").contains("vanilla").contains("preempt");
    assertThat(run("list", "workloads").out()).contains("rt-app workload file");
  }

  // ---- files ----

  @Test
  void aReportDirectoryKeepsTheUsersOwnFiles(@TempDir Path tmp) throws IOException {
    Path r = tmp.resolve("r");
    assertThat(run("compare", "--duration", "100ms", "--quiet", "--configs", "vanilla", "--out", r.toString()).code())
        .isZero();
    Files.writeString(r.resolve("mine.txt"), "mine");
    Outcome again = run("compare", "--duration", "100ms", "--quiet", "--configs", "preempt", "--out", r.toString());
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(Files.readString(r.resolve("mine.txt"))).isEqualTo("mine");
    assertThat(names(r)).contains("mine.txt", "report.html", "results.json", "realfeel-preempt.hist")
        .doesNotContain("realfeel-vanilla.hist") // the earlier report's, which this one does not write
        .noneMatch(n -> n.endsWith(".tmp"));
  }

  @Test
  void aReportDirectoryThatIsALinkIsWrittenThrough(@TempDir Path tmp) throws IOException {
    Path target = Files.createDirectory(tmp.resolve("target"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
    Outcome o = run("compare", "--duration", "100ms", "--quiet", "--configs", "vanilla", "--out", link.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(names(target)).contains("report.html", "results.json");
  }

  @Test
  void outputFilesAreCheckedBeforeTheRun(@TempDir Path tmp) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("d"));
    refused("--json " + dir + ": is a directory", "compare", "--duration", "1h", "--quiet", "--json", dir.toString());
    refused("--json: an empty file name", "compare", "--duration", "1h", "--quiet", "--json", "");
    refused("-o " + dir + ": is a directory", "trace", "--duration", "1h", "--quiet", "-o", dir.toString());
    refused("--chrome " + dir + ": is a directory", "trace", "--duration", "1h", "--quiet", "-o", tmp.resolve("t.txt").toString(),
        "--chrome", dir.toString());
    refused("-o " + dir + ": is a directory", "xref", "-o", dir.toString());
    Outcome proc = run("compare", "--duration", "1h", "--quiet", "--json", "/proc/kernel-lab.json");
    assertThat(proc.code()).isEqualTo(2);
    assertThat(proc.err().lines()).singleElement().asString().startsWith("kernel-lab: --json /proc/kernel-lab.json: ");
    Path r = tmp.resolve("r");
    refused("--json " + r.resolve("results.json") + ": inside --out " + r + ", which holds the report's own results.json",
        "compare", "--duration", "1h", "--quiet", "--out", r.toString(), "--json", r.resolve("results.json").toString());
    assertThat(names(tmp)).containsExactly("d");
  }

  @Test
  void jsonOnStandardOutputIsTheWholeStandardOutput() throws IOException {
    Outcome o = run("compare", "--duration", "100ms", "--quiet", "--configs", "vanilla", "--json", "-");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(new ObjectMapper().readTree(o.out()).get("results")).hasSize(1);
    assertThat(o.err()).contains("kernel-lab compare: stress");
    Outcome e = run("explain", "--duration", "100ms", "--quiet", "--json", "-");
    assertThat(new ObjectMapper().readTree(e.out()).get("results")).hasSize(1);
    assertThat(e.err()).contains("kernel-lab explain: stress");
  }

  @Test
  void traceSaysItReplacesAnEarlierFile(@TempDir Path tmp) throws IOException {
    Path t = Files.writeString(tmp.resolve("trace.txt"), "an earlier trace");
    Outcome o = run("trace", "--duration", "100ms", "--quiet", "--all", "-o", t.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("written to " + t + " (replacing the earlier file)");
    assertThat(Files.readString(t)).startsWith("# tracer");
  }

  @Test
  void explainWritesTheJsonItIsAskedFor(@TempDir Path tmp) throws IOException {
    Path j = tmp.resolve("e.json");
    assertThat(run("explain", "--duration", "100ms", "--quiet", "--json", j.toString()).code()).isZero();
    assertThat(new ObjectMapper().readTree(j.toFile()).get("results").get(0).get("config").asText()).isEqualTo("vanilla");
  }

  // ---- the command line ----

  @Test
  void aRangeOfSeedsEndsAtTheLargestLong() {
    assertThat(SweepCommand.parseSeeds("9223372036854775806..9223372036854775807"))
        .containsExactly(9223372036854775806L, 9223372036854775807L);
    assertThat(SweepCommand.parseSeeds("-9223372036854775808..-9223372036854775807"))
        .containsExactly(Long.MIN_VALUE, Long.MIN_VALUE + 1);
    refused("--seeds -9223372036854775808..9223372036854775807: the range must go up, at most 10000 seeds",
        "sweep", "--seeds", "-9223372036854775808..9223372036854775807", "--quiet");
    refused("--seeds 1,1: seed 1 is given twice", "sweep", "--seeds", "1,1", "--quiet");
  }

  @Test
  void durationsAreCheckedWithTheirOptionsName() {
    refused("--before: bad duration 'abc': a number and a unit, e.g. 500ms, 60s, 10m or 10min, 12h",
        "trace", "--duration", "1h", "--quiet", "--before", "abc");
    refused("--before: duration '0s' out of range (1 ns .. 11 days)", "trace", "--duration", "1h", "--quiet", "--before", "0s");
    refused("--before: bad duration '-1ms': a number and a unit, e.g. 500ms, 60s, 10m or 10min, 12h",
        "trace", "--duration", "1h", "--quiet", "--before", "-1ms");
    refused("--before sets the window around the worst sample; --all writes the whole run",
        "trace", "--duration", "1h", "--quiet", "--all", "--before", "5ms");
    refused("--warmup: duration '0s' out of range (1 ns .. 11 days)", "bench", "--warmup", "0s");
    refused("--warmup-wall: bad duration '-1s': a number and a unit, e.g. 500ms, 60s, 10m or 10min, 12h",
        "bench", "--warmup-wall", "-1s");
    refused("--duration: duration '0s' out of range (1 ns .. 11 days)", "compare", "--duration", "0s");
    assertThat(Durations.parse("10min")).isEqualTo(Durations.parse("10m")).isEqualTo(600_000_000_000L);
  }

  @Test
  void whatACommandWouldIgnoreIsRefused() {
    refused("--json: trace writes no results; its outputs are -o, --chrome and --dat", "trace", "--duration", "1h", "--json", "t.json");
    refused("--histogram sets histogram.txt of --out DIR: give --out too", "compare", "--duration", "1h", "--histogram", "5");
    Outcome help = run("sweep", "--help");
    assertThat(help.out()).contains("--seeds").doesNotContain("--seed ").doesNotContain("--seed=");
    refused("--configs: configuration vanilla is given twice", "compare", "--duration", "1h", "--configs", "vanilla,vanilla");
    refused("--preempt-stats: preempt-stats measures a preemptible kernel (CONFIG_PREEMPT); this configuration"
        + " is vanilla: run one with the preempt patch", "run", "--duration", "1h", "--quiet", "--preempt-stats");
  }

  @Test
  void aRunWithNoSampleSaysSo() {
    Outcome c = run("compare", "--duration", "1ns", "--quiet", "--configs", "vanilla");
    assertThat(c.code()).as(c.err()).isZero();
    assertThat(c.out()).contains("vanilla          no samples in 1.00e-09 s");
    Outcome r = run("run", "--duration", "1ns", "--quiet");
    assertThat(r.out()).contains("realfeel: no samples in").doesNotContain("Min:0");
    Outcome e = run("explain", "--duration", "1ns", "--quiet");
    assertThat(e.out()).contains("no samples in");
  }

  @Test
  void aBadSparkMasterIsOneLine() {
    refused("--master bogus://: not a Spark master URL (local, local[N], local[*], spark://HOST:PORT, yarn, k8s://URL)",
        "sweep", "--seeds", "1..2", "--engine", "spark", "--master", "bogus://");
    SweepCommand.checkMaster("local[*]");
    SweepCommand.checkMaster("local[4,2]");
    SweepCommand.checkMaster("spark://host:7077");
    SweepCommand.checkMaster("k8s://https://api:6443");
  }

  @Test
  void helpPrintsNoFormattingWarning() {
    // picocli warns on System.err, not on the command line's own writer
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream warned = new java.io.ByteArrayOutputStream();
    try {
      System.setErr(new java.io.PrintStream(warned, true, java.nio.charset.StandardCharsets.UTF_8));
      for (String[] args : new String[][] {{"--help"}, {"bench", "--help"}}) {
        Outcome o = run(args);
        assertThat(o.code()).isZero();
        assertThat(o.err() + o.out()).doesNotContain("Could not format");
      }
    } finally {
      System.setErr(saved);
    }
    assertThat(warned.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("Could not format");
  }
}
