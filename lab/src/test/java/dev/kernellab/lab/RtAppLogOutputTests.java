package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --out} with an rt-app file: each thread's log in rt-app's format, a directory per
 * configuration, read back as an rt-app analysis script would read it and checked against what
 * the same run reports (its counters and its {@code wu_lat} distribution); a built-in workload
 * writes none; a later report removes the logs and directories an earlier one wrote, and
 * nothing else.
 */
class RtAppLogOutputTests {

  private static final String FILE = """
      { "tasks": {
          "tick": { "policy": "SCHED_FIFO", "priority": 50, "run": 500, "timer": { "ref": "unique", "period": 10000 } },
          "hog": { "instance": 2, "run": 20000, "sleep": 5000 } },
        "global": { "log_basename": "lab" } }""";

  private static final String HEADER =
      "#idx     perf      run   period           start             end          rel_st      slack c_duration   c_period     wu_lat";

  private static Outcome run(String... args) {
    return Outcome.run(args);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A log read back: each row's 11 columns, after checking the header and the columns' count. */
  private static List<long[]> rows(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    assertThat(lines.get(0)).as(log.toString()).isEqualTo(HEADER);
    List<long[]> out = new ArrayList<>();
    for (String l : lines.subList(1, lines.size())) {
      String[] f = l.trim().split(" +");
      assertThat(f).as(l).hasSize(11);
      long[] row = new long[11];
      for (int i = 0; i < 11; i++) {
        row[i] = Long.parseLong(f[i]);
      }
      out.add(row);
    }
    return out;
  }

  @Test
  void outWritesEachThreadsLogInRtAppsFormatThatAgreesWithTheReport(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("load.json"), FILE);
    Path report = dir.resolve("report");
    Outcome o = run("compare", "--workload", file.toString(), "--duration", "1s", "--quiet", "--configs",
        "vanilla,preempt", "--out", report.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(names(report)).contains("vanilla", "preempt", "report.html", "results.json");
    JsonNode results = new ObjectMapper().readTree(report.resolve("results.json").toFile()).get("results");
    List<String> threads = List.of("lab-tick-0.log", "lab-hog-1.log", "lab-hog-2.log");
    for (int c = 0; c < 2; c++) {
      JsonNode r = results.get(c);
      Path logs = report.resolve(r.get("config").asText());
      assertThat(names(logs)).containsExactlyInAnyOrderElementsOf(threads);
      long allRows = 0;
      for (int t = 0; t < threads.size(); t++) {
        List<long[]> rows = rows(logs.resolve(threads.get(t)));
        long index = t; // rt-app numbers the threads over the whole file: tick-0, hog-1, hog-2
        assertThat(rows).isNotEmpty().allMatch(row -> row[0] == index);
        allRows += rows.size();
      }
      JsonNode counters = r.get("counters");
      assertThat(allRows).isEqualTo(counters.get("log_rows").asLong());

      // the timer thread: one row an activation, each a wake-up or an overrun; its wu_lat
      // column is the compare's distribution, in whole microseconds
      List<long[]> tick = rows(logs.resolve("lab-tick-0.log"));
      long wakeUps = counters.get("timer_wakeups").asLong();
      assertThat(tick).hasSize((int) (wakeUps + counters.get("timer_overruns").asLong()));
      assertThat(tick.size()).isBetween(95, 101); // 1 s at 10 ms
      JsonNode latency = r.get("latency");
      assertThat(latency.get("samples").asLong()).isEqualTo(wakeUps);
      long max = tick.stream().mapToLong(row -> row[10]).max().orElseThrow();
      assertThat((double) max).isCloseTo(latency.get("max_us").asDouble(), org.assertj.core.data.Offset.offset(1.0));
      long sum = tick.stream().mapToLong(row -> row[10]).sum();
      assertThat((double) sum).isCloseTo(latency.get("avg_us").asDouble() * wakeUps,
          org.assertj.core.data.Offset.offset((double) wakeUps));
      for (long[] row : tick) {
        assertThat(row[9]).isEqualTo(10_000); // c_period
        // period = end - start, each truncated to microseconds as rt-app's timespec_to_usec does
        assertThat(row[3]).isBetween(row[5] - row[4] - 1, row[5] - row[4]);
      }
    }
    assertThat(Files.readAllLines(report.resolve(ReportDirectory.MANIFEST)))
        .contains("vanilla/", "preempt/", "vanilla/lab-tick-0.log", "preempt/lab-hog-2.log");

    // a later report without preempt: its logs and its directory go, a user's file stays
    Files.writeString(report.resolve("vanilla").resolve("notes.txt"), "mine");
    assertThat(run("run", "--workload", file.toString(), "--duration", "1s", "--quiet", "--out", report.toString())
        .code()).isZero();
    assertThat(report.resolve("preempt")).doesNotExist();
    assertThat(names(report.resolve("vanilla"))).containsExactlyInAnyOrder("notes.txt", "lab-tick-0.log",
        "lab-hog-1.log", "lab-hog-2.log");

    // a built-in workload writes no thread log: the logs go, the directory with the user's file stays
    assertThat(run("run", "--duration", "1s", "--quiet", "--out", report.toString()).code()).isZero();
    assertThat(names(report.resolve("vanilla"))).containsExactly("notes.txt");
    try (Stream<Path> s = Files.list(report)) {
      assertThat(s.filter(Files::isDirectory).map(p -> p.getFileName().toString())).containsExactly("vanilla");
    }
  }

  /** Nothing the tool did not write is touched: a link out of DIR, a user's file of a log's name. */
  @Test
  void aConfigurationDirectoryThatIsNotTheReportsOwnIsLeftAsItIs(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("load.json"), FILE);
    Path report = dir.resolve("report");
    assertThat(run("run", "--workload", file.toString(), "--duration", "1s", "--quiet", "--out", report.toString())
        .code()).isZero();

    // vanilla/ replaced by a link to a directory elsewhere: refused, nothing there deleted or written
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("lab-tick-0.log"), "mine");
    try (Stream<Path> s = Files.list(report.resolve("vanilla"))) {
      for (Path p : s.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(report.resolve("vanilla"));
    Files.createSymbolicLink(report.resolve("vanilla"), elsewhere);
    Outcome linked = run("run", "--workload", file.toString(), "--duration", "1s", "--quiet", "--out", report.toString());
    assertThat(linked.code()).isEqualTo(2);
    assertThat(linked.err().strip()).isEqualTo("kernel-lab: --out " + report + ": vanilla/ is not a directory; it is left as it is");
    assertThat(names(elsewhere)).containsExactly("lab-tick-0.log");
    assertThat(Files.readString(elsewhere.resolve("lab-tick-0.log"))).isEqualTo("mine");

    // a file of a log's name the user put in a directory of their own: refused, kept
    Files.delete(report.resolve("vanilla"));
    Files.createDirectory(report.resolve("preempt"));
    Files.writeString(report.resolve("preempt").resolve("lab-hog-1.log"), "mine");
    Outcome theirs = run("compare", "--workload", file.toString(), "--duration", "1s", "--quiet", "--configs",
        "vanilla,preempt", "--out", report.toString());
    assertThat(theirs.code()).isEqualTo(2);
    assertThat(theirs.err().strip()).isEqualTo(
        "kernel-lab: --out " + report + ": preempt/lab-hog-1.log is not from an earlier report; it is left as it is");
    assertThat(names(report.resolve("preempt"))).containsExactly("lab-hog-1.log");
    assertThat(Files.readString(report.resolve("preempt").resolve("lab-hog-1.log"))).isEqualTo("mine");
  }
}
