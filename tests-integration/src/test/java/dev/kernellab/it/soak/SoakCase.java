package dev.kernellab.it.soak;

import java.util.Locale;

/**
 * One run of the soak: its full coordinates, enough to replay it alone.
 *
 * @param scheduler {@code o1} or {@code goodness}
 * @param patchSet the kernel configuration
 * @param cpus CPUs of the simulated machine
 * @param seed the run's seed
 * @param workload a {@link SoakWorkload} name
 * @param simulatedNs how long the run lasts, simulated ns
 */
public record SoakCase(
    String scheduler, PatchSet patchSet, int cpus, long seed, String workload, long simulatedNs) {

  /** {@code scheduler/patchset/cpus/seed/workload}: what {@code -Dsoak.only} matches. */
  public String id() {
    return scheduler + "/" + patchSet.label() + "/" + cpus + "/" + seed + "/" + workload;
  }

  /** The one command that replays this run alone, with the same simulated length. */
  public String replayCommand() {
    long s = simulatedNs / 1_000_000_000L;
    return "./mvnw -B -q -Psoak -pl tests-integration -am verify -Dsoak.only=" + id()
        + " -Dsoak.seconds=" + Math.max(1, s);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%-8s %-14s %dcpu seed=%-3d %s %ds",
        scheduler, patchSet.label(), cpus, seed, workload, simulatedNs / 1_000_000_000L);
  }
}
