package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.LatencySummary;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.Workloads;
import org.junit.jupiter.api.Test;

/** The README's "a kernel in a few lines", as written there (one simulated second here). */
class ReadmeExampleTests {

  @Test
  void theReadmeExampleRuns() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 42).scheduler("o1");
    paths.install(b);
    paths.installDaemons(b);
    b.patch("preempt").patch("lowlat");
    Workload.Run run = Workloads.create("stress").install(paths, b);
    Kernel k = b.build();
    run.start(k);
    k.run(1_000_000_000L);
    LatencySummary l = run.result(k).probes().get(0).latency();
    assertThat(l.samples()).isPositive();
  }
}
