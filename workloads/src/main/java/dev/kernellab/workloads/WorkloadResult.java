package dev.kernellab.workloads;

import java.util.List;
import java.util.Map;

/**
 * What a workload run produced.
 *
 * @param workload the workload's name
 * @param probes each probe's figures
 * @param throughputMbPerS the load's throughput where it defines one (dbench), else null
 * @param throughputDefinition how the throughput is computed, or null
 * @param counters the load's own counts, in a fixed order (operations done, bytes moved...)
 */
public record WorkloadResult(
    String workload,
    List<ProbeResult> probes,
    Double throughputMbPerS,
    String throughputDefinition,
    Map<String, Long> counters) {}
