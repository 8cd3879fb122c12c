package dev.kernellab.lab;

import dev.kernellab.workloads.WorkloadResult;
import dev.kernellab.workloads.rtapp.RtAppLogFile;
import java.util.List;

/**
 * What one configuration's run produced: the workload's figures, the worst samples explained,
 * what the simulation cost, and, for an rt-app file, its threads' logs.
 *
 * @param experiment the run
 * @param result the workload's figures
 * @param worst the worst samples' breakdowns, worst first
 * @param simulatedNs simulated time reached (less than asked if the run was stopped)
 * @param events engine events fired
 * @param wallNs wall time taken
 * @param partial true if the run was stopped before its end
 * @param threadLogs the logs rt-app would have written, one a thread
 *     ({@link dev.kernellab.workloads.rtapp.RtAppWorkload#logFiles}); empty for a built-in
 *     workload, and for a result read back from a results file
 */
public record ConfigResult(
    Experiment experiment,
    WorkloadResult result,
    List<Breakdown> worst,
    long simulatedNs,
    long events,
    long wallNs,
    boolean partial,
    List<RtAppLogFile> threadLogs) {

  /** Copies the list. */
  public ConfigResult {
    threadLogs = List.copyOf(threadLogs);
  }

  /** A result without thread logs (a built-in workload's, or one read back). */
  public ConfigResult(Experiment experiment, WorkloadResult result, List<Breakdown> worst, long simulatedNs,
      long events, long wallNs, boolean partial) {
    this(experiment, result, worst, simulatedNs, events, wallNs, partial, List.of());
  }

  /** This result without its thread logs: for a caller that keeps many and writes none. */
  public ConfigResult withoutThreadLogs() {
    return threadLogs.isEmpty() ? this
        : new ConfigResult(experiment, result, worst, simulatedNs, events, wallNs, partial);
  }

  /** Simulated seconds per wall second. */
  public double realtimeFactor() {
    return wallNs <= 0 ? 0 : (double) simulatedNs / wallNs;
  }
}
