package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Spinlocks that sleep (Patching.sleepingSpinlocks), on a zero-cost uniprocessor at HZ 1000 with
 * kernel preemption: A (SCHED_OTHER) holds L for 10 ms of kernel work from t = 0; H (SCHED_FIFO
 * 50) wakes 2 ms in and then wants L.
 */
class SleepingSpinlocksTests {

  private static final long MS = 1_000_000;

  /** What realtime preemption asks of the kernel, or part of it. */
  private static KernelPatch rt(boolean sleeping) {
    return RtSwitches.of("test-rt", true, true, sleeping);
  }

  private record Run(Map<String, Long> at, int loanOfA, long contentions) {}

  private static Run run(SpinLock l, boolean sleeping) {
    Map<String, Long> at = new LinkedHashMap<>();
    KernelPath rest = KernelPath.path("test/rest.c", "rest").sleepFor(1000 * MS).build();
    KernelPath a = KernelPath.userProgram("A")
        .syscall(KernelPath.path("test/l.c", "a_holds").spinLock(l).compute(10 * MS).spinUnlock(l).build())
        .probe((c, t, now) -> at.put("A done", now / MS))
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath h = KernelPath.userProgram("H")
        .syscall(KernelPath.path("test/l.c", "h_naps").sleepFor(2 * MS).build())
        .probe((c, t, now) -> at.put("H awake", now / MS))
        .syscall(KernelPath.path("test/l.c", "h_takes").spinLock(l).spinUnlock(l).build())
        .probe((c, t, now) -> at.put("H had L", now / MS))
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .hz(1000)
        .patch(CountZeroPreemption.patch())
        .patch(rt(sleeping))
        .task(TaskSpec.user("A", a))
        .task(TaskSpec.user("H", h).fifo(50))
        .build();
    int[] loan = {-1};
    k.machine().simulation().schedule(new Event("look", x -> loan[0] = k.task("A").orElseThrow().inheritedRtPriority()), 6 * MS);
    k.run(30 * MS);
    k.checkInvariants();
    return new Run(at, loan[0], l.contentions());
  }

  @Test
  void theHolderOfASleepingSpinlockIsPreemptedAndInheritsFromItsWaiter() {
    SpinLock l = SpinLock.spin("L");
    Run r = run(l, true);
    assertThat(r.at().get("H awake")).as("H preempts A inside its critical section: a 2 ms sleep ends at a tick").isBetween(1L, 3L);
    assertThat(r.loanOfA()).as("A runs on H's priority while H sleeps on L").isEqualTo(50);
    assertThat(r.at().get("H had L")).isEqualTo(10L);
    assertThat(r.contentions()).isEqualTo(1);
    assertThat(l.acquisitions()).isEqualTo(2);
    assertThat(l.maxHoldNs()).isEqualTo(10 * MS);
  }

  @Test
  void aSpinningSpinlockKeepsTheHolderOnTheCpuUntilItUnlocks() {
    Run r = run(SpinLock.spin("L"), false);
    assertThat(r.at().get("H awake")).isEqualTo(10L);
    assertThat(r.loanOfA()).isZero();
  }

  @Test
  void aRawSpinlockStillSpinsWhereSpinlocksSleep() {
    SpinLock l = SpinLock.raw("L");
    assertThat(l.isRaw()).isTrue();
    Run r = run(l, true);
    assertThat(r.at().get("H awake")).isEqualTo(10L);
    assertThat(r.loanOfA()).isZero();
  }

  @Test
  void sleepingSpinlocksNeedThreadedInterruptsAndSoftirqs() {
    KernelPatch alone = new KernelPatch() {
      @Override
      public String name() {
        return "sleeping-only";
      }

      @Override
      public void apply(Patching kernel) {
        kernel.sleepingSpinlocks();
      }
    };
    assertThatIllegalStateException()
        .isThrownBy(() -> new KernelBuilder(MachineSpec.uniprocessor(), 1)
            .scheduler(new SimpleRoundRobinScheduler()).patch(alone).build())
        .withMessageContaining("threaded interrupts and softirqs");
  }
}
