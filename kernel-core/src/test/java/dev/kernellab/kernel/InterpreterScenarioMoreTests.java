package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import org.junit.jupiter.api.Test;

/**
 * Scenarios S3, S4, S8 (sites), PREEMPT_ACTIVE, softirq on irq exit, spinning on SMP, of
 * docs/golden-scenarios.md.
 */
class InterpreterScenarioMoreTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final Site S = new Site("test/k.c", "K", "S");
  private static final Site T = new Site("test/k.c", "K", "T");

  private static long latency(KernelPath k, long tIrq, KernelPatch... patches) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    for (KernelPatch p : patches) {
      b.patch(p);
    }
    return rig.firstLatency(b, tIrq, 9 * MS);
  }

  @Test
  void s3ALockBreakActsAtTheEndOfTheIteration() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        KernelPath.path("test/k.c", "K")
            .spinLock(l)
            .loop(S, 50, body -> body.compute(100 * US))
            .spinUnlock(l)
            .build();
    Site s = new Site("test/k.c", "K", "S");
    assertThat(latency(k, 1_050 * US)).isEqualTo(3_950 * US);
    assertThat(latency(k, 1_050 * US, CountZeroPreemption.patch())).isEqualTo(3_950 * US);
    assertThat(latency(k, 1_050 * US, SiteHookPatch.lockBreak(s, l))).isEqualTo(50 * US);
    assertThat(latency(k, 1_050 * US, SiteHookPatch.lockBreak(s, l), CountZeroPreemption.patch()))
        .isEqualTo(50 * US);
  }

  /** A point site in straight-line code runs its hook once, where the path reaches it. */
  @Test
  void aPointSiteRunsItsHookOnceWhereThePathReachesIt() {
    KernelPath k = KernelPath.path("test/k.c", "K").compute(MS).point(T).compute(MS).build();
    assertThat(k.sites()).containsExactly(T);
    assertThat(k.listing()).containsExactly("compute(1000000 ns)", "site test/k.c:K#T", "compute(1000000 ns)");
    assertThat(latency(k, MS / 2)).isEqualTo(3 * MS / 2);
    assertThat(latency(k, MS / 2, SiteHookPatch.condResched(T))).isEqualTo(MS / 2);
  }

  @Test
  void s4ACondReschedPointActsBetweenIterationsOnly() {
    KernelPath k =
        KernelPath.path("test/k.c", "K").loop(S, 50, body -> body.compute(100 * US)).build();
    Site s = new Site("test/k.c", "K", "S");
    assertThat(latency(k, 1_050 * US)).isEqualTo(3_950 * US);
    assertThat(latency(k, 1_050 * US, CountZeroPreemption.patch())).isZero();
    assertThat(latency(k, 1_050 * US, SiteHookPatch.condResched(s))).isEqualTo(50 * US);
    assertThat(latency(k, 1_050 * US, SiteHookPatch.condResched(s), CountZeroPreemption.patch()))
        .isZero();
  }

  @Test
  void thePreemptionModelDecidesWhatAnExplicitReschedulePointDoes() {
    KernelPath k =
        KernelPath.path("test/k.c", "K").loop(S, 50, body -> body.compute(100 * US)).build();
    Site s = new Site("test/k.c", "K", "S");
    KernelPatch deaf =
        new KernelPatch() {
          @Override
          public String name() {
            return "deaf";
          }

          @Override
          public void apply(Patching kernel) {
            kernel.preemptionModel(new PreemptionModel() {
              @Override
              public boolean preemptOnIrqReturn(CpuView cpu, TaskView current) {
                return false;
              }

              @Override
              public boolean preemptOnEnable(CpuView cpu, TaskView current) {
                return false;
              }

              @Override
              public boolean rescheduleAtCondResched(CpuView cpu, TaskView current) {
                return false;
              }
            });
          }
        };
    assertThat(latency(k, 1_050 * US, SiteHookPatch.condResched(s))).isEqualTo(50 * US);
    assertThat(latency(k, 1_050 * US, SiteHookPatch.condResched(s), deaf)).isEqualTo(3_950 * US);
  }

  @Test
  void s8ASiteNoPatchTouchesIsTheSameInEveryConfiguration() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        KernelPath.path("test/k.c", "K")
            .spinLock(l)
            .loop(T, 30, body -> body.compute(100 * US))
            .spinUnlock(l)
            .build();
    Site other = new Site("test/k.c", "K", "S");
    assertThat(latency(k, MS / 2)).isEqualTo(2_500 * US);
    assertThat(latency(k, MS / 2, CountZeroPreemption.patch())).isEqualTo(2_500 * US);
    assertThat(latency(k, MS / 2, SiteHookPatch.lockBreak(other, l))).isEqualTo(2_500 * US);
    assertThat(latency(k, MS / 2, SiteHookPatch.lockBreak(other, l), CountZeroPreemption.patch()))
        .isEqualTo(2_500 * US);
  }

  /**
   * B sets TASK_INTERRUPTIBLE, computes 1 ms, calls schedule(); preempted at 0.5 ms it must stay
   * queued, resume after P sleeps again, and then really sleep.
   */
  @Test
  void preemptActiveKeepsAHalfAsleepTaskOnTheRunqueue() {
    WaitQueue never = new WaitQueue("never");
    KernelPath k =
        KernelPath.path("test/k.c", "K")
            .setState(TaskState.INTERRUPTIBLE)
            .compute(MS)
            .schedule()
            .build();
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b =
        rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k))
            .patch(CountZeroPreemption.patch());
    Kernel kernel = b.build();
    RtcProbeRig.assertRtcAt(kernel, MS / 2);
    kernel.run(MS / 2);
    Task bTask = kernel.task("B").orElseThrow();
    kernel.run(MS / 2 + 1);
    assertThat(rig.latencies).containsExactly(0L);
    assertThat(bTask.state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(kernel.scheduler().queuedTasks()).contains(bTask);
    kernel.run(5 * MS);
    // B ran its remaining 0.5 ms, called schedule() itself and is now really asleep.
    assertThat(bTask.state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(kernel.scheduler().queuedTasks()).doesNotContain(bTask);
    assertThat(kernel.current(0).isIdle()).isTrue();
    assertThat(never.size()).isZero();
  }

  @Test
  void softirqsRaisedByTheHandlerRunBeforeTheReturnPath() {
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath net = KernelPath.path("net/core/dev.c", "net_rx_action").compute(300 * US).build();
    KernelPath handler =
        KernelPath.path("drivers/char/rtc.c", "rtc_interrupt+raise")
            .call(rig.rtcInterrupt)
            .raiseSoftirq(Softirq.NET_RX)
            .build();
    for (boolean preempt : new boolean[] {false, true}) {
      RtcProbeRig r = new RtcProbeRig();
      KernelPath h =
          KernelPath.path("drivers/char/rtc.c", "rtc_interrupt+raise")
              .call(r.rtcInterrupt)
              .raiseSoftirq(Softirq.NET_RX)
              .build();
      KernelBuilder b =
          new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
              .scheduler(new SimpleRoundRobinScheduler())
              .requestIrq(Rtc.IRQ, "rtc", h, true)
              .openSoftirq(Softirq.NET_RX, net)
              .task(TaskSpec.user("P", r.probe).fifo(99))
              .task(TaskSpec.user("B", RtcProbeRig.userHog()));
      if (preempt) {
        b.patch(CountZeroPreemption.patch());
      }
      assertThat(r.firstLatency(b, MS, 5 * MS)).isEqualTo(300 * US);
    }
    assertThat(handler.listing()).contains("raise_softirq(NET_RX_SOFTIRQ)");
  }

  @Test
  void aCpuSpinningOnALockIsBusyUntilReleaseAndStillTakesInterrupts() {
    SpinLock l = SpinLock.spin("L");
    KernelPath holder =
        KernelPath.userProgram("holder")
            .syscall(KernelPath.path("test/k.c", "hold").spinLock(l).compute(3 * MS).spinUnlock(l).build())
            .loop("spin", Long.MAX_VALUE, body -> body.compute(MS))
            .build();
    KernelPath waiter =
        KernelPath.userProgram("waiter")
            .compute(MS)
            .syscall(KernelPath.path("test/k.c", "take").spinLock(l).compute(10 * US).spinUnlock(l).build())
            .loop("spin", Long.MAX_VALUE, body -> body.compute(MS))
            .build();
    RtcProbeRig rig = new RtcProbeRig();
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(2), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("waiter", waiter).onCpu(0).allowedOn(1))
            .task(TaskSpec.user("holder", holder).onCpu(1).allowedOn(2))
            .build();
    int[] seenAtCpu0 = {0};
    k.machine().simulation().schedule(new Event("rtc", now -> {
      k.machine().ioApic().assertLine(Rtc.IRQ);
      seenAtCpu0[0]++;
    }), 2 * MS);
    k.run(3 * MS - 1);
    assertThat(k.machine().cpu(0).segment()).isEqualTo(dev.kernellab.hw.Cpu.Segment.SPIN);
    k.run(3 * MS + 20 * US);
    assertThat(k.machine().cpu(0).spinNs()).isEqualTo(2 * MS);
    assertThat(k.machine().cpu(0).interruptsAccepted()).isGreaterThanOrEqualTo(1);
    assertThat(l.contentions()).isEqualTo(1);
    assertThat(l.maxHoldNs()).isEqualTo(3 * MS);
  }
}
