package dev.kernellab.workloads;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.paths.Kernel24Paths;
import java.util.List;

/**
 * What runs on the simulated machine: a named composition of probes (which produce latency
 * samples) and loads (which make the kernel run its long paths), with defaults, each knob with
 * its source. Found by name in {@link Workloads}.
 *
 * <pre>{@code
 * Kernel24Paths paths = Kernel24Paths.withDefaults();
 * KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler("goodness");
 * paths.install(b);
 * paths.installDaemons(b);
 * Workload.Run run = Workloads.create("stress").install(paths, b);
 * Kernel k = b.build();
 * run.start(k);
 * k.run(60_000_000_000L);
 * WorkloadResult r = run.result(k);
 * }</pre>
 */
public interface Workload {

  /** The name the command line uses ({@code stress}, {@code dbench}...). */
  String name();

  /** One line: what runs. */
  String description();

  /**
   * Adds the workload's tasks to {@code b}, whose kernel uses the catalog {@code paths}
   * (already installed on {@code b}); returns the run's handle. One call per kernel.
   */
  Run install(Kernel24Paths paths, KernelBuilder b);

  /**
   * Refuses a machine of {@code cpus} CPUs the workload cannot run on (a task pinned to a CPU
   * that does not exist), with one line, before anything is built. Any machine by default.
   *
   * @throws IllegalArgumentException if the workload cannot run there
   */
  default void checkMachine(int cpus) {}

  /** A workload installed in one kernel. */
  interface Run {

    /** After boot: program the devices (the RTC's rate), create the files. */
    void start(Kernel k);

    /** The figures so far. */
    WorkloadResult result(Kernel k);

    /**
     * A count that grows while the kernel is healthy (probe samples, operations done): a soak
     * calls the run stuck when it stops.
     */
    long progress();

    /** Names of the tasks that must keep getting CPU time. */
    List<String> mustRun();

    /** Tells {@code l} of every sample the workload's probe takes (one listener). */
    void listen(SampleListener l);

    /** The probe whose samples {@link #listen} reports: its tasks, its IRQ line, its start. */
    ProbeSpec probe();
  }
}
