package dev.kernellab.it;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.lowlat.LowLatencyPatch;
import dev.kernellab.lowlat.PatchedSite;
import dev.kernellab.paths.CatalogLock;
import dev.kernellab.preempt.PreemptKernelPatch;
import java.util.List;

/** Builds a scenario's machine in one configuration and measures P's latency. */
final class ScenarioRunner {

  private ScenarioRunner() {}

  /**
   * The low-latency patch of the scenario table (docs/golden-scenarios.md): at site S a
   * conditional schedule, or a lock break of L every iteration; S8's loop sits at T, which the
   * table does not name. A table names catalog locks; the scenario's L stands for the one it
   * names ({@link #latency} resolves every key to L).
   */
  static List<PatchedSite> lowlatTable(GoldenScenarios.Scenario s) {
    return switch (s.hook()) {
      case COND_RESCHED -> List.of(PatchedSite.cs(GoldenScenarios.S, "scenario S4: cond_resched() at S"));
      case LOCK_BREAK -> List.of(PatchedSite.lb(GoldenScenarios.S, List.of(CatalogLock.DCACHE_LOCK), 0,
          "scenario S3: lock break of L at S every iteration", "hand-worked scenario: no revalidation"));
      case NONE -> List.of();
    };
  }

  /** P's first latency; the RTC is asserted {@code tIrqNs} after B enters K (or after boot). */
  static long latency(
      String scheduler, GoldenScenarios.Scenario s, GoldenScenarios.Config c, CostTable costs) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath b = s.k() == null ? RtcProbeRig.userHog() : RtcProbeRig.busyTask(s.k());
    KernelBuilder kb = rig.builder(SchedulerProvider.create(scheduler), b, costs, 1);
    if (c.preempt) {
      kb.patch(new PreemptKernelPatch());
    }
    if (c.lowlat) {
      kb.patch(LowLatencyPatch.forSites(lowlatTable(s), key -> s.lock()));
    }
    Kernel[] kernel = new Kernel[1];
    Event assertRtc =
        new Event("rtc.assert", now -> kernel[0].machine().ioApic().assertLine(Rtc.IRQ));
    kb.tracer(new Tracer() {
      @Override
      public void pathEnter(long now, int cpu, PathView path) {
        if (path == s.k() && !assertRtc.isScheduled() && !kernel[0].machine().ioApic().wasAsserted(Rtc.IRQ)) {
          kernel[0].machine().simulation().schedule(assertRtc, now + s.tIrqNs());
        }
      }
    });
    kernel[0] = kb.build();
    if (s.k() == null) {
      kernel[0].machine().simulation().schedule(assertRtc, s.tIrqNs());
    }
    kernel[0].run(9 * GoldenScenarios.MS);
    if (rig.latencies.isEmpty()) {
      throw new AssertionError(s + " " + c + ": P never ran after the interrupt");
    }
    return rig.latencies.get(0);
  }
}
