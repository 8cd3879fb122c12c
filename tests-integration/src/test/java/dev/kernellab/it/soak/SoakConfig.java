package dev.kernellab.it.soak;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The soak's knobs, read from system properties (the {@code -Psoak} profile passes them through
 * from the Maven command line):
 *
 * <pre>
 * soak.seconds     simulated seconds per run                       (long soak: 300)
 * soak.seeds       seeds per composition, 1..N                     (long soak: 5)
 * soak.firstSeed   first seed                                      (1)
 * soak.schedulers  comma list                                      (o1,goodness)
 * soak.patches     comma list of patch sets                        (vanilla,preempt,lowlat,preempt+lowlat,preempt+lockbreak,voluntary,voluntary+lowlat,preempt+rt)
 * soak.cpus        comma list                                      (1,2,4)
 * soak.workloads   comma list                                      (every soak workload)
 * soak.only        comma list of case ids sched/patches/cpus/seed/workload; overrides the axes
 * soak.workers     parallel simulations                            (available processors)
 * soak.timeout     wall seconds before a run counts as hung         (3600)
 * </pre>
 */
record SoakConfig(List<SoakCase> cases, int workers, long timeoutS) {

  static SoakConfig fromProperties(long defaultSeconds, int defaultSeeds) {
    long simNs = Long.getLong("soak.seconds", defaultSeconds) * 1_000_000_000L;
    if (simNs <= 0) {
      throw new IllegalArgumentException("soak.seconds must be positive");
    }
    int workers = Integer.getInteger("soak.workers", Runtime.getRuntime().availableProcessors());
    long timeoutS = Long.getLong("soak.timeout", 3600);
    String only = System.getProperty("soak.only", "").trim();
    if (!only.isEmpty()) {
      List<SoakCase> cases = new ArrayList<>();
      for (String id : only.split(",", -1)) {
        cases.add(parseId(id.trim(), simNs));
      }
      return new SoakConfig(cases, workers, timeoutS);
    }
    int seeds = Integer.getInteger("soak.seeds", defaultSeeds);
    long first = Long.getLong("soak.firstSeed", 1);
    List<Long> seedList = new ArrayList<>();
    for (long s = first; s < first + seeds; s++) {
      seedList.add(s);
    }
    List<String> workloads = new ArrayList<>();
    SoakWorkload.all().forEach(w -> workloads.add(w.name()));
    List<SoakCase> cases =
        Soak.matrix(
            list("soak.schedulers", "o1,goodness"),
            list("soak.patches", "vanilla,preempt,lowlat,preempt+lowlat,preempt+lockbreak,voluntary,voluntary+lowlat,preempt+rt").stream()
                .map(PatchSet::byLabel).toList(),
            list("soak.cpus", "1,2,4").stream().map(Integer::valueOf).toList(),
            seedList,
            System.getProperty("soak.workloads") == null ? workloads : list("soak.workloads", ""),
            simNs);
    return new SoakConfig(cases, workers, timeoutS);
  }

  /** Parses {@code sched/patches/cpus/seed/workload}, as {@link SoakCase#id()} writes it. */
  static SoakCase parseId(String id, long simNs) {
    String[] f = id.split("/", -1);
    if (f.length != 5) {
      throw new IllegalArgumentException(
          "soak.only: '" + id + "' is not scheduler/patches/cpus/seed/workload, e.g. o1/vanilla/2/1/mixed");
    }
    SoakWorkload.byName(f[4]);
    return new SoakCase(f[0], PatchSet.byLabel(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]), f[4], simNs);
  }

  private static List<String> list(String property, String dflt) {
    return Arrays.stream(System.getProperty(property, dflt).split(",", -1))
        .map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}
