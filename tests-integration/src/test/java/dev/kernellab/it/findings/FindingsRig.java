package dev.kernellab.it.findings;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.ProbeResult;
import dev.kernellab.workloads.SampleListener;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.WorkloadResult;
import dev.kernellab.workloads.Workloads;
import java.util.List;

/**
 * Composes the kernel as {@code kernel-lab} does (the 2.4.17 catalog with its daemons, one
 * scheduler, a patch set, one workload), with the {@link WorstSampleOracle} listening, and runs
 * cells of the findings in parallel, each simulation on one thread.
 */
final class FindingsRig {

  private FindingsRig() {}

  /** One run: its coordinates and its command for {@code kernel-lab}. */
  record Cell(String workload, String scheduler, String config, long seed, long durationNs) {
    String replay() {
      return "./kernel-lab run --workload " + workload + " --scheduler " + scheduler + " --config " + config
          + " --seed " + seed + " --duration " + durationNs / 1_000_000_000L + "s";
    }
  }

  /** What a cell gave: the workload's figures and the oracle's worst sample. */
  record Outcome(Cell cell, WorkloadResult result, WorstSampleOracle.Culprit worst) {
    ProbeResult probe() {
      return result.probes().get(0);
    }

    long maxNs() {
      return probe().latency().maxNs();
    }

    @Override
    public String toString() {
      return cell.config() + " seed " + cell.seed() + ": max " + maxNs() / 1000 + " us, " + worst;
    }
  }

  static List<Outcome> runAll(List<Cell> cells) {
    return cells.parallelStream().map(FindingsRig::run).toList();
  }

  /** A started kernel and its workload. */
  record Composed(Kernel kernel, Workload.Run run) {}

  /**
   * The kernel of {@code kernel-lab}: the catalog with its daemons, {@code scheduler}, the
   * patches of {@code config} ({@code vanilla} or names joined by '+'), {@code workload} and
   * {@code tracer} and {@code listener} (either may be null), on {@code cpus} CPUs, built and
   * started.
   */
  static Composed compose(String workload, String scheduler, String config, int cpus, long seed, Tracer tracer,
      SampleListener listener) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), seed)
        .scheduler(SchedulerProvider.create(scheduler));
    paths.install(b);
    paths.installDaemons(b);
    if (!config.equals("vanilla")) {
      for (String patch : config.split("\\+", -1)) {
        b.patch(patch);
      }
    }
    Workload.Run run = Workloads.create(workload).install(paths, b);
    if (tracer != null) {
      b.tracer(tracer);
    }
    if (listener != null) {
      run.listen(listener);
    }
    Kernel k = b.build();
    run.start(k);
    return new Composed(k, run);
  }

  static Outcome run(Cell c) {
    WorstSampleOracle oracle = new WorstSampleOracle(1);
    Composed x = compose(c.workload(), c.scheduler(), c.config(), 1, c.seed(), oracle, oracle);
    x.kernel().run(c.durationNs());
    return new Outcome(c, x.run().result(x.kernel()), oracle.worst());
  }
}
