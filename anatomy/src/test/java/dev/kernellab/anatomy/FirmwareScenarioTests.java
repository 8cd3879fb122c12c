package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.Smi;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.SmiCause;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.arch.Apm;
import dev.kernellab.workloads.Realfeel;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The firmware's own stretches as the worst case, on a zero-cost idle machine with realfeel:
 * an APM BIOS call of kapmd with interrupts off (arch/i386/kernel/apm.c apm_bios_call, 2.4.17),
 * and an SMI that takes the CPU into System Management Mode. Both lengths are assumptions; the
 * point is that the anatomy names them.
 */
class FirmwareScenarioTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  /** When kapmd's first BIOS call turns interrupts off, in a run without the extra RTC. */
  private static long firstBiosCall(MachineSpec machine) {
    long[] at = {-1};
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Realfeel realfeel = new Realfeel(paths, 2048);
    KernelBuilder kb = new KernelBuilder(machine, 1).scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    kb.task(realfeel.task()).task(paths.apm().kapmd());
    kb.tracer(new dev.kernellab.kernel.spi.Tracer() {
      @Override
      public void irqsOff(long now, int cpu, dev.kernellab.kernel.spi.PathView path) {
        if (at[0] < 0 && path == paths.apm().biosCall) {
          at[0] = now;
        }
      }
    });
    kb.build().run(2_000 * MS);
    assertThat(at[0]).isPositive();
    return at[0];
  }

  private static SampleAnatomy worst(MachineSpec machine, boolean apm, long rtcAt, long runNs) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Realfeel realfeel = new Realfeel(paths, 2048);
    KernelBuilder kb = new KernelBuilder(machine, 1).scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    kb.task(realfeel.task());
    if (apm) {
      kb.task(paths.apm().kapmd());
    }
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 4);
    kb.tracer(anatomy);
    realfeel.listen(anatomy);
    Kernel k = kb.build();
    k.machine().simulation().schedule(new Event("rtc", t -> k.machine().ioApic().assertLine(Rtc.IRQ)), rtcAt);
    k.run(runNs);
    assertThat(anatomy.worst()).isNotEmpty();
    return anatomy.worst().get(0);
  }

  /** An SMI every 10 ms for 300 us; the RTC asserted 100 us into the first waits 200 us. */
  @Test
  void anSmiHoldsTheInterruptForTheRestOfItsStretch() {
    MachineSpec m = MachineSpec.uniprocessor().withCosts(CostTable.zero())
        .withSmi(Optional.of(new Smi(10 * MS, 300 * US)));
    SampleAnatomy w = worst(m, false, 10 * MS + 100 * US, 15 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.dominant().ns()).isEqualTo(200 * US);
    assertThat(w.dominant().cause()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new SmiCause(10 * MS, 300 * US));
      assertThat(d.cause().describe(d.hold())).startsWith("SMI: the CPU in System Management Mode");
    });
  }

  /**
   * kapmd's GET_EVENT once a second: interrupts off for the assumed 500 us of the BIOS; an RTC
   * asserted during it waits for its end, and the anatomy names the BIOS call.
   */
  @Test
  void anApmBiosCallHoldsTheInterruptWithInterruptsOff() {
    MachineSpec m = MachineSpec.uniprocessor().withCosts(CostTable.zero());
    // kapmd sleeps APM_CHECK_TIMEOUT from boot, then calls the BIOS; the RTC comes 100 us in
    long call = firstBiosCall(m);
    assertThat(call).isGreaterThanOrEqualTo(Apm.APM_CHECK_TIMEOUT_NS);
    SampleAnatomy w = worst(m, true, call + 100 * US, call + 10 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.dominant().ns()).isEqualTo(Apm.BIOS_CALL_NS - 100 * US);
    assertThat(w.dominant().cause()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Apm.BiosCall("APM_FUNC_GET_EVENT"));
      assertThat(d.task().comm()).isEqualTo("kapmd");
      assertThat(d.cause().describe(d.hold()))
          .startsWith("APM BIOS call APM_FUNC_GET_EVENT by kapmd[")
          .endsWith("with interrupts off, 500.0 us (assumed BIOS time)");
    });
  }
}
