package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The big kernel lock as include/linux/smp_lock.h and include/asm-i386/smplock.h of 2.4.17
 * have it, with preempt-kernel-rml-2.4.17-1's hunks: {@code lock_kernel()} nests on
 * {@code lock_depth}; {@code kernel_flag} is a spinlock on SMP and, with CONFIG_PREEMPT, on UP,
 * and nothing at all on UP without it; {@code schedule()} releases it for a holder that leaves
 * the CPU and retakes it when the holder runs again.
 *
 * <p>Zero-cost machines, kernel-core's test scheduler, every debug check on. Timer ticks come at
 * j * 11932 / 1193180 s (LATCH for HZ 100); a sleep of 1 ms is one jiffy, so it ends at tick 1.
 */
class BigKernelLockTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final long TICK1 = 11_932L * 1_000_000_000L / 1_193_180L;

  /** What a path saw of the BKL at one instant. */
  record Seen(String what, long at, int lockDepth, int preemptCount, boolean flagHeld) {}

  private static Action note(List<Seen> seen, String what, SpinLock bkl) {
    return c -> seen.add(new Seen(what, c.now(), c.current().lockDepth(), c.preemptCount(), bkl.isHeldExclusive()));
  }

  private static KernelBuilder machine(int cpus, boolean preempt) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.all());
    return preempt ? b.patch(CountZeroPreemption.patch()) : b;
  }

  private static KernelPath.Builder k(String fn) {
    return KernelPath.path("test/bkl.c", fn);
  }

  private static KernelPath thenSpin(String name, KernelPath syscall) {
    return KernelPath.userProgram(name).syscall(syscall).loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build();
  }

  /**
   * A takes the BKL at 0 and sleeps one jiffy holding it; B takes it at 100 us, while A sleeps,
   * and drops it at 150 us. A comes back holding it again: its depth, its count and the lock.
   */
  private static List<Seen> holderSleeps(int cpus, boolean preempt) {
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = k("a").lockKernel(bkl).sleepFor(MS).effect("A back", note(seen, "A back", bkl))
        .unlockKernel(bkl).build();
    KernelPath b = k("b").lockKernel(bkl).effect("B in", note(seen, "B in", bkl)).compute(50 * US)
        .unlockKernel(bkl).build();
    Kernel kernel = machine(cpus, preempt)
        .task(TaskSpec.user("A", thenSpin("A", a)).onCpu(0))
        .task(TaskSpec.user("B", KernelPath.userProgram("B").compute(100 * US).syscall(b)
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()).onCpu(cpus - 1))
        .build();
    kernel.run(100 * MS);
    kernel.checkInvariants();
    assertThat(bkl.isHeldExclusive()).isFalse();
    return seen;
  }

  @Test
  void aBklHolderThatSleepsLetsAnotherTaskTakeItOnUpWithPreempt() {
    List<Seen> seen = holderSleeps(1, true);
    assertThat(seen.get(0)).isEqualTo(new Seen("B in", 100 * US, 0, 1, true));
    assertThat(seen.get(1).what()).isEqualTo("A back");
    assertThat(seen.get(1).at()).isGreaterThanOrEqualTo(TICK1);
    assertThat(seen.get(1)).extracting(Seen::lockDepth, Seen::preemptCount, Seen::flagHeld).containsExactly(0, 1, true);
  }

  @Test
  void aBklHolderThatSleepsLetsAnotherTaskTakeItOnSmp() {
    List<Seen> seen = holderSleeps(2, false);
    assertThat(seen).containsExactly(new Seen("B in", 100 * US, 0, 1, true), new Seen("A back", TICK1, 0, 1, true));
  }

  @Test
  void onSmpAHolderComingBackSpinsInScheduleUntilTheLockIsFree() {
    // A (cpu0) sleeps holding the BKL from 0; B (cpu1) takes it at 9 ms and holds it 5 ms.
    // A's sleep ends at tick 1, ~10 ms: reacquire_kernel_lock spins until B's unlock at 14 ms.
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = k("a").lockKernel(bkl).sleepFor(MS).effect("A back", note(seen, "A back", bkl))
        .unlockKernel(bkl).build();
    KernelPath b = k("b").lockKernel(bkl).compute(5 * MS).effect("B out", note(seen, "B out", bkl))
        .unlockKernel(bkl).build();
    Kernel kernel = machine(2, false)
        .task(TaskSpec.user("A", thenSpin("A", a)).onCpu(0).allowedOn(1))
        .task(TaskSpec.user("B", KernelPath.userProgram("B").compute(9 * MS).syscall(b)
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()).onCpu(1).allowedOn(2))
        .build();
    kernel.run(30 * MS);
    kernel.checkInvariants();
    assertThat(seen).containsExactly(new Seen("B out", 14 * MS, 0, 1, true), new Seen("A back", 14 * MS, 0, 1, true));
  }

  @Test
  void withPreemptABklHolderIsNotPreempted() {
    SpinLock bkl = SpinLock.bigKernelLock();
    KernelPath held = k("held").lockKernel(bkl).compute(MS).unlockKernel(bkl).build();
    KernelPath free = k("free").compute(MS).build();
    RtcProbeRig withBkl = new RtcProbeRig();
    RtcProbeRig without = new RtcProbeRig();
    long tIrq = 100 * US;
    // P waits for the unlock_kernel() at 1 ms, a preemption point; without the BKL it preempts B
    // on the interrupt's return.
    assertThat(withBkl.firstLatency(withBkl.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(held))
        .patch(CountZeroPreemption.patch()), tIrq, 5 * MS)).isEqualTo(MS - tIrq);
    assertThat(without.firstLatency(without.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(free))
        .patch(CountZeroPreemption.patch()), tIrq, 5 * MS)).isZero();
  }

  @Test
  void withoutPreemptOnUpLockKernelCostsNothing() {
    // linux/smp_lock.h without CONFIG_SMP: lock_kernel() is do { } while (0). The depth is
    // task_struct's and still counts; there is no lock and no preempt count. On SMP there are.
    for (int cpus : new int[] {1, 2}) {
      SpinLock bkl = SpinLock.bigKernelLock();
      List<Seen> seen = new ArrayList<>();
      KernelPath p = k("p").lockKernel(bkl).effect("in", note(seen, "in", bkl)).unlockKernel(bkl)
          .effect("out", note(seen, "out", bkl)).build();
      Kernel kernel = machine(cpus, false).task(TaskSpec.user("T", thenSpin("T", p))).build();
      kernel.run(MS);
      boolean lock = cpus > 1;
      assertThat(seen).as("%d CPU(s)", cpus)
          .containsExactly(new Seen("in", 0, 0, lock ? 1 : 0, lock), new Seen("out", 0, -1, 0, false));
    }
  }

  @Test
  void lockKernelNestsAndOnlyTheOutermostTakesAndDropsTheLock() {
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath p = k("nest").lockKernel(bkl).lockKernel(bkl).effect("2", note(seen, "2", bkl))
        .unlockKernel(bkl).effect("1", note(seen, "1", bkl))
        .unlockKernel(bkl).effect("0", note(seen, "0", bkl)).build();
    Kernel kernel = machine(1, true).task(TaskSpec.user("T", thenSpin("T", p))).build();
    kernel.run(MS);
    assertThat(seen).containsExactly(
        new Seen("2", 0, 1, 1, true), new Seen("1", 0, 0, 1, true), new Seen("0", 0, -1, 0, false));
  }

  @Test
  void aBklHolderMayCallScheduleButAHolderOfAnotherLockMayNot() {
    SpinLock bkl = SpinLock.bigKernelLock();
    SpinLock files = SpinLock.spin("files_lock");
    KernelPath ok = k("ok").lockKernel(bkl).sleepFor(MS).unlockKernel(bkl).build();
    Kernel kernel = machine(1, true).task(TaskSpec.user("T", thenSpin("T", ok))).build();
    kernel.run(30 * MS);
    assertThat(kernel.task("T").orElseThrow().lockDepth()).isEqualTo(-1);

    KernelPath bad = k("bad").lockKernel(bkl).spinLock(files).sleepFor(MS).spinUnlock(files).unlockKernel(bkl).build();
    assertThatThrownBy(() -> machine(1, true).task(TaskSpec.user("T", thenSpin("T", bad))).build().run(30 * MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: scheduling while atomic")
        .hasMessageContaining("holding kernel_flag files_lock");
  }

  @Test
  void unlockKernelWithoutLockKernelIsABug() {
    SpinLock bkl = SpinLock.bigKernelLock();
    KernelPath bad = k("bad").unlockKernel(bkl).build();
    assertThatThrownBy(() -> machine(1, false).task(TaskSpec.user("T", thenSpin("T", bad))).build().run(MS))
        .hasMessageContaining("BUG: unlock_kernel without lock_kernel");
  }

  @Test
  void returningToUserHoldingTheBklIsReportedEvenWhereItIsNoLock() {
    SpinLock bkl = SpinLock.bigKernelLock();
    KernelPath leak = k("leak").lockKernel(bkl).build();
    assertThatThrownBy(() -> machine(1, false).task(TaskSpec.user("T", thenSpin("T", leak))).build().run(MS))
        .hasMessageContaining("BUG: return to user holding the big kernel lock")
        .hasMessageContaining("lock_depth 0");
  }

  @Test
  void theBklIsTakenOnlyWithLockKernelAndNeverBrokenByHand() {
    SpinLock bkl = SpinLock.bigKernelLock();
    assertThatThrownBy(() -> k("x").spinLock(bkl))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spin_lock(&kernel_flag) in test/bkl.c:x: the big kernel lock is taken with lock_kernel()");
    assertThatThrownBy(() -> k("x").lockKernel(SpinLock.spin("dcache_lock")))
        .hasMessageContaining("dcache_lock is not the big kernel lock");
    assertThatThrownBy(() -> k("x").condReschedLock(bkl, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> k("x").condReschedLock("break", List.of(bkl), CondReschedLock.When.needResched(),
        CondReschedLock.Then.SCHEDULE, 0))
        .hasMessageContaining("kernel_flag is the big kernel lock, which schedule() drops and retakes by itself");
  }
}
