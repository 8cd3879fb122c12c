package dev.kernellab.workloads.rtapp;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.Workload;
import java.nio.file.Path;

/** Test helper: an rt-app file run on a 2.4.17 kernel of a given configuration. */
final class RtAppKernels {

  private RtAppKernels() {}

  /** A run of {@code w} and its kernel, after {@code ns} of simulated time. */
  record Ran(Kernel kernel, Workload.Run run) {}

  static Path resource(String name) {
    try {
      return Path.of(RtAppKernels.class.getResource("/rt-app/" + name).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Ran run(Workload w, String config, int cpus, long ns) {
    return run(w, config, cpus, ns, false);
  }

  /** With {@code daemons}, the catalog's kernel threads (kswapd, bdflush...) run too. */
  static Ran run(Workload w, String config, int cpus, long ns, boolean daemons) {
    return run(w, "goodness", config, cpus, ns, daemons);
  }

  /** On the scheduler named {@code scheduler}. */
  static Ran run(Workload w, String scheduler, String config, int cpus, long ns, boolean daemons) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), 1)
        .scheduler(SchedulerProvider.create(scheduler));
    paths.install(b);
    if (daemons) {
      paths.installDaemons(b);
    }
    b.configuration(config);
    Workload.Run run = w.install(paths, b);
    Kernel k = b.build();
    run.start(k);
    k.run(ns);
    k.checkInvariants();
    return new Ran(k, run);
  }

  static Ran run(String json, String config, int cpus, long ns) {
    return run(new RtAppWorkload(RtAppReader.parse("test.json", json)), config, cpus, ns);
  }
}
