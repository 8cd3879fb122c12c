package dev.kernellab.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kernellab.lab.KernelLab;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kernel-lab sweep --engine spark} on Spark's local mode against the local engine: the
 * same cells give the same figures, failures come back with their coordinates, a kernel bug is not
 * retried, and a rerun resumes from the results file.
 */
class SparkSweepTests {

  private record Outcome(int code, String out, String err) {}

  @BeforeAll
  static void noSparkUi() {
    // SparkConf reads spark.* system properties: the tests need no web UI on port 4040
    System.setProperty("spark.ui.enabled", "false");
  }

  private static Outcome run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = KernelLab.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(args.toArray(String[]::new));
    return new Outcome(code, out.toString(), err.toString());
  }

  private static List<String> sweep(String... args) {
    List<String> a = new ArrayList<>(List.of("sweep"));
    a.addAll(List.of(args));
    return a;
  }

  private static List<String> with(List<String> args, String... more) {
    List<String> a = new ArrayList<>(args);
    a.addAll(List.of(more));
    return a;
  }

  /** Each cell's line, by its coordinates, without the one figure that is the machine's: wall time. */
  private static Map<String, String> figures(Path results) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<String, String> out = new TreeMap<>();
    for (String line : Files.readAllLines(results)) {
      JsonNode n = json.readTree(line);
      if (n.has("result")) {
        ((ObjectNode) n.get("result")).remove("wall_ns");
      }
      out.put(n.get("cell").toString(), n.toString());
    }
    return out;
  }

  @Test
  void aSweepOnLocal2EqualsTheLocalSweepCellForCell(@TempDir Path dir) throws Exception {
    List<String> cells = sweep("--configs", "vanilla,preempt", "--seeds", "1..4", "--duration", "5s");
    Outcome local = run(with(cells, "--workers", "2", "--results", dir.resolve("local.jsonl").toString(),
        "--json", dir.resolve("local.json").toString(), "--quiet"));
    Outcome spark = run(with(cells, "--engine", "spark", "--master", "local[2]",
        "--results", dir.resolve("spark.jsonl").toString(), "--json", dir.resolve("spark.json").toString()));
    assertThat(local.code()).as(local.err()).isZero();
    assertThat(spark.code()).as(spark.err()).isZero();

    assertThat(spark.out()).isEqualTo(local.out()).contains("seeds 1..4 (8 runs)");
    Map<String, String> byLocal = figures(dir.resolve("local.jsonl"));
    assertThat(byLocal).hasSize(8);
    assertThat(figures(dir.resolve("spark.jsonl"))).isEqualTo(byLocal);
    assertThat(cellsWithoutSim(dir.resolve("spark.json"))).isEqualTo(cellsWithoutSim(dir.resolve("local.json")));
    assertThat(spark.err()).contains("kernel-lab: 8 cells as a Spark job on local[2]", "kernel-lab: cell 8/8 ");
  }

  private static JsonNode cellsWithoutSim(Path json) throws Exception {
    JsonNode cells = new ObjectMapper().readTree(json.toFile()).get("cells");
    cells.forEach(c -> ((ObjectNode) c).remove("sim"));
    return cells;
  }

  @Test
  void aKernelBugIsTheCellsResultAndIsNeverRetriedWhileAFailureOutsideTheKernelIsRetried(@TempDir Path dir)
      throws Exception {
    Path results = dir.resolve("sweep.jsonl");
    List<String> cells = sweep("--configs", "vanilla,oops,flaky", "--seeds", "1..2", "--duration", "1s",
        "--debug-checks", "--engine", "spark", "--master", "local[2,2]", "--results", results.toString());
    int oops0 = FailingPatches.OOPS_BUILT.get();
    int flaky0 = FailingPatches.FLAKY_BUILT.get();

    Outcome o = run(cells);
    assertThat(o.code()).as(o.err()).isEqualTo(3);
    assertThat(FailingPatches.OOPS_BUILT.get() - oops0).as("one attempt per kernel bug").isEqualTo(2);
    assertThat(FailingPatches.FLAKY_BUILT.get() - flaky0).as("one failed attempt, retried once").isEqualTo(3);
    assertThat(o.out())
        .containsPattern("\\nflaky +[0-9.]+(us|ms) / ")
        .contains("2 cells failed:")
        .contains("  stress oops, goodness, 1 CPU, HZ 100, 1.00 s, seed 1: kernel bug: BUG: unlock of unheld lock")
        .contains("  stress oops, goodness, 1 CPU, HZ 100, 1.00 s, seed 2: kernel bug: BUG: unlock of unheld lock")
        .doesNotContain("rerun");
    assertThat(o.err()).contains("stress oops, goodness, 1 CPU, HZ 100, 1.00 s, seed 1:\nBUG: unlock of unheld lock");
    assertThat(figures(results)).hasSize(6);

    Outcome again = run(cells);
    assertThat(again.err()).contains("6 of 6 cells already in " + results + ", 0 to run");
    assertThat(FailingPatches.OOPS_BUILT.get() - oops0).as("kernel bugs are read back, not rerun").isEqualTo(2);
    assertThat(again.out()).isEqualTo(o.out());

    Outcome local = run(sweep("--configs", "vanilla,oops", "--seeds", "1..2", "--duration", "1s", "--debug-checks",
        "--quiet"));
    assertThat(local.code()).as("the local engine reports a kernel bug the same way").isEqualTo(3);
    assertThat(local.out()).contains(
        "  stress oops, goodness, 1 CPU, HZ 100, 1.00 s, seed 2: kernel bug: BUG: unlock of unheld lock");
  }

  @Test
  void aCellOutOfRetriesIsLostWhileTheOthersFinishAndARerunRunsItAgain(@TempDir Path dir) throws Exception {
    Path results = dir.resolve("sweep.jsonl");
    List<String> cells = sweep("--configs", "vanilla,doomed", "--seeds", "1..2", "--duration", "1s",
        "--engine", "spark", "--master", "local[2,2]", "--results", results.toString());

    Outcome o = run(cells);
    assertThat(o.code()).as(o.err()).isEqualTo(1);
    assertThat(o.out())
        .contains("doomed           no run finished")
        .contains("2 cells failed:")
        .contains("  stress doomed, goodness, 1 CPU, HZ 100, 1.00 s, seed 1: lost: ")
        .contains("  stress doomed, goodness, 1 CPU, HZ 100, 1.00 s, seed 2: lost: ")
        .contains("executor keeps failing (test)")
        .contains("rerun the same command: the cells in " + results + " are kept, the lost ones run again");
    assertThat(figures(results)).as("the vanilla cells, and no lost one").hasSize(2);

    int doomed0 = FailingPatches.DOOMED_BUILT.get();
    Outcome again = run(cells);
    assertThat(again.code()).isEqualTo(1);
    assertThat(again.err()).contains("2 of 4 cells already in " + results + ", 2 to run");
    assertThat(FailingPatches.DOOMED_BUILT.get() - doomed0).as("both cells again, with their retries")
        .isGreaterThanOrEqualTo(4);
  }

  @Test
  void workersAndABadMasterAreOneLineAndExitTwo() {
    Outcome workers = run(sweep("--seeds", "1", "--duration", "1s", "--engine", "spark", "--workers", "2"));
    assertThat(workers.code()).isEqualTo(2);
    assertThat(workers.err()).startsWith("kernel-lab: --workers is for the local engine");
    assertThat(workers.err().lines()).hasSize(1);

    Outcome master = run(sweep("--seeds", "1", "--duration", "1s", "--engine", "spark", "--master", "nowhere[",
        "--quiet"));
    assertThat(master.code()).isEqualTo(2);
    assertThat(master.err().lines().filter(l -> l.startsWith("kernel-lab: ")).toList())
        .containsExactly("kernel-lab: --master nowhere[: not a Spark master URL (local, local[N], local[*],"
            + " spark://HOST:PORT, yarn, k8s://URL)");
  }
}
