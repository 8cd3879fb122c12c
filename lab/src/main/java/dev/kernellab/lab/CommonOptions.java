package dev.kernellab.lab;

import dev.kernellab.kernel.KernelBuilder;
import picocli.CommandLine.Option;

/** The options every run command takes. */
final class CommonOptions {

  @Option(names = "--workload", defaultValue = "stress", paramLabel = "NAME|FILE",
      description = "The workload (kernel-lab list workloads), or an rt-app workload file (docs/rt-app.md)."
          + " Default: ${DEFAULT-VALUE}.")
  String workload;

  @Option(names = "--scheduler", defaultValue = "goodness", paramLabel = "NAME",
      description = "The scheduler (kernel-lab list schedulers). Default: ${DEFAULT-VALUE}.")
  String scheduler;

  @Option(names = "--cpus", defaultValue = "1", paramLabel = "N",
      description = "CPUs of the simulated machine. Default: ${DEFAULT-VALUE}.")
  int cpus;

  @Option(names = "--hz", defaultValue = "100", paramLabel = "HZ",
      description = "The timer interrupt's frequency. Default: ${DEFAULT-VALUE} (i386 2.4).")
  int hz;

  @Option(names = "--duration", defaultValue = "60s", paramLabel = "TIME",
      description = "Simulated time per configuration: 500ms, 60s, 10m, 12h. Default: ${DEFAULT-VALUE}.")
  String duration;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
      description = "The seed: the same seed gives the same run. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--json", paramLabel = "FILE",
      description = "Also write the results as JSON to FILE ('-' for standard output).")
  String json;

  @Option(names = "--quiet", description = "No progress on standard error.")
  boolean quiet;

  @Option(names = "--ide-dma", defaultValue = "1", paramLabel = "0|1",
      description = "hdparm -d: the IDE disk does bus-master DMA (1) or PIO (0). Default: ${DEFAULT-VALUE}"
          + " (a Red Hat 7.2/7.3 install on a PIIX4 or VIA chipset).")
  int ideDma;

  @Option(names = "--ide-unmaskirq", defaultValue = "0", paramLabel = "0|1",
      description = "hdparm -u: the IDE handler turns interrupts on (1) or keeps them off (0)."
          + " Default: ${DEFAULT-VALUE} (the driver's default on a PIIX4).")
  int ideUnmaskIrq;

  @Option(names = "--ide-multcount", defaultValue = "0", paramLabel = "N",
      description = "hdparm -m: sectors per PIO interrupt, 0 (one) or 2, 4, 8, 16. Default: ${DEFAULT-VALUE}.")
  int ideMultcount;

  @Option(names = "--apm",
      description = "The machine has APM: kapmd asks the BIOS for events once a second, with interrupts off for the"
          + " BIOS's time (assumed 500 us). Off by default.")
  boolean apm;

  @Option(names = "--smi", defaultValue = "off", paramLabel = "PERIOD:LENGTH",
      description = "The firmware raises an SMI every PERIOD that keeps every CPU in System Management Mode for"
          + " LENGTH, e.g. 1s:200us (both assumptions of yours). Default: ${DEFAULT-VALUE}.")
  String smi;

  @Option(names = "--irq-thread-priority", defaultValue = "none", paramLabel = "LINE=PRIO[,LINE=PRIO...]",
      description = "chrt -f -p for a device line's handler thread where a patch threads interrupts (rt):"
          + " SCHED_FIFO PRIO (1-99) for irq/LINE-name, LINE a number or a handler's name (rtc, ide0), e.g."
          + " rtc=80. A configuration that threads none runs as it is. Default: ${DEFAULT-VALUE} (all at 50).")
  String irqThreadPriority;

  @Option(names = "--debug-checks",
      description = "Run with kernel-core's debug checks and event ring on; a kernel bug is printed"
          + " like an oops (exit status 3).")
  boolean debugChecks;

  /**
   * {@code --json}, checked now, before any run (null when not given); {@code -} is standard
   * output, where the command then prints nothing else.
   */
  OutputFile jsonFile() {
    return json == null ? null : OutputFile.of("--json", json, true);
  }

  /**
   * The command line that reproduces a run of these options: {@code ./kernel-lab COMMAND},
   * then {@code configOption} (e.g. {@code --configs vanilla,preempt}), then every option spelled
   * out so that a changed default cannot change the replay.
   */
  String replay(String command, String configOption) {
    return replay(command, configOption, seed, true);
  }

  /**
   * {@link #replay(String, String)} with {@code seed} for the options' own, and the handler
   * threads' priorities only if {@code threadPriorities} (a configuration that threads no
   * interrupt refuses them alone).
   */
  String replay(String command, String configOption, long seed, boolean threadPriorities) {
    return "./kernel-lab " + command + " --workload " + workload + " " + configOption + " --scheduler " + scheduler
        + " --cpus " + cpus + " --hz " + hz + " --duration " + duration + " --seed " + seed
        + " " + IdeSettings.fromFlags(ideDma, ideUnmaskIrq, ideMultcount).options()
        + Firmware.fromOptions(apm, smi).options()
        + (threadPriorities ? IrqThreadPriorities.parse(irqThreadPriority).options() : "")
        + (debugChecks ? " --debug-checks" : "");
  }

  /**
   * The experiment these options describe, under {@code config}, which the option
   * {@code configOption} ({@code --config} or {@code --configs}) gave.
   */
  Experiment experiment(String configOption, String config) {
    Experiment.option(configOption, () -> KernelBuilder.configurationPatches(config));
    IdeSettings ide = IdeSettings.fromFlags(ideDma, ideUnmaskIrq, ideMultcount);
    return new Experiment(workload, config, scheduler, cpus, hz, Durations.parseOption("--duration", duration), seed,
        debugChecks, ide, Firmware.fromOptions(apm, smi), IrqThreadPriorities.parse(irqThreadPriority));
  }

  /**
   * Refuses {@code --irq-thread-priority} when none of the configurations of {@code es}
   * threads interrupts: the setting would change nothing, which is a user's mistake. Whether a
   * configuration threads them is its patches' to say, when its kernel is composed
   * ({@link ExperimentRunner#threadsInterrupts}).
   */
  static void checkIrqThreadPriorities(java.util.List<Experiment> es) {
    java.util.List<String> seen = new java.util.ArrayList<>();
    for (Experiment e : es) {
      if (e.irqThreadPriorities().isEmpty()) {
        return;
      }
      if (!seen.contains(e.config())) {
        seen.add(e.config());
        if (ExperimentRunner.threadsInterrupts(e)) {
          return;
        }
      }
    }
    if (!seen.isEmpty()) {
      throw new IllegalArgumentException("--irq-thread-priority: no configuration given (" + String.join(", ", seen)
          + ") runs interrupts in threads, so there is no handler thread to set; a patch such as rt threads them");
    }
  }
}
