package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.ProbeSpec;
import dev.kernellab.workloads.Realfeel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an anatomy promises its caller, apart from the figures: its probe, its size, one kernel. */
class LatencyAnatomyContractTests {

  private static final TaskId PROBE = new TaskId("realfeel", 5);

  @Test
  void anAnatomyExplainsTheProbeItWasGiven() {
    ProbeSpec spec = new ProbeSpec(List.of("realfeel"), 8, ProbeSpec.Start.INTERRUPT_ASSERTION);
    assertThat(new LatencyAnatomy(spec, 1).probe()).isSameAs(spec);
  }

  @Test
  void anAnatomyAttachedToOneKernelRefusesASecond() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Realfeel realfeel = new Realfeel(paths, Realfeel.DEFAULT_HZ);
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 1);
    for (int i = 0; i < 2; i++) {
      KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
          .scheduler(SchedulerProvider.create("goodness"));
      paths.install(kb);
      kb.task(realfeel.task()).tracer(anatomy);
      if (i == 0) {
        kb.build();
      } else {
        assertThatIllegalStateException().isThrownBy(kb::build).withMessageContaining("attached to a kernel already");
      }
    }
  }

  /**
   * The timer's rounding dominates a sample whose other parts are all empty wherever it stands
   * among them, not because it happens to come first.
   */
  @Test
  void theTimersRoundingDominatesASampleOfEmptyPartsWhereverItStands() {
    Cause rounding = new Cause.TimerRounding(0, 10, 100);
    SampleAnatomy a = new SampleAnatomy(10, 10, 0, PROBE, List.of(
        Segment.of(Part.HANDLER, 0, new Cause.Handler(8)),
        Segment.of(Part.TIMER_GRANULARITY, 10, rounding),
        Segment.of(Part.SWITCH_TO_USER, 0, new Cause.ReturnToUser())));
    assertThat(a.dominant().part()).isEqualTo(Part.TIMER_GRANULARITY);
    assertThat(a.culprit()).isEqualTo(rounding);
  }
}
