package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep's --results file (resume), its cell lines, and the choice of engine. */
class SweepResultsTests {

  private static Outcome run(String... args) {
    return Outcome.run(args);
  }

  private static Outcome sweep(String seeds, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("sweep", "--duration", "1s", "--configs", "vanilla,preempt",
        "--seeds", seeds, "--workers", "2"));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  @Test
  void aResumedSweepRunsOnlyTheCellsItsFileLacksAndPrintsTheSameTableAsOneRun(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sweep.jsonl");
    Outcome first = sweep("1..2", "--results", file.toString());
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(Files.readAllLines(file)).hasSize(4);
    assertThat(first.err()).contains("0 of 4 cells already in " + file + ", 4 to run");

    Outcome resumed = sweep("1..3", "--results", file.toString());
    assertThat(resumed.code()).as(resumed.err()).isZero();
    assertThat(resumed.err()).contains("4 of 6 cells already in " + file + ", 2 to run");
    assertThat(Files.readAllLines(file)).hasSize(6);

    Outcome whole = sweep("1..3", "--quiet");
    assertThat(resumed.out()).isEqualTo(whole.out());

    Outcome again = sweep("1..3", "--results", file.toString());
    assertThat(again.err()).contains("6 of 6 cells already in " + file + ", 0 to run");
    assertThat(again.out()).isEqualTo(whole.out());
  }

  @Test
  void aTruncatedLastLineIsIgnoredAndTheNextCellStartsOnALineOfItsOwn(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sweep.jsonl");
    assertThat(sweep("1", "--quiet", "--results", file.toString()).code()).isZero();
    String whole = Files.readString(file);
    // a process killed in the middle of its append leaves half a line and no newline
    Files.writeString(file, whole + whole.substring(0, whole.length() / 3), StandardCharsets.UTF_8,
        StandardOpenOption.TRUNCATE_EXISTING);

    Outcome o = sweep("1..2", "--results", file.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.err()).contains("line 3 is not a cell outcome, ignored").contains("2 of 4 cells already");
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(5);
    assertThat(lines.subList(3, 5)).allSatisfy(l -> assertThat(CellJson.outcome(l)).isInstanceOf(CellOutcome.Done.class));
  }

  @Test
  void aCellsLineReadsBackWithEveryFigureTheSweepReports() throws Exception {
    Experiment e = new Experiment("latencytest", "preempt+lowlat", "o1", 2, 100, 1_000_000_000L, 7, false);
    ConfigResult direct = ExperimentRunner.run(e, null, () -> false, t -> { });
    String line = CellJson.run(CellJson.cell(e));
    CellOutcome.Done back = (CellOutcome.Done) CellJson.outcome(line);

    assertThat(back.cell()).isEqualTo(e);
    assertThat(CellJson.outcome(back)).isEqualTo(line);
    assertThat(withoutWall(JsonReport.result(back.result()))).isEqualTo(withoutWall(JsonReport.result(direct)));
    assertThat(back.result().worst()).isEqualTo(direct.worst());
    assertThat(back.result().result().counters()).containsExactlyEntriesOf(direct.result().counters());
    assertThat(back.result().result().probes().get(0).phases()).isEqualTo(direct.result().probes().get(0).phases());
  }

  private static String withoutWall(java.util.Map<String, Object> cell) throws Exception {
    ObjectNode n = new ObjectMapper().valueToTree(cell);
    ((ObjectNode) n.get("sim")).remove(List.of("wall_s", "realtime_factor"));
    return n.toString();
  }

  @Test
  void anEngineThatIsNotThereIsOneLineAndExitTwo() {
    Outcome spark = sweep("1", "--engine", "spark");
    assertThat(spark.code()).isEqualTo(2);
    assertThat(spark.err().lines()).containsExactly(
        "kernel-lab: --engine spark: lab-spark is not on the class path (run ./kernel-lab, which builds it,"
            + " or spark-submit lab-spark/target/kernel-lab-spark.jar)");

    Outcome unknown = sweep("1", "--engine", "mpi");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err().lines()).containsExactly("kernel-lab: unknown engine 'mpi'; known: local");
  }

  /** A second engine of a name already registered: a packaging mistake, refused naming both. */
  public static final class AnotherLocal implements SweepEngine {
    @Override
    public String name() {
      return "local";
    }

    @Override
    public void run(List<Experiment> cells, Options options, Listener listener) {
      throw new UnsupportedOperationException("never run");
    }
  }

  @Test
  void theLocalEngineIsRegisteredAsAnyEngineIsAndOnlyOnce(@TempDir Path dir) {
    assertThat(SweepEngine.REGISTRY.names()).containsExactly("local");
    assertThat(SweepEngine.named("local")).isInstanceOf(LocalSweepEngine.class);
    org.assertj.core.api.Assertions.assertThatIllegalStateException()
        .isThrownBy(() -> dev.kernellab.kernel.ServiceRegistrations.in(dir)
            .register(SweepEngine.class, AnotherLocal.class).run(() -> SweepEngine.named("local")))
        .withMessage("engine 'local' registered twice, by " + LocalSweepEngine.class.getName() + " and "
            + AnotherLocal.class.getName());
  }

  @Test
  void theLocalEngineRefusesAMaster() {
    Outcome o = sweep("1", "--master", "local[2]");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines()).containsExactly(
        "kernel-lab: --master is for a distributed engine (--engine spark), not the local one");
  }
}
