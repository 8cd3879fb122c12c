package dev.kernellab.lab;

import dev.kernellab.workloads.WorkloadResult;
import java.util.List;

/**
 * What one configuration's run produced: the workload's figures, the worst samples explained,
 * and what the simulation cost.
 *
 * @param experiment the run
 * @param result the workload's figures
 * @param worst the worst samples' breakdowns, worst first
 * @param simulatedNs simulated time reached (less than asked if the run was stopped)
 * @param events engine events fired
 * @param wallNs wall time taken
 * @param partial true if the run was stopped before its end
 */
public record ConfigResult(
    Experiment experiment,
    WorkloadResult result,
    List<Breakdown> worst,
    long simulatedNs,
    long events,
    long wallNs,
    boolean partial) {

  /** Simulated seconds per wall second. */
  public double realtimeFactor() {
    return wallNs <= 0 ? 0 : (double) simulatedNs / wallNs;
  }
}
