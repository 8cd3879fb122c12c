package dev.kernellab.lab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kernellab.kernel.KernelBug;
import dev.kernellab.workloads.LatencyRecorder;
import dev.kernellab.workloads.LatencySummary;
import dev.kernellab.workloads.ProbeResult;
import dev.kernellab.workloads.WorkloadResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A sweep cell and its outcome as one line of JSON: the line a {@code --results} file holds,
 * and what a distributed engine ships between its driver and its workers, so that a resumed
 * sweep and a Spark sweep read back exactly what a local one computed.
 *
 * <pre>
 * String line = CellJson.run(CellJson.cell(experiment));   // on a worker: one simulation
 * CellOutcome o = CellJson.outcome(line);                   // on the driver
 * </pre>
 *
 * <p>Implementation overview. A line is {@code {"cell": {...}, "outcome": "done" | "kernel_bug",
 * "result" | "message": ...}}. Every figure is kept exactly: times as integer nanoseconds,
 * percentages as the shortest decimal that reads back as the same {@code double}, the load's
 * counters in their order. What a sweep never reports is left out, and reads back as null: each
 * probe's whole distribution (histogram and timeline) and realfeel's 0.1 ms bins, which are
 * hundreds of kilobytes a cell; replay a cell with {@code compare} or {@code explain} for those.
 */
public final class CellJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CellJson() {}

  /** The cell's coordinates as one line. */
  public static String cell(Experiment e) {
    return write(cellNode(e));
  }

  /**
   * Runs the cell of {@code cellLine} on the calling thread, one single-threaded simulation, and
   * returns its outcome line: what an engine's worker does. A kernel bug is the outcome; any
   * other throwable is the worker's and propagates, for the engine to retry.
   */
  public static String run(String cellLine) {
    Experiment e = experiment(read(cellLine));
    try {
      return outcome(new CellOutcome.Done(ExperimentRunner.run(e, null, () -> false, t -> { })));
    } catch (KernelBug bug) {
      return outcome(new CellOutcome.Failed(e, CellOutcome.Failure.KERNEL_BUG, bug.getMessage()));
    }
  }

  /** The outcome as one line. */
  public static String outcome(CellOutcome o) {
    ObjectNode n = JSON.createObjectNode();
    n.set("cell", cellNode(o.cell()));
    if (o instanceof CellOutcome.Done d) {
      n.put("outcome", "done");
      n.set("result", result(d.result()));
    } else if (o instanceof CellOutcome.Failed f) {
      n.put("outcome", f.failure().name().toLowerCase(Locale.ROOT));
      n.put("message", f.message());
    }
    return write(n);
  }

  /**
   * The outcome of one line written by {@link #outcome(CellOutcome)}.
   *
   * @throws IllegalArgumentException if the line is not one
   */
  public static CellOutcome outcome(String line) {
    JsonNode n = read(line);
    Experiment e = experiment(n.path("cell"));
    String kind = n.path("outcome").asText();
    if (kind.equals("done")) {
      return new CellOutcome.Done(result(e, n.path("result")));
    }
    for (CellOutcome.Failure f : CellOutcome.Failure.values()) {
      if (f.name().toLowerCase(Locale.ROOT).equals(kind)) {
        return new CellOutcome.Failed(e, f, n.path("message").asText());
      }
    }
    throw new IllegalArgumentException("not a cell outcome: outcome '" + kind + "'");
  }

  private static ObjectNode cellNode(Experiment e) {
    ObjectNode n = JSON.createObjectNode();
    n.put("workload", e.workload());
    n.put("config", e.config());
    n.put("scheduler", e.scheduler());
    n.put("cpus", e.cpus());
    n.put("hz", e.hz());
    n.put("duration_ns", e.durationNs());
    n.put("seed", e.seed());
    n.put("debug_checks", e.debugChecks());
    n.put("ide_dma", e.ide().dma());
    n.put("ide_unmaskirq", e.ide().unmaskIrq());
    n.put("ide_multcount", e.ide().multcount());
    n.put("apm", e.firmware().apm());
    e.firmware().smi().ifPresent(s -> {
      n.put("smi_period_ns", s.periodNs());
      n.put("smi_length_ns", s.lengthNs());
    });
    if (!e.irqThreadPriorities().isEmpty()) {
      ObjectNode p = n.putObject("irq_thread_priority");
      e.irqThreadPriorities().byLine().forEach((irq, prio) -> p.put(String.valueOf(irq), prio));
    }
    return n;
  }

  private static Experiment experiment(JsonNode n) {
    return new Experiment(text(n, "workload"), text(n, "config"), text(n, "scheduler"), number(n, "cpus").intValue(),
        number(n, "hz").intValue(), number(n, "duration_ns").longValue(), number(n, "seed").longValue(),
        n.path("debug_checks").asBoolean(),
        // a results file of an earlier version has no IDE settings: the default machine's
        new IdeSettings(n.path("ide_dma").asBoolean(IdeSettings.DEFAULT.dma()),
            n.path("ide_unmaskirq").asBoolean(IdeSettings.DEFAULT.unmaskIrq()),
            n.path("ide_multcount").asInt(IdeSettings.DEFAULT.multcount())),
        new Firmware(n.path("apm").asBoolean(false), n.has("smi_period_ns")
            ? java.util.Optional.of(new dev.kernellab.hw.Smi(n.path("smi_period_ns").asLong(), n.path("smi_length_ns").asLong()))
            : java.util.Optional.empty()),
        irqThreadPriorities(n.path("irq_thread_priority")));
  }

  /**
   * A cell's {@code irq_thread_priority}, by line; none where a results file has none. Each key
   * is a line number and each value an integer, checked as the other fields are, so a damaged
   * line is "not a cell" too.
   */
  private static IrqThreadPriorities irqThreadPriorities(JsonNode n) {
    if (n.isMissingNode()) {
      return IrqThreadPriorities.NONE;
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException("not a cell: no object field 'irq_thread_priority'");
    }
    SortedMap<Integer, Integer> m = new TreeMap<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String line = it.next();
      boolean digits = line.chars().allMatch(c -> c >= '0' && c <= '9');
      if (line.isEmpty() || line.length() > 3 || !digits) {
        throw new IllegalArgumentException("not a cell: irq_thread_priority has a key '" + line
            + "' that is no IRQ line number");
      }
      m.put(Integer.parseInt(line), number(n, line).intValue());
    }
    try {
      return m.isEmpty() ? IrqThreadPriorities.NONE : new IrqThreadPriorities(m);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a cell: irq_thread_priority: " + e.getMessage(), e);
    }
  }

  private static ObjectNode result(ConfigResult r) {
    ObjectNode n = JSON.createObjectNode();
    WorkloadResult w = r.result();
    n.put("workload", w.workload());
    ArrayNode probes = n.putArray("probes");
    for (ProbeResult p : w.probes()) {
      ObjectNode pn = probes.addObject();
      pn.put("name", p.name());
      pn.set("latency", summary(p.latency()));
      ArrayNode worst = pn.putArray("worst");
      for (LatencyRecorder.Sample s : p.worst()) {
        worst.addObject().put("latency_ns", s.latencyNs()).put("at_ns", s.atNs()).put("cpu", s.cpu())
            .put("cycle", s.cycle());
      }
      pn.set("period_error", p.periodError() == null ? null : summary(p.periodError()));
      ArrayNode phases = pn.putArray("phases");
      for (ProbeResult.PhaseResult ph : p.phases()) {
        phases.addObject().put("phase", ph.phase()).put("overruns", ph.overruns()).set("latency", summary(ph.latency()));
      }
    }
    n.put("throughput_mb_s", w.throughputMbPerS());
    n.put("throughput_definition", w.throughputDefinition());
    ObjectNode counters = n.putObject("counters");
    w.counters().forEach(counters::put);
    ArrayNode worst = n.putArray("worst");
    for (Breakdown b : r.worst()) {
      ObjectNode bn = worst.addObject();
      bn.put("latency_ns", b.latencyNs()).put("at_ns", b.atNs()).put("cpu", b.cpu());
      ArrayNode parts = bn.putArray("parts");
      for (Breakdown.Part p : b.parts()) {
        ObjectNode pn = parts.addObject().put("part", p.part()).put("ns", p.ns()).put("cause", p.cause());
        ArrayNode holders = pn.putArray("holders");
        for (Breakdown.Share h : p.shares()) {
          holders.addObject().put("ns", h.ns()).put("cause", h.cause());
        }
      }
      bn.put("dominant", b.dominantPart());
      bn.put("culprit_path", b.culpritPath()).put("culprit_site", b.culpritSite()).put("culprit_lock", b.culpritLock())
          .put("culprit_task", b.culpritTask()).put("culprit_reason", b.culpritReason());
    }
    n.put("simulated_ns", r.simulatedNs());
    n.put("events", r.events());
    n.put("wall_ns", r.wallNs());
    n.put("partial", r.partial());
    return n;
  }

  private static ConfigResult result(Experiment e, JsonNode n) {
    List<ProbeResult> probes = new ArrayList<>();
    for (JsonNode pn : n.path("probes")) {
      List<LatencyRecorder.Sample> worst = new ArrayList<>();
      for (JsonNode s : pn.path("worst")) {
        worst.add(new LatencyRecorder.Sample(s.path("latency_ns").asLong(), s.path("at_ns").asLong(),
            s.path("cpu").asInt(), s.path("cycle").asLong()));
      }
      List<ProbeResult.PhaseResult> phases = new ArrayList<>();
      for (JsonNode ph : pn.path("phases")) {
        phases.add(new ProbeResult.PhaseResult(ph.path("phase").asText(), summary(ph.path("latency")),
            ph.path("overruns").asLong()));
      }
      JsonNode pe = pn.path("period_error");
      probes.add(new ProbeResult(pn.path("name").asText(), summary(pn.path("latency")), List.copyOf(worst),
          pe.isObject() ? summary(pe) : null, null, List.copyOf(phases), null));
    }
    Map<String, Long> counters = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> c : n.path("counters").properties()) {
      counters.put(c.getKey(), c.getValue().asLong());
    }
    JsonNode tp = n.path("throughput_mb_s");
    WorkloadResult w = new WorkloadResult(n.path("workload").asText(), List.copyOf(probes),
        tp.isNumber() ? tp.asDouble() : null, textOrNull(n.path("throughput_definition")), counters);
    List<Breakdown> worst = new ArrayList<>();
    for (JsonNode bn : n.path("worst")) {
      List<Breakdown.Part> parts = new ArrayList<>();
      for (JsonNode p : bn.path("parts")) {
        List<Breakdown.Share> shares = new ArrayList<>();
        for (JsonNode h : p.path("holders")) {
          shares.add(new Breakdown.Share(h.path("ns").asLong(), textOrNull(h.path("cause"))));
        }
        parts.add(new Breakdown.Part(p.path("part").asText(), p.path("ns").asLong(), textOrNull(p.path("cause")),
            List.copyOf(shares)));
      }
      worst.add(new Breakdown(bn.path("latency_ns").asLong(), bn.path("at_ns").asLong(), bn.path("cpu").asInt(),
          List.copyOf(parts), dominant(bn.path("dominant"), parts), textOrNull(bn.path("culprit_path")), textOrNull(bn.path("culprit_site")),
          textOrNull(bn.path("culprit_lock")), textOrNull(bn.path("culprit_task")),
          textOrNull(bn.path("culprit_reason"))));
    }
    return new ConfigResult(e, w, List.copyOf(worst), n.path("simulated_ns").asLong(), n.path("events").asLong(),
        n.path("wall_ns").asLong(), n.path("partial").asBoolean());
  }

  /**
   * The dominant part of a breakdown read back: as written, or, in a line written before
   * kernel-lab wrote it, the longest part, as kernel-lab then chose it.
   */
  private static int dominant(JsonNode n, List<Breakdown.Part> parts) {
    if (n.isInt()) {
      return n.asInt();
    }
    int best = 0;
    for (int i = 1; i < parts.size(); i++) {
      if (parts.get(i).ns() > parts.get(best).ns()) {
        best = i;
      }
    }
    return best;
  }

  private static ObjectNode summary(LatencySummary s) {
    return JSON.createObjectNode().put("samples", s.samples()).put("min_ns", s.minNs()).put("avg_ns", s.avgNs())
        .put("p50_ns", s.p50Ns()).put("p99_ns", s.p99Ns()).put("p999_ns", s.p999Ns()).put("max_ns", s.maxNs())
        .put("on_time_pct", s.onTimePct()).put("deadline_ns", s.deadlineNs());
  }

  private static LatencySummary summary(JsonNode n) {
    return new LatencySummary(n.path("samples").asLong(), n.path("min_ns").asLong(), n.path("avg_ns").asLong(),
        n.path("p50_ns").asLong(), n.path("p99_ns").asLong(), n.path("p999_ns").asLong(), n.path("max_ns").asLong(),
        n.path("on_time_pct").asDouble(), n.path("deadline_ns").asLong());
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (!v.isTextual()) {
      throw new IllegalArgumentException("not a cell: no text field '" + field + "'");
    }
    return v.asText();
  }

  private static Number number(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (!v.isIntegralNumber()) {
      throw new IllegalArgumentException("not a cell: no integer field '" + field + "'");
    }
    return v.numberValue();
  }

  private static String textOrNull(JsonNode n) {
    return n.isTextual() ? n.asText() : null;
  }

  private static JsonNode read(String line) {
    try {
      return JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a JSON line: " + e.getOriginalMessage(), e);
    }
  }

  private static String write(JsonNode n) {
    try {
      return JSON.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }
}
