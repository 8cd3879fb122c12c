package dev.kernellab.lab;

import dev.kernellab.anatomy.LatencyAnatomy;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.rtapp.RtAppWorkload;
import java.util.function.LongConsumer;

/**
 * Composes and runs one {@link Experiment}: the 2.4.17 catalog with its daemons, the
 * scheduler, the patches, the workload, the latency anatomy of its probe; then runs it in
 * one-second slices so that a caller can show progress and stop it.
 */
final class ExperimentRunner {

  static final long SLICE_NS = 1_000_000_000L;

  private ExperimentRunner() {}

  /** A kernel composed for {@code e}, ready to run, with its workload and the anatomy of its probe. */
  record Composed(Kernel kernel, Workload.Run run, LatencyAnatomy anatomy) {}

  static Composed compose(Experiment e, Tracer extra) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b =
        new KernelBuilder(machine(e), e.seed())
            .scheduler(SchedulerProvider.create(e.scheduler()))
            .hz(e.hz())
            .debugChecks(e.debugChecks() ? DebugChecks.all() : DebugChecks.none());
    paths.install(b);
    paths.installDaemons(b);
    if (e.firmware().apm()) {
      b.task(paths.apm().kapmd());
    }
    b.configuration(e.config());
    e.irqThreadPriorities().byLine().forEach(b::irqThreadPriorityWhereThreaded);
    Workload.Run run = RtAppWorkload.resolve(e.workload()).install(paths, b);
    LatencyAnatomy anatomy = LatencyAnatomy.attach(b, run);
    if (extra != null) {
      b.tracer(extra);
    }
    Kernel k = b.build();
    run.start(k);
    return new Composed(k, run, anatomy);
  }

  /**
   * Whether {@code e}'s configuration runs device interrupts in threads: its kernel is composed
   * (a few milliseconds, no simulated time) and asked for the threads of the lines
   * {@code e} sets, or of any line.
   */
  static boolean threadsInterrupts(Experiment e) {
    Kernel k = compose(e, null).kernel();
    java.util.Set<Integer> lines = e.irqThreadPriorities().isEmpty()
        ? IrqThreadPriorities.labLines().keySet() : e.irqThreadPriorities().byLine().keySet();
    return lines.stream().anyMatch(irq -> k.irqThread(irq).isPresent());
  }

  /** The machine of {@code e}: the default 2002 desktop with its CPUs and IDE settings. */
  static MachineSpec machine(Experiment e) {
    MachineSpec m = MachineSpec.uniprocessor().withCpus(e.cpus());
    return m.withDisk(e.ide().apply(m.disk())).withSmi(e.firmware().smi());
  }

  /**
   * Runs {@code e} to its end, or until {@code stop} says so between slices; tells
   * {@code progress} the simulated time after each slice.
   */
  static ConfigResult run(Experiment e, Tracer extra, java.util.function.BooleanSupplier stop, LongConsumer progress) {
    long wall0 = System.nanoTime();
    Composed c = compose(e, extra);
    Kernel k = c.kernel();
    boolean partial = false;
    for (long t = Math.min(SLICE_NS, e.durationNs()); ; t = Math.min(t + SLICE_NS, e.durationNs())) {
      k.run(t);
      progress.accept(t);
      if (t >= e.durationNs()) {
        break;
      }
      if (stop.getAsBoolean()) {
        partial = true;
        break;
      }
    }
    return new ConfigResult(e, c.run().result(k), c.anatomy().worst().stream().map(AnatomyText::render).toList(), k.now(),
        k.eventsFired(), System.nanoTime() - wall0, partial, RtAppWorkload.logFiles(c.run()));
  }
}
