package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

  @Test
  void aLoanNamesItsLenderAndTheLockItWaitsForAlongTheChain() {
    // A holds L1 over 20 ms of work; B, given the CPU when A's 5-tick slice ends, takes L2, then
    // waits for L1; H (FIFO 50) wakes at 8 ms and waits for L2: H lends B 50, which B passes on
    // to A, and each link is B waiting for L1, then H waiting for L2
    SpinLock l1 = SpinLock.spin("L1");
    SpinLock l2 = SpinLock.spin("L2");
    long[] awake = {-1};
    KernelPath rest = KernelPath.path("test/rest.c", "rest").sleepFor(1000 * MS).build();
    KernelPath a = KernelPath.userProgram("A")
        .syscall(KernelPath.path("test/l.c", "a_holds").spinLock(l1).compute(20 * MS).spinUnlock(l1).build())
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath b = KernelPath.userProgram("B")
        .syscall(KernelPath.path("test/l.c", "b_takes").spinLock(l2).spinLock(l1).spinUnlock(l1).spinUnlock(l2).build())
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath h = KernelPath.userProgram("H")
        .syscall(KernelPath.path("test/l.c", "h_naps").sleepFor(8 * MS).build())
        .probe((c, t, now) -> awake[0] = now)
        .syscall(KernelPath.path("test/l.c", "h_takes").spinLock(l2).spinUnlock(l2).build())
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .hz(1000)
        .patch(CountZeroPreemption.patch())
        .patch(rt(true))
        .task(TaskSpec.user("A", a))
        .task(TaskSpec.user("B", b))
        .task(TaskSpec.user("H", h).fifo(50))
        .build();
    List<String> seen = new ArrayList<>();
    k.machine().simulation().schedule(new Event("look", x -> {
      for (TaskView t = k.task("A").orElseThrow(); t.lender() != null; t = t.lender()) {
        seen.add(t.comm() + " lent " + t.inheritedRtPriority() + " by " + t.lender().comm() + " waiting for "
            + t.lender().blockedOnLock().name());
      }
    }), 15 * MS);
    k.run(40 * MS);
    k.checkInvariants();
    assertThat(awake[0]).as("H wakes before the look").isBetween(0L, 15 * MS);
    assertThat(seen).containsExactly("A lent 50 by B waiting for L1", "B lent 50 by H waiting for L2");
    assertThat(k.task("A").orElseThrow().lender()).as("the loan is given back with L1").isNull();
    assertThat(k.task("H").orElseThrow().blockedOnLock()).isNull();
  }
}
