package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line, in process: every subcommand, the JSON's documented fields, bad input. */
class CommandLineTests {

  private static Outcome run(String... args) {
    return Outcome.run(args);
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
  @ValueSource(strings = {"workloads", "patches", "schedulers", "sites", "paths", "sources"})
  void listPrintsWhatExists(String what) {
    Outcome o = run("list", what);
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out().lines().count()).isGreaterThan(1);
  }

  /**
   * Every registered patch that says what it does at the catalog's sites gets a column, in the
   * registry's order, the lab naming none of them: lockbreak, a plug-in, as lowlat.
   */
  @Test
  void listSitesShowsEveryRegisteredCatalogPatchsSites() {
    Outcome o = run("list", "sites");
    assertThat(o.code()).as(o.err()).isZero();
    java.util.List<String> lines = o.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("| site | vanilla 2.4.17 | lockbreak | lowlat |");
    assertThat(lines.get(1)).isEqualTo("|---|---|---|---|");
    assertThat(lines).contains(
        "| fs/dcache.c:prune_dcache | - | break_spin_lock (dcache_lock) if need_resched, every 101, +0 ns"
            + " | lock break (dcache_lock), TEST_RESCHED_COUNT(100) [sysctl], +0 ns |",
        "| mm/filemap.c:do_generic_file_read#found_page | - | - | conditional_schedule |",
        "| kernel/exit.c:close_files | - | conditional_schedule | conditional_schedule |");
    assertThat(lines).hasSize(2 + dev.kernellab.paths.Kernel24Paths.withDefaults().sites().size());
  }

  /**
   * The latency sources are the catalog's, with a "broken by" naming every registered patch
   * that breaks a source's site, the lab naming none: the table docs/latency-sources.md pastes.
   */
  @Test
  void listSourcesShowsEachSourceWithWhatItHoldsAndWhatBreaksIt() {
    Outcome o = run("list", "sources");
    assertThat(o.code()).as(o.err()).isZero();
    java.util.List<String> lines = o.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("| source | holds | blocks | length driven by | reached from | cost from | broken by |");
    assertThat(lines).anyMatch(l -> l.startsWith("| fs/dcache.c:prune_dcache | spin_lock(&dcache_lock) | preempt count |")
        && l.endsWith("| lockbreak (break_spin_lock (dcache_lock) if need_resched, every 101, +0 ns);"
            + " lowlat (lock break (dcache_lock), TEST_RESCHED_COUNT(100) [sysctl], +0 ns) |"));
    assertThat(lines).hasSize(2 + dev.kernellab.paths.LatencySources.of(
        dev.kernellab.paths.Kernel24Paths.withDefaults()).sources().size());
  }

  /**
   * run --preempt-stats prints /proc/latencytimes as the preempt-stats patch did, per CPU, for
   * the preempt-off periods and for the interrupts-off ones, after the run's own figures.
   */
  @Test
  void runWithPreemptStatsPrintsTheLatencytimesTables() {
    Outcome o = run("run", "--config", "preempt", "--duration", "2s", "--quiet", "--preempt-stats");
    assertThat(o.code()).as(o.err()).isZero();
    java.util.List<String> lines = o.out().lines().toList();
    int preempt = lines.indexOf(lines.stream()
        .filter(l -> l.matches("cpu 0 worst 20 preempt-off latency times of \\d+ measured in this period\\.")).findFirst().orElseThrow());
    assertThat(lines.get(preempt + 1)).startsWith("  usec  cause");
    assertThat(lines.get(preempt + 2)).matches(" *\\d+  \\S.*");
    assertThat(lines).anyMatch(l -> l.matches("cpu 0 worst 20 irqs-off latency times of \\d+ measured in this period\\."));
    assertThat(lines.subList(0, preempt)).anyMatch(l -> l.startsWith("T: 0 (realfeel) P:99 I:488 C:"));
  }

  /** The messages users get: one line, from the rule's own module, naming the option. */
  @Test
  void badInputNamesTheOptionWithTheRulesOwnWords() {
    String[][] cases = {
      {"compare --workload nope", "kernel-lab: --workload: unknown workload 'nope'; known: stress, latencytest, dbench,"
          + " kbuild, idle, cyclictest; nor is it an rt-app file (no such file)"},
      {"compare --scheduler cfs", "kernel-lab: --scheduler: unknown scheduler 'cfs'; known: goodness, o1"},
      {"compare --cpus 0", "kernel-lab: --cpus: a machine has 1..32 CPUs, got 0"},
      {"compare --hz 5", "kernel-lab: --hz: HZ must be 19..10000 (the PIT divisor is 16 bits), got 5"},
      {"compare --configs vanilla,bogus", "kernel-lab: --configs: configuration 'bogus': unknown patch 'bogus'; known:"
          + " apm-test, lockbreak, lowlat, preempt, rt, voluntary; or vanilla for none"},
      {"trace --config preempt+preempt", "kernel-lab: --config: configuration 'preempt+preempt': patch 'preempt' twice"},
      {"bench --configs vanilla+nope", "kernel-lab: --configs: configuration 'vanilla+nope': vanilla is the kernel"
          + " without patches, not a patch to join with '+'"},
      {"bench --workloads bogus", "kernel-lab: --workloads: unknown workload 'bogus'; known: stress, latencytest,"
          + " dbench, kbuild, idle, cyclictest; nor is it an rt-app file (no such file)"},
      {"compare --ide-multcount 3", "kernel-lab: --ide-multcount: multcount must be 0 (off) or a power of two up to"
          + " 16 (the drive's MaxMultSect), got 3"},
      {"run --ide-dma 2", "kernel-lab: --ide-dma: must be 0 (off) or 1 (on), as hdparm takes it; got 2"},
      {"explain --ide-unmaskirq -1", "kernel-lab: --ide-unmaskirq: must be 0 (off) or 1 (on), as hdparm takes it;"
          + " got -1"},
      {"trace --smi 1s", "kernel-lab: --smi: '1s' is not off or PERIOD:LENGTH, e.g. 1s:200us"},
      {"sweep --smi 10ms:10ms", "kernel-lab: --smi: an SMI needs 0 < length < period, got period 10000000 ns,"
          + " length 10000000 ns"},
    };
    for (String[] c : cases) {
      Outcome o = run(c[0].split(" "));
      assertThat(o.code()).as(c[0]).isEqualTo(2);
      assertThat(o.err().lines()).as(c[0]).containsExactly(c[1]);
    }
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
      {"compare", "--histogram", "0"},
      {"bench", "--workloads", "bogus"},
      {"bench", "--configs", "vanilla+nope"},
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
    // with --json - the JSON is the whole standard output and the table goes to stderr
    assertThat(o.err()).contains("seeds 1..3 (3 runs)", "max (min / median / max)", "worst run");
    JsonNode root = new ObjectMapper().readTree(o.out());
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
  void aSweepsWorstReplayIsTheWorstRunWithEveryOptionItRanWith() throws Exception {
    Outcome o = run("sweep", "--duration", "1s", "--quiet", "--configs", "vanilla,rt", "--seeds", "1,2", "--hz", "1000",
        "--ide-dma", "0", "--irq-thread-priority", "rtc=80", "--json", "-");
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode root = new ObjectMapper().readTree(o.out());
    assertThat(root.get("summary")).hasSize(2);
    for (JsonNode s : root.get("summary")) {
      String replay = s.get("worst_replay").asText();
      assertThat(replay).startsWith("./kernel-lab explain ").contains(" --hz 1000 ", " --ide-dma 0 ",
          " --seed " + s.get("worst_seed").asLong() + " ");
      if (s.get("config").asText().equals("rt")) {
        assertThat(replay).contains("--irq-thread-priority 8=80");
      } else {
        assertThat(replay).as("vanilla has no handler thread, and explain would refuse the option").doesNotContain(
            "--irq-thread-priority");
      }
      java.util.List<String> args = new java.util.ArrayList<>(
          java.util.List.of(replay.substring("./kernel-lab ".length()).trim().split(" +")));
      args.addAll(java.util.List.of("--quiet", "--json", "-"));
      Outcome r = run(args.toArray(new String[0]));
      assertThat(r.code()).as(replay + ": " + r.err()).isZero();
      JsonNode replayed = new ObjectMapper().readTree(r.out());
      assertThat(replayed.get("results").get(0).get("latency").get("max_us").asDouble()).as(replay)
          .isEqualTo(s.get("max_us").get("max").asDouble());
    }
  }

  @Test
  void aSweepGivesTheSameCellsOnOneWorkerAsOnSeveral() throws Exception {
    java.util.List<JsonNode> runs = new java.util.ArrayList<>();
    for (String workers : new String[] {"1", "3"}) {
      Outcome o = run("sweep", "--duration", "1s", "--quiet", "--configs", "vanilla,preempt", "--seeds", "4,5",
          "--workers", workers, "--json", "-");
      assertThat(o.code()).as(o.err()).isZero();
      JsonNode cells = new ObjectMapper().readTree(o.out().substring(o.out().indexOf("{"))).get("cells");
      for (JsonNode cell : cells) {
        // the simulation's own cost (wall time, real-time factor) is the one thing that may differ
        ((com.fasterxml.jackson.databind.node.ObjectNode) cell).remove("sim");
      }
      runs.add(cells);
    }
    assertThat(runs.get(0)).hasSize(4);
    assertThat(runs.get(1)).isEqualTo(runs.get(0));
  }

  @Test
  void benchReportsTheModelsEventAndOperationRatesAndTheyAreTheSameEveryTime() {
    Outcome o = run("bench", "--duration", "500ms", "--warmup", "100ms", "--warmup-wall", "0s", "--configs", "vanilla,lowlat");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("yardstick: a bare heap of 1024 long keys holds at", "events/sim-s", "ops/sim-s",
        "0.500 s simulated per run after one warm-up run of 0.100 s");
    java.util.List<String> rows = o.out().lines().filter(l -> l.startsWith("stress ")).toList();
    assertThat(rows).hasSize(2);
    // the model's figures (events, queued events and operations per simulated second) are
    // deterministic: a second run of each configuration, without the command and its yardstick
    // (seconds of a bare heap's hold loop that a second command would only repeat), prints the
    // same; the machine's (ns per event, real-time factor, allocation, heap) are not compared
    for (String row : rows) {
      String[] f = row.trim().split("\\s+", -1);
      BenchCommand.Row again = BenchCommand.run(new Experiment("stress", f[1], "goodness", 1, 100, 500_000_000L, 1, false));
      // per simulated second: half a second's counts, doubled
      assertThat(again.simulatedNs()).isEqualTo(500_000_000L);
      assertThat(again.eventsPerSimS()).isEqualTo(2.0 * again.events());
      assertThat(again.queuedPerSimS()).isEqualTo(2.0 * again.queued());
      assertThat(again.opsPerSimS()).isEqualTo(2.0 * again.ops());
      assertThat(again.queued()).isPositive().isLessThan(again.events());
      assertThat(String.format(java.util.Locale.ROOT, "%s %s %,.0f %,.0f %,.0f", again.workload(), again.config(),
          again.eventsPerSimS(), again.queuedPerSimS(), again.opsPerSimS()))
          .isEqualTo(String.join(" ", f[0], f[1], f[2], f[3], f[4]));
    }
    assertThat(rows).satisfiesExactly(
        l -> assertThat(l).matches("stress +vanilla +[\\d,]+ +[\\d,]+ +[\\d,]+ .*"),
        l -> assertThat(l).matches("stress +lowlat +[\\d,]+ +[\\d,]+ +[\\d,]+ .*"));
  }

  @Test
  void benchOpsCountsEveryOperationOnceAndSplitsTheWallTimeByKind() {
    Outcome o = run("bench", "--duration", "1s", "--warmup", "100ms", "--warmup-wall", "0s", "--configs", "preempt+lowlat", "--ops");
    assertThat(o.code()).as(o.err()).isZero();
    java.util.List<String> lines = o.out().lines().toList();
    int head = lines.indexOf(lines.stream().filter(l -> l.trim().startsWith("operation ")).findFirst().orElseThrow());
    java.util.List<String> kinds = lines.subList(head + 1, lines.size()).stream()
        .takeWhile(l -> !l.trim().startsWith("(no operation)") && !l.trim().startsWith("busiest paths")).toList();
    assertThat(kinds).anySatisfy(l -> assertThat(l.trim()).startsWith("FlowOps.Compute "));
    // each kind's share of the operations, rounded to 0.1 %, adds up to the whole
    double ofOps = kinds.stream().mapToDouble(l -> Double.parseDouble(l.trim().split("\\s+")[2].replace("%", ""))).sum();
    assertThat(ofOps).isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.1 * kinds.size()));
    // the wall-time samples credited to operations and to the busiest places outside them
    // are at most all of them
    double ofWall = lines.subList(head + 1, lines.size()).stream()
        .takeWhile(l -> !l.trim().startsWith("busiest paths"))
        .mapToDouble(l -> Double.parseDouble(l.trim().replaceAll("^.*\\s(\\d+\\.\\d)%$", "$1"))).sum();
    assertThat(ofWall).isBetween(1.0, 100.0 + 0.05 * lines.size());
    assertThat(o.out()).contains("busiest paths", "wall-time samples of 1 ms");
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

  @Test
  void outWritesTheWholeReportAndItsHistogramCountsEverySample(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("report");
    Outcome o = run("compare", "--duration", "1s", "--quiet", "--configs", "vanilla,preempt",
        "--histogram", "2000", "--out", report.toString());
    assertThat(o.code()).as(o.err()).isZero();
    try (var files = Files.list(report)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "results.json", "histogram.txt", "realfeel-vanilla.hist", "realfeel-preempt.hist",
          "latency-histogram.png", "latency-histogram.svg", "latency-over-time.png",
          "latency-over-time.svg", "report.html", ReportDirectory.MANIFEST);
    }
    JsonNode results = new ObjectMapper().readTree(report.resolve("results.json").toFile()).get("results");

    java.util.List<String> hist = Files.readAllLines(report.resolve("histogram.txt"));
    assertThat(hist.get(0)).isEqualTo("# Histogram");
    assertThat(hist.get(1)).matches("000000 \\d{6}\t\\d{6}");
    long[] binned = new long[2];
    for (String l : hist.subList(1, 2001)) {
      String[] f = l.split("\\s+");
      binned[0] += Long.parseLong(f[1]);
      binned[1] += Long.parseLong(f[2]);
    }
    String[] total = field(hist, "# Total:");
    String[] overflows = field(hist, "# Histogram Overflows:");
    String[] max = field(hist, "# Max Latencies:");
    for (int c = 0; c < 2; c++) {
      JsonNode latency = results.get(c).get("latency");
      assertThat(Long.parseLong(total[c])).isEqualTo(binned[c]);
      assertThat(binned[c] + Long.parseLong(overflows[c])).isEqualTo(latency.get("samples").asLong());
      assertThat(Long.parseLong(max[c])).isEqualTo((long) latency.get("max_us").asDouble());
    }
    // vanilla's worst is beyond 2 ms: it overflows, and its cycle is listed
    assertThat(Long.parseLong(overflows[0])).isPositive();
    assertThat(hist).contains("# Histogram Overflow at cycle number:").anyMatch(l -> l.matches("# Thread 0: \\d{5}.*"));

    assertThat(Files.readAllLines(report.resolve("realfeel-vanilla.hist"))).first().asString().matches("0\\.0 \\d+");
    byte[] png = Files.readAllBytes(report.resolve("latency-histogram.png"));
    assertThat(java.util.Arrays.copyOf(png, 4)).containsExactly(0x89, 'P', 'N', 'G');
    String html = Files.readString(report.resolve("report.html"));
    assertThat(html).contains("<svg", "./kernel-lab compare --workload stress --configs vanilla,preempt",
        "--duration 1s --seed 1", "<h3>vanilla: ", "<h3>preempt: ")
        // self-contained: nothing fetched (the SVG namespaces are names, not addresses)
        .doesNotContain("src=\"http", "href=\"http", "url(http", "<link", "<script");
  }

  @Test
  void outNeverTouchesADirectoryThatIsNotAReportNorTheUsersFilesInAnEarlierOne(@TempDir Path dir) throws Exception {
    Path other = Files.createDirectories(dir.resolve("mine"));
    Files.writeString(other.resolve("notes.txt"), "keep");
    Outcome refused = run("compare", "--duration", "1s", "--quiet", "--out", other.toString());
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err().strip()).startsWith("kernel-lab: --out").doesNotContain("\n", "Exception");
    try (var files = Files.list(other)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("notes.txt");
    }

    Path report = dir.resolve("report");
    assertThat(run("run", "--duration", "1s", "--quiet", "--out", report.toString()).code()).isZero();
    Files.writeString(report.resolve("mine.txt"), "the user's own");
    assertThat(run("run", "--duration", "1s", "--quiet", "--config", "preempt", "--out", report.toString()).code()).isZero();
    // what the tool did not write stays; what the earlier report wrote and this one does not goes
    assertThat(report.resolve("mine.txt")).hasContent("the user's own");
    assertThat(report.resolve("realfeel-vanilla.hist")).doesNotExist();
    assertThat(report.resolve("realfeel-preempt.hist")).exists();
    assertThat(Files.readString(report.resolve("report.html"))).contains("./kernel-lab run --workload stress --config preempt");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("mine", "report");
    }
  }

  private static String[] field(java.util.List<String> lines, String label) {
    String line = lines.stream().filter(l -> l.startsWith(label)).findFirst().orElseThrow();
    return line.substring(label.length()).trim().split(" ");
  }

  private static JsonNode worstOf(Outcome compare) throws Exception {
    String json = compare.out().substring(compare.out().indexOf("{"));
    return new ObjectMapper().readTree(json).get("results").get(0).get("worst");
  }
}
