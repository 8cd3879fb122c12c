package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The execution model on the hand-worked scenarios of docs/golden-scenarios.md, with the test
 * scheduler and a stand-in preemption model: these pin the interpreter (where preemption can
 * happen, when a pending interrupt is taken); the full matrix with the real schedulers and
 * patches is in tests-integration.
 */
class InterpreterScenarioTests {

  private static final long MS = 1_000_000;
  private static final SpinLock L = SpinLock.spin("L");

  private static long latency(KernelPath k, long tIrq, boolean preempt) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    if (preempt) {
      b.patch(CountZeroPreemption.patch());
    }
    return rig.firstLatency(b, tIrq, 9 * MS);
  }

  private static KernelPath.Builder k() {
    return KernelPath.path("test/k.c", "K");
  }

  @Test
  void s1KernelComputeIsNotPreemptedWithoutThePatch() {
    KernelPath k = k().compute(5 * MS).build();
    assertThat(latency(k, MS, false)).isEqualTo(4 * MS);
    assertThat(latency(k, MS, true)).isZero();
  }

  @Test
  void s2PreemptionHappensAtTheUnlock() {
    KernelPath k = k().spinLock(L).compute(5 * MS).spinUnlock(L).compute(3 * MS).build();
    assertThat(latency(k, MS, false)).isEqualTo(7 * MS);
    assertThat(latency(k, MS, true)).isEqualTo(4 * MS);
  }

  @Test
  void s5AnInterruptRaisedWithIrqsOffIsTakenAtTheEnable() {
    KernelPath k = k().localIrqDisable().compute(2 * MS).localIrqEnable().compute(MS).build();
    assertThat(latency(k, MS / 2, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, MS / 2, true)).isEqualTo(3 * MS / 2);
  }

  @Test
  void s6AUserModeTaskIsPreemptedOnReturnFromTheInterrupt() {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.userHog());
    assertThat(rig.firstLatency(b, MS, 9 * MS)).isZero();
  }

  @Test
  void s7PreemptionHappensAtPreemptEnableNotAtTheUnlockUnderIt() {
    KernelPath k =
        k().spinLock(L).compute(2 * MS).preemptDisable().spinUnlock(L).compute(MS)
            .preemptEnable().compute(2 * MS).build();
    assertThat(latency(k, MS, false)).isEqualTo(4 * MS);
    assertThat(latency(k, MS, true)).isEqualTo(2 * MS);
  }
}
