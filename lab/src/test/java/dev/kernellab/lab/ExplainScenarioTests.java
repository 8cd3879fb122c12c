package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SchedulerProvider;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.workloads.ProbeResult;
import dev.kernellab.workloads.Realfeel;
import org.junit.jupiter.api.Test;

/**
 * The breakdown on golden scenario S2 (shared by the project's scenario tests): one CPU, zero
 * costs; B takes spin_lock(L) at t = 0, computes 5 ms, unlocks, computes 3 ms and returns;
 * realfeel's RTC interrupt comes at 1 ms. Vanilla: 7 ms, all of it a wait for the CPU in B's
 * path; preempt: 4 ms, a wait ending at the unlock, under L. The explainer must say so, and
 * its parts must add up to the sample.
 */
class ExplainScenarioTests {

  private static final long MS = 1_000_000;

  private static Breakdown worstOfS2(boolean preempt) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        KernelPath.path("scenario/s2.c", "K")
            .spinLock(l).compute(5 * MS).spinUnlock(l).compute(3 * MS).build();
    KernelPath b = KernelPath.userProgram("B").syscall(k)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build();
    Realfeel realfeel = new Realfeel(paths, 2048);
    KernelBuilder kb =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    WakeupLatencyTracer tracer = new WakeupLatencyTracer(Rtc.IRQ, preempt);
    kb.tracer(tracer);
    kb.task(realfeel.task()).task(TaskSpec.user("B", b));
    if (preempt) {
      kb.patch(new PreemptKernelPatch());
    }
    realfeel.listen(tracer);
    Kernel kernel = kb.build();
    tracer.attach(kernel);
    // One interrupt, at 1 ms (the probe blocks in read() from t = 0; its RTC rate is never set,
    // so this is the only one).
    kernel.simulation().schedule(new Event("rtc", t -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), MS);
    kernel.run(20 * MS);
    ProbeResult r = realfeel.result();
    assertThat(r.latency().samples()).isEqualTo(1);
    return tracer.worst().get(0);
  }

  @Test
  void vanillaWaitsForBsReturnToUserInItsPath() {
    Breakdown w = worstOfS2(false);
    long driver = dev.kernellab.paths.drivers.Rtc.CMOS_READ_NS + dev.kernellab.paths.drivers.Rtc.READ_TAIL_NS;
    assertThat(w.latencyNs()).isEqualTo(7 * MS + driver);
    assertThat(w.parts().stream().mapToLong(Breakdown.Part::ns).sum()).isEqualTo(w.latencyNs());
    assertThat(w.dominant().part()).isEqualTo("wait for the CPU");
    assertThat(w.dominant().ns()).isBetween(7 * MS - driver, 7 * MS);
    assertThat(w.culpritPath()).isEqualTo("scenario/s2.c:K");
    assertThat(w.culpritTask()).startsWith("B[");
    assertThat(w.culpritReason()).startsWith("not preemptible: B[");
  }

  @Test
  void preemptWaitsForTheUnlockOfL() {
    Breakdown w = worstOfS2(true);
    long driver = dev.kernellab.paths.drivers.Rtc.CMOS_READ_NS + dev.kernellab.paths.drivers.Rtc.READ_TAIL_NS;
    assertThat(w.latencyNs()).isEqualTo(4 * MS + driver);
    assertThat(w.parts().stream().mapToLong(Breakdown.Part::ns).sum()).isEqualTo(w.latencyNs());
    assertThat(w.dominant().part()).isEqualTo("wait for the CPU");
    assertThat(w.culpritPath()).isEqualTo("scenario/s2.c:K");
    assertThat(w.culpritLock()).isEqualTo("L");
    assertThat(w.culpritReason()).startsWith("spinlock L held by B[");
  }
}
