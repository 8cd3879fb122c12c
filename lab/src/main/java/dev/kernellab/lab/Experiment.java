package dev.kernellab.lab;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelPatchProvider;
import dev.kernellab.kernel.SchedulerProvider;
import dev.kernellab.workloads.Workloads;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of the lab: which workload on which machine under which kernel, for how long, from
 * which seed. Validated on construction: a bad name or an impossible machine is one clear
 * {@link IllegalArgumentException}, never a half-built kernel.
 *
 * @param workload a {@link Workloads} name
 * @param config {@code vanilla} or patch names joined by {@code +} ({@code preempt+lowlat})
 * @param scheduler a scheduler name ({@code goodness}, {@code o1})
 * @param cpus CPUs of the machine
 * @param hz the timer frequency
 * @param durationNs simulated time
 * @param seed the run's seed
 * @param debugChecks whether kernel-core's debug checks (and the event ring) are on
 */
public record Experiment(
    String workload, String config, String scheduler, int cpus, int hz, long durationNs, long seed,
    boolean debugChecks) {

  /** Validates every field against what exists. */
  public Experiment {
    if (!Workloads.names().contains(workload)) {
      throw new IllegalArgumentException(
          "unknown workload '" + workload + "' (one of " + String.join(", ", Workloads.names()) + ")");
    }
    if (SchedulerProvider.all().stream().noneMatch(p -> p.name().equals(scheduler))) {
      List<String> names = new ArrayList<>();
      SchedulerProvider.all().forEach(p -> names.add(p.name()));
      throw new IllegalArgumentException(
          "unknown scheduler '" + scheduler + "' (one of " + String.join(", ", names) + ")");
    }
    patches(config);
    if (cpus < 1 || cpus > MachineSpec.MAX_CPUS) {
      throw new IllegalArgumentException("--cpus must be 1.." + MachineSpec.MAX_CPUS + ", got " + cpus);
    }
    if (hz < 19 || hz > 10_000) {
      throw new IllegalArgumentException("--hz must be 19..10000 (the PIT divisor is 16 bits), got " + hz);
    }
    if (durationNs <= 0) {
      throw new IllegalArgumentException("--duration must be positive");
    }
  }

  /** The patches of {@code config} in order; {@code vanilla} is none. */
  public static List<String> patches(String config) {
    if (config == null || config.isBlank()) {
      throw new IllegalArgumentException("empty kernel configuration (use vanilla or patch+patch)");
    }
    if (config.equals("vanilla")) {
      return List.of();
    }
    List<String> known = new ArrayList<>();
    KernelPatchProvider.all().forEach(p -> known.add(p.name()));
    List<String> out = new ArrayList<>();
    for (String name : config.split("\\+", -1)) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown patch '" + name + "' in configuration '" + config
            + "' (patches: " + String.join(", ", known) + "; or vanilla)");
      }
      if (out.contains(name)) {
        throw new IllegalArgumentException("patch '" + name + "' twice in '" + config + "'");
      }
      out.add(name);
    }
    return out;
  }

  /** The same run under another configuration. */
  public Experiment withConfig(String c) {
    return new Experiment(workload, c, scheduler, cpus, hz, durationNs, seed, debugChecks);
  }

  /** The same run for another simulated time. */
  public Experiment withDuration(long ns) {
    return new Experiment(workload, config, scheduler, cpus, hz, ns, seed, debugChecks);
  }

  /** The same run from another seed. */
  public Experiment withSeed(long s) {
    return new Experiment(workload, config, scheduler, cpus, hz, durationNs, s, debugChecks);
  }
}
