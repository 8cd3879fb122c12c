package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kernellab.hw.Smi;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A cell's line without a simulation: every coordinate of the machine reads back as written, a
 * line of an earlier version (no IDE fields) reads as the default machine, and a line that is
 * not a cell is refused naming what is wrong. SweepResultsTests reads back a cell that ran.
 */
class CellJsonTests {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Experiment unusual() {
    IdeSettings ide = new IdeSettings(!IdeSettings.DEFAULT.dma(), !IdeSettings.DEFAULT.unmaskIrq(),
        IdeSettings.DEFAULT.multcount() == 8 ? 16 : 8);
    return new Experiment("dbench", "preempt+lowlat", "o1", 2, 1000, 250_000_000L, 7, true, ide,
        new Firmware(true, Optional.of(new Smi(1_000_000_000L, 200_000L))));
  }

  @Test
  void aFailedCellReadsBackWithEveryCoordinateOfItsMachine() throws Exception {
    CellOutcome.Failed failed = new CellOutcome.Failed(unusual(), CellOutcome.Failure.KERNEL_BUG, "runqueue lost a task");
    String line = CellJson.outcome(failed);
    assertThat(line).doesNotContain("\n");
    JsonNode n = JSON.readTree(line);
    assertThat(n.get("outcome").asText()).isEqualTo("kernel_bug");
    assertThat(n.get("message").asText()).isEqualTo("runqueue lost a task");
    JsonNode cell = n.get("cell");
    assertThat(cell.get("duration_ns").asLong()).isEqualTo(250_000_000L);
    assertThat(cell.get("smi_period_ns").asLong()).isEqualTo(1_000_000_000L);
    assertThat(cell.get("smi_length_ns").asLong()).isEqualTo(200_000L);
    assertThat(cell.get("apm").asBoolean()).isTrue();
    assertThat(cell.get("debug_checks").asBoolean()).isTrue();
    assertThat(CellJson.outcome(line)).isEqualTo(failed);
    CellOutcome.Failed lost = new CellOutcome.Failed(unusual(), CellOutcome.Failure.LOST, "executor lost");
    assertThat(CellJson.outcome(CellJson.outcome(lost))).isEqualTo(lost);
  }

  @Test
  void aCellWithoutFirmwareWritesNoSmiFields() throws Exception {
    Experiment plain = new Experiment("stress", "vanilla", "goodness", 1, 100, 1_000_000_000L, 1, false);
    JsonNode cell = JSON.readTree(CellJson.cell(plain));
    assertThat(cell.has("smi_period_ns")).isFalse();
    assertThat(cell.get("apm").asBoolean()).isFalse();
    CellOutcome.Failed f = new CellOutcome.Failed(plain, CellOutcome.Failure.LOST, "");
    assertThat(CellJson.outcome(CellJson.outcome(f))).isEqualTo(f);
  }

  @Test
  void aLineOfAnEarlierVersionIsTheDefaultMachine() throws Exception {
    ObjectNode cell = (ObjectNode) JSON.readTree(CellJson.cell(unusual()));
    cell.remove(java.util.List.of("ide_dma", "ide_unmaskirq", "ide_multcount", "apm", "smi_period_ns", "smi_length_ns"));
    String line = "{\"cell\":" + cell + ",\"outcome\":\"lost\",\"message\":\"m\"}";
    CellOutcome.Failed back = (CellOutcome.Failed) CellJson.outcome(line);
    assertThat(back.cell().ide()).isEqualTo(IdeSettings.DEFAULT);
    assertThat(back.cell().firmware()).isEqualTo(Firmware.NONE);
    assertThat(back.cell().workload()).isEqualTo("dbench");
  }

  @Test
  void aLineThatIsNotACellIsRefusedSayingWhy() throws Exception {
    assertThatThrownBy(() -> CellJson.outcome("{\"cell\":")).hasMessageStartingWith("not a JSON line: ");
    ObjectNode cell = (ObjectNode) JSON.readTree(CellJson.cell(unusual()));
    ObjectNode noWorkload = cell.deepCopy();
    noWorkload.remove("workload");
    assertThatThrownBy(() -> CellJson.outcome("{\"cell\":" + noWorkload + ",\"outcome\":\"lost\"}"))
        .hasMessage("not a cell: no text field 'workload'");
    ObjectNode textCpus = cell.deepCopy();
    textCpus.put("cpus", "2");
    assertThatThrownBy(() -> CellJson.outcome("{\"cell\":" + textCpus + ",\"outcome\":\"lost\"}"))
        .hasMessage("not a cell: no integer field 'cpus'");
    assertThatThrownBy(() -> CellJson.outcome("{\"cell\":" + cell + ",\"outcome\":\"finished\"}"))
        .hasMessage("not a cell outcome: outcome 'finished'");
  }

  @Test
  void aDamagedThreadPriorityIsNotACellEither() throws Exception {
    ObjectNode cell = (ObjectNode) JSON.readTree(CellJson.cell(unusual()));
    String[][] cases = {
      {"{\"rtc\":80}",
          "not a cell: irq_thread_priority has a key 'rtc' that is no IRQ line number"},
      {"{\"99999999999\":80}",
          "not a cell: irq_thread_priority has a key '99999999999' that is no IRQ line number"},
      {"{\"8\":\"high\"}", "not a cell: no integer field '8'"},
      {"{\"8\":100}",
          "not a cell: irq_thread_priority: IRQ 8's thread: 100 is not a SCHED_FIFO priority"
              + " (1 to 99)"},
      {"80", "not a cell: no object field 'irq_thread_priority'"},
    };
    for (String[] c : cases) {
      ObjectNode damaged = cell.deepCopy();
      damaged.set("irq_thread_priority", JSON.readTree(c[0]));
      assertThatThrownBy(() -> CellJson.outcome("{\"cell\":" + damaged + ",\"outcome\":\"lost\"}"))
          .as(c[0]).isInstanceOf(IllegalArgumentException.class).hasMessage(c[1]);
    }
  }
}
