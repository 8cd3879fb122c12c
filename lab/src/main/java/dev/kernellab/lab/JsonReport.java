package dev.kernellab.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.kernellab.workloads.LatencySummary;
import dev.kernellab.workloads.ProbeResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --json} object of {@code compare} and {@code run}, documented in docs/commands.md; its
 * fields are kept stable: fields are added, never renamed.
 */
final class JsonReport {

  private JsonReport() {}

  static String write(Object tree) {
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }

  /** The fields every report opens with: the workload, its length and the machine. */
  static Map<String, Object> machine(Experiment base) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", base.workload());
    m.put("duration_s", base.durationNs() / 1e9);
    m.put("scheduler", base.scheduler());
    m.put("cpus", base.cpus());
    m.put("hz", base.hz());
    m.put("ide_dma", base.ide().dma());
    m.put("ide_unmaskirq", base.ide().unmaskIrq());
    m.put("ide_multcount", base.ide().multcount());
    m.put("apm", base.firmware().apm());
    base.firmware().smi().ifPresent(s -> m.put("smi", s.periodNs() + "ns:" + s.lengthNs() + "ns"));
    if (!base.irqThreadPriorities().isEmpty()) {
      // by line, as the option gave it; applied only where a configuration threads interrupts
      Map<String, Object> p = new LinkedHashMap<>();
      base.irqThreadPriorities().byLine().forEach((irq, prio) -> p.put(String.valueOf(irq), prio));
      m.put("irq_thread_priority", p);
    }
    return m;
  }

  /** The whole object for runs of one workload and machine under several configurations. */
  static Map<String, Object> of(Experiment base, List<ConfigResult> results) {
    Map<String, Object> m = machine(base);
    m.put("seed", base.seed());
    List<Object> rs = new ArrayList<>();
    for (ConfigResult r : results) {
      rs.add(result(r));
    }
    m.put("results", rs);
    return m;
  }

  /** One configuration's entry of {@code results}. */
  static Map<String, Object> result(ConfigResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    ProbeResult probe = r.result().probes().get(0);
    m.put("config", r.experiment().config());
    m.put("probe", probe.name());
    m.put("latency", latency(probe.latency()));
    m.put("realfeel", probe.periodError() == null ? null : latency(probe.periodError()));
    m.put("throughput_mb_s", r.result().throughputMbPerS());
    if (probe.phases().isEmpty()) {
      m.put("phases", null);
    } else {
      List<Object> phases = new ArrayList<>();
      for (ProbeResult.PhaseResult p : probe.phases()) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("phase", p.phase());
        pm.put("latency", latency(p.latency()));
        pm.put("overruns", p.overruns());
        phases.add(pm);
      }
      m.put("phases", phases);
    }
    m.put("worst", r.worst().isEmpty() ? null : worst(r.worst().get(0)));
    m.put("counters", r.result().counters());
    Map<String, Object> sim = new LinkedHashMap<>();
    sim.put("events", r.events());
    sim.put("wall_s", r.wallNs() / 1e9);
    sim.put("realtime_factor", r.realtimeFactor());
    sim.put("simulated_s", r.simulatedNs() / 1e9);
    sim.put("partial", r.partial());
    m.put("sim", sim);
    return m;
  }

  static Map<String, Object> latency(LatencySummary s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("samples", s.samples());
    m.put("min_us", s.minNs() / 1e3);
    m.put("avg_us", s.avgNs() / 1e3);
    m.put("p50_us", s.p50Ns() / 1e3);
    m.put("p99_us", s.p99Ns() / 1e3);
    m.put("p999_us", s.p999Ns() / 1e3);
    m.put("max_us", s.maxNs() / 1e3);
    m.put("on_time_pct", s.onTimePct());
    return m;
  }

  static Map<String, Object> worst(Breakdown b) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("latency_us", b.latencyNs() / 1e3);
    m.put("at_s", b.atNs() / 1e9);
    m.put("cpu", b.cpu());
    m.put("dominant_part", b.dominant().part());
    m.put("culprit_path", b.culpritPath());
    m.put("culprit_site", b.culpritSite());
    m.put("culprit_lock", b.culpritLock());
    m.put("culprit_task", b.culpritTask());
    m.put("culprit_reason", b.culpritReason());
    List<Object> parts = new ArrayList<>();
    for (Breakdown.Part p : b.parts()) {
      Map<String, Object> pm = new LinkedHashMap<>();
      pm.put("part", p.part());
      pm.put("us", p.ns() / 1e3);
      pm.put("cause", p.cause());
      List<Object> holders = new ArrayList<>();
      for (Breakdown.Share h : p.shares()) {
        Map<String, Object> hm = new LinkedHashMap<>();
        hm.put("us", h.ns() / 1e3);
        hm.put("cause", h.cause());
        holders.add(hm);
      }
      pm.put("holders", holders);
      parts.add(pm);
    }
    m.put("breakdown", parts);
    return m;
  }
}
