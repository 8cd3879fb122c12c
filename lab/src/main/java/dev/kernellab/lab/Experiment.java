package dev.kernellab.lab;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.Workloads;
import dev.kernellab.workloads.rtapp.RtAppWorkload;
import java.util.List;
import java.util.function.Supplier;

/**
 * One run of the lab: which workload on which machine under which kernel, for how long, from
 * which seed. Validated on construction by the rules of the modules that own them (the
 * registries, {@link KernelBuilder#configurationPatches}, {@link KernelBuilder#checkHz},
 * {@link MachineSpec#checkCpus}): a bad name or an impossible machine is one clear
 * {@link IllegalArgumentException} that names the command-line option, never a half-built
 * kernel.
 *
 * @param workload a {@link Workloads} name, or the path of an rt-app file ({@link RtAppWorkload#resolve})
 * @param config {@code vanilla} or patch names joined by {@code +} ({@code preempt+lowlat})
 * @param scheduler a scheduler name ({@code goodness}, {@code o1})
 * @param cpus CPUs of the machine
 * @param hz the timer frequency
 * @param durationNs simulated time
 * @param seed the run's seed
 * @param debugChecks whether kernel-core's debug checks (and the event ring) are on
 * @param ide the IDE disk's interface settings
 * @param firmware APM and SMI, off by default
 * @param irqThreadPriorities the priorities of device lines' handler threads, applied under a
 *     configuration whose patches thread interrupts and ignored under the others; none by default
 */
public record Experiment(
    String workload, String config, String scheduler, int cpus, int hz, long durationNs, long seed,
    boolean debugChecks, IdeSettings ide, Firmware firmware, IrqThreadPriorities irqThreadPriorities) {

  /** Validates every field against what exists. */
  public Experiment {
    // a built-in name, or an rt-app file read and checked now, so a bad file is refused before the run
    Workload w = option("--workload", () -> RtAppWorkload.resolve(workload));
    option("--scheduler", () -> SchedulerProvider.REGISTRY.get(scheduler));
    // Named by its value ("configuration 'x': ..."): the command that read it says which of
    // --config or --configs it was (CommonOptions.experiment), a results file does not.
    KernelBuilder.configurationPatches(config);
    option("--cpus", () -> MachineSpec.checkCpus(cpus));
    option("--workload", () -> {
      w.checkMachine(cpus);
      return w;
    });
    option("--hz", () -> KernelBuilder.checkHz(hz));
    if (durationNs <= 0) {
      throw new IllegalArgumentException("--duration must be positive");
    }
    java.util.Objects.requireNonNull(ide, "ide");
    java.util.Objects.requireNonNull(firmware, "firmware");
    java.util.Objects.requireNonNull(irqThreadPriorities, "irqThreadPriorities");
  }

  /** The 10-argument form: no handler thread's priority changed. */
  public Experiment(
      String workload, String config, String scheduler, int cpus, int hz, long durationNs, long seed,
      boolean debugChecks, IdeSettings ide, Firmware firmware) {
    this(workload, config, scheduler, cpus, hz, durationNs, seed, debugChecks, ide, firmware, IrqThreadPriorities.NONE);
  }

  /** The 8-argument form: the default machine's IDE settings. */
  public Experiment(
      String workload, String config, String scheduler, int cpus, int hz, long durationNs, long seed,
      boolean debugChecks) {
    this(workload, config, scheduler, cpus, hz, durationNs, seed, debugChecks, IdeSettings.DEFAULT, Firmware.NONE,
        IrqThreadPriorities.NONE);
  }

  /**
   * What {@code check} returns; its refusal, an {@link IllegalArgumentException} worded by the
   * module that owns the rule, prefixed with the command-line {@code option} it concerns.
   */
  static <T> T option(String option, Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }

  /**
   * The configurations of {@code option} ({@code --configs}), trimmed, each once: a
   * configuration given twice would run twice and print two identical rows.
   */
  static List<String> distinctConfigs(String option, List<String> configs) {
    List<String> out = new java.util.ArrayList<>();
    for (String c : configs) {
      String t = c.trim();
      if (out.contains(t)) {
        throw new IllegalArgumentException(option + ": configuration " + t + " is given twice");
      }
      out.add(t);
    }
    return out;
  }

  /** The same run under another configuration. */
  public Experiment withConfig(String c) {
    return new Experiment(workload, c, scheduler, cpus, hz, durationNs, seed, debugChecks, ide, firmware, irqThreadPriorities);
  }

  /** The same run for another simulated time. */
  public Experiment withDuration(long ns) {
    return new Experiment(workload, config, scheduler, cpus, hz, ns, seed, debugChecks, ide, firmware, irqThreadPriorities);
  }

  /** The same run with these handler threads' priorities. */
  public Experiment withIrqThreadPriorities(IrqThreadPriorities p) {
    return new Experiment(workload, config, scheduler, cpus, hz, durationNs, seed, debugChecks, ide, firmware, p);
  }

  /** The same run from another seed. */
  public Experiment withSeed(long s) {
    return new Experiment(workload, config, scheduler, cpus, hz, durationNs, s, debugChecks, ide, firmware, irqThreadPriorities);
  }
}
