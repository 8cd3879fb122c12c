package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.ProbeSpec;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.Workloads;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The anatomy as a library user composes it, with no lab: a kernel from {@link KernelBuilder},
 * the stress load, and the typed culprit of the worst sample; every kept sample's parts add up,
 * on one CPU and on several.
 */
class LibraryCompositionTests {

  private static final long SECOND = 1_000_000_000L;

  private static List<SampleAnatomy> run(String workload, String scheduler, int cpus, List<String> patches, long ns) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), 1).scheduler(scheduler);
    patches.forEach(b::patch);
    paths.install(b);
    paths.installDaemons(b);
    Workload.Run run = Workloads.create(workload).install(paths, b);
    LatencyAnatomy anatomy = LatencyAnatomy.attach(b, run);
    Kernel k = b.build();
    run.start(k);
    k.run(ns);
    return anatomy.worst();
  }

  @Test
  void theStressLoadsWorstSampleHasATypedCulprit() {
    List<SampleAnatomy> worst = run("stress", "goodness", 1, List.of("preempt"), 4 * SECOND);
    assertThat(worst).hasSize(LatencyAnatomy.DEFAULT_KEPT);
    assertThat(worst).isSortedAccordingTo((a, b) -> Long.compare(b.latencyNs(), a.latencyNs()));
    SampleAnatomy w = worst.get(0);
    assertThat(w.probe().comm()).isEqualTo("realfeel");
    // under the stress load the worst wait is a kernel path that held the CPU, not an idle CPU
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOf(Cause.InKernelCode.class);
    Cause.InKernelCode c = (Cause.InKernelCode) w.culprit();
    assertThat(c.ns()).isPositive().isLessThanOrEqualTo(w.dominant().ns());
    assertThat(c.task().comm()).isNotEqualTo("realfeel");
    assertThat(w.dominant().holders()).contains(c);
  }

  @Test
  void theSameSeedGivesTheSameAnatomy() {
    List<SampleAnatomy> a = run("stress", "goodness", 1, List.of(), 2 * SECOND);
    List<SampleAnatomy> b = run("stress", "goodness", 1, List.of(), 2 * SECOND);
    assertThat(a).hasSameSizeAs(b);
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.get(i).latencyNs()).isEqualTo(b.get(i).latencyNs());
      assertThat(a.get(i).segments()).extracting(Segment::ns).isEqualTo(b.get(i).segments().stream().map(Segment::ns).toList());
      assertThat(a.get(i).culprit().getClass()).isEqualTo(b.get(i).culprit().getClass());
    }
  }

  @ParameterizedTest
  @CsvSource({
    "stress, goodness, 1, ''",
    "stress, o1, 2, preempt",
    "dbench, o1, 2, lowlat",
    "cyclictest, goodness, 1, preempt+lowlat",
    "latencytest, o1, 4, preempt+lowlat",
  })
  void everyKeptSampleAddsUpToTheNanosecond(String workload, String scheduler, int cpus, String config) {
    List<String> patches = config.isEmpty() ? List.of() : List.of(config.split("\\+"));
    for (SampleAnatomy s : run(workload, scheduler, cpus, patches, 2 * SECOND)) {
      assertThat(s.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(s.latencyNs());
      for (Segment seg : s.segments()) {
        assertThat(seg.ns()).isNotNegative();
        if (!seg.holders().isEmpty()) {
          assertThat(seg.holders().stream().mapToLong(Cause.Holding::ns).sum()).isEqualTo(seg.ns());
        }
      }
      boolean timer = workload.equals("cyclictest");
      assertThat(s.segment(Part.TIMER_GRANULARITY).isPresent()).isEqualTo(timer);
    }
  }

  @Test
  void aProbeTaskTheKernelDoesNotHaveIsRefusedAtBuild() {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler("goodness");
    Kernel24Paths.withDefaults().install(b);
    b.tracer(new LatencyAnatomy(new ProbeSpec(List.of("realfeel"), 8, ProbeSpec.Start.INTERRUPT_ASSERTION), 4));
    assertThatIllegalArgumentException().isThrownBy(b::build)
        .withMessage("the probe's task realfeel is not a boot task of this kernel");
  }
}
