package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@code --irq-thread-priority}: read by line number or handler name, refused in one line where
 * it cannot mean anything, recorded with the run's other inputs, applied only where a
 * configuration threads interrupts; and what it changes for latencytest's RTC under rt.
 */
class IrqThreadPriorityTests {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aLineIsANumberOrItsHandlersName() {
    IrqThreadPriorities byName = IrqThreadPriorities.parse("rtc=80,ide0=60");
    assertThat(byName).isEqualTo(IrqThreadPriorities.parse("14=60,8=80"));
    assertThat(byName.byLine()).containsExactly(Map.entry(8, 80), Map.entry(14, 60));
    assertThat(byName.toString()).isEqualTo("8=80,14=60");
    assertThat(IrqThreadPriorities.parse("none")).isEqualTo(IrqThreadPriorities.NONE);
    assertThat(byName.options()).isEqualTo(" --irq-thread-priority 8=80,14=60");
    assertThat(IrqThreadPriorities.NONE.options()).isEmpty();
  }

  @Test
  void aBadLineOrPriorityIsRefusedInOneLineByEveryCommandThatTakesIt() {
    String[][] cases = {
      {"compare --irq-thread-priority 0=80", "kernel-lab: --irq-thread-priority: IRQ 0 is the"
          + " timer's, which stays a hard interrupt and has no thread to give a priority"},
      {"run --irq-thread-priority rtc=100", "kernel-lab: --irq-thread-priority: IRQ 8's thread: 100 is"
          + " not a SCHED_FIFO priority (1 to 99)"},
      {"explain --irq-thread-priority ide0=0", "kernel-lab: --irq-thread-priority: IRQ 14's thread: 0 is"
          + " not a SCHED_FIFO priority (1 to 99)"},
      {"sweep --irq-thread-priority eth0=80", "kernel-lab: --irq-thread-priority: no line's handler is named 'eth0'"
          + " (lines: 8 rtc, 14 ide0)"},
      {"trace --irq-thread-priority 5=60", "kernel-lab: --irq-thread-priority: IRQ 5 has no handler in the lab's"
          + " kernels, so no thread (lines: 8 rtc, 14 ide0)"},
      {"compare --irq-thread-priority 8", "kernel-lab: --irq-thread-priority: '8' is not LINE=PRIO, e.g. 8=80 or"
          + " rtc=80"},
      {"compare --irq-thread-priority rtc=80,8=70", "kernel-lab: --irq-thread-priority: IRQ 8 is given twice"},
      {"compare --irq-thread-priority 8=high", "kernel-lab: --irq-thread-priority: '8=high': the priority is a"
          + " number, 1 to 99"},
    };
    for (String[] c : cases) {
      Outcome o = Outcome.run(c[0].split(" "));
      assertThat(o.code()).as(c[0]).isEqualTo(2);
      assertThat(o.err().lines()).as(c[0]).containsExactly(c[1]);
    }
  }

  @Test
  void aSettingNoConfigurationHasAThreadForIsRefusedBeforeAnyRun() {
    Outcome o = Outcome.run("compare", "--configs", "vanilla,preempt", "--duration", "10m", "--irq-thread-priority",
        "rtc=80");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err().lines()).containsExactly("kernel-lab: --irq-thread-priority: no configuration given (vanilla,"
        + " preempt) runs interrupts in threads, so there is no handler thread to set; a patch such as rt threads"
        + " them");
    assertThat(o.out()).isEmpty();
    Outcome e = Outcome.run("explain", "--config", "preempt+lowlat", "--irq-thread-priority", "8=80");
    assertThat(e.code()).isEqualTo(2);
    assertThat(e.err()).doesNotContain("Exception").startsWith("kernel-lab: --irq-thread-priority: no configuration");
  }

  @Test
  void aCompareOfVanillaAndRtRunsVanillaAsItIsAndRecordsTheSetting() throws Exception {
    String[] base = {"compare", "--workload", "latencytest", "--configs", "vanilla,rt", "--duration", "2s", "--quiet",
        "--json", "-"};
    Outcome plain = Outcome.run(base);
    String[] raised = java.util.Arrays.copyOf(base, base.length + 2);
    raised[base.length] = "--irq-thread-priority";
    raised[base.length + 1] = "rtc=80";
    Outcome o = Outcome.run(raised);
    assertThat(plain.code()).as(plain.err()).isZero();
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode before = JSON.readTree(plain.out());
    JsonNode after = JSON.readTree(o.out());
    assertThat(before.has("irq_thread_priority")).isFalse();
    assertThat(after.get("irq_thread_priority").get("8").asInt()).isEqualTo(80);
    assertThat(after.get("results").get(0).get("config").asText()).isEqualTo("vanilla");
    assertThat(after.get("results").get(0).get("latency")).isEqualTo(before.get("results").get(0).get("latency"));
  }

  @Test
  void theRtcThreadRaisedAboveTheDisksNoLongerWaitsForIt() {
    // rt's default latencytest minute: its worst sample has the RTC's thread behind the disk's,
    // both at the default 50, which runs its handler in stretches with interrupts off; each
    // stretch keeps the CPU by itself, so none is named a priority cause, but between them only
    // the equal priority keeps the RTC's thread out, which a raised priority changes
    Outcome before = Outcome.run("explain", "--config", "rt", "--workload", "latencytest", "--worst", "1", "--quiet");
    Outcome after = Outcome.run("explain", "--config", "rt", "--workload", "latencytest", "--worst", "1", "--quiet",
        "--irq-thread-priority", "8=80");
    assertThat(before.code()).as(before.err()).isZero();
    assertThat(after.code()).as(after.err()).isZero();
    assertThat(culprit(before)).contains("wait for the handler thread")
        .contains("ide0 interrupt (ide_dma_intr)").doesNotContain("not below");
    assertThat(before.out()).contains("task irq/14-ide0[4]");
    assertThat(culprit(after)).doesNotContain("ide0").doesNotContain("not below");
    assertThat(worstUs(after)).isLessThan(worstUs(before));
  }

  @Test
  void theValueChecksWhatNeedsNoKernelAndTheCommandLineTheLabsLines() {
    // a line without a handler is kept by the value (the builder refuses it where it composes)
    assertThat(new IrqThreadPriorities(new TreeMap<>(Map.of(5, 60))).toString()).isEqualTo("5=60");
    assertThatThrownBy(() -> new IrqThreadPriorities(new TreeMap<>(Map.of(0, 60))))
        .hasMessageContaining("IRQ 0 is the timer's");
    assertThatThrownBy(() -> new IrqThreadPriorities(new TreeMap<>(Map.of(8, 0))))
        .hasMessage("IRQ 8's thread: 0 is not a SCHED_FIFO priority (1 to 99)");
    assertThatThrownBy(() -> new IrqThreadPriorities(new TreeMap<>(Map.of(4096, 50))))
        .hasMessage("no IRQ line 4096 to give a thread priority");
    assertThatThrownBy(() -> IrqThreadPriorities.parse("5=60"))
        .hasMessageContaining("IRQ 5 has no handler");
  }

  @Test
  void aCellKeepsItsSettingThroughItsJson() {
    Experiment e = new Experiment("latencytest", "rt", "goodness", 1, 100, 1_000_000_000L, 3, false)
        .withIrqThreadPriorities(new IrqThreadPriorities(new TreeMap<>(Map.of(8, 80, 14, 40))));
    CellOutcome.Failed f = new CellOutcome.Failed(e, CellOutcome.Failure.LOST, "");
    assertThat(CellJson.outcome(CellJson.outcome(f))).isEqualTo(f);
  }

  private static String culprit(Outcome o) {
    return o.out().lines().filter(l -> l.strip().startsWith("culprit:")).findFirst().orElseThrow();
  }

  /** The worst sample's latency, from {@code #1 67.9us at ...}. */
  private static double worstUs(Outcome o) {
    String l = o.out().lines().filter(x -> x.startsWith("#1 ")).findFirst().orElseThrow();
    return Double.parseDouble(l.substring(3, l.indexOf("us")));
  }
}
