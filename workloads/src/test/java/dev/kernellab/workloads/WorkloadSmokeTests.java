package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every registered workload boots and runs a few simulated seconds with every check on. */
class WorkloadSmokeTests {

  static java.util.List<String> names() {
    return Workloads.names();
  }

  @ParameterizedTest
  @MethodSource("names")
  void runsWithoutAKernelBugAndProducesSamples(String name) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(b);
    paths.installDaemons(b);
    Workload.Run run = Workloads.create(name).install(paths, b);
    Kernel k = b.build();
    run.start(k);
    long wall0 = System.nanoTime();
    for (long t = 1; t <= 5; t++) {
      k.run(t * 1_000_000_000L);
      k.checkInvariants();
    }
    WorkloadResult r = run.result(k);
    System.out.println(name + ": " + r.probes().get(0).latency() + " " + r.counters()
        + (r.throughputMbPerS() == null ? "" : " " + r.throughputMbPerS() + " MB/s")
        + " events=" + k.eventsFired() + " wall=" + (System.nanoTime() - wall0) / 1_000_000 + " ms");
    assertThat(run.progress()).isPositive();
    assertThat(r.probes().get(0).latency().samples()).isPositive();
  }
}
