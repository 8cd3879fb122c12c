package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The big kernel lock where spinlocks sleep (Patching.sleepingSpinlocks), as lib/kernel_lock.c's
 * CONFIG_PREEMPT_BKL branch (2.6.12) has it with the realtime-preempt patches' priority
 * inheritance: lock_kernel() sleeps on kernel_flag's rt_mutex and holds no preempt count,
 * schedule() drops it for a holder that leaves the CPU and retakes it, sleeping if need be,
 * when the holder runs again, and preempt_schedule() keeps it.
 *
 * <p>A zero-cost uniprocessor at HZ 1000 with kernel preemption, kernel-core's test scheduler,
 * every debug check on (so a sleep or a preemption that counted as atomic would be an oops).
 */
class SleepingBigKernelLockTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  /** Threaded interrupts and softirqs, and spinlocks that sleep if {@code sleeping}. */
  private static KernelPatch rt(boolean sleeping) {
    return RtSwitches.of("test-rt", true, true, sleeping);
  }

  /** What a path saw at one instant: the task's depth and count, and the lock's owner. */
  record Seen(String what, long at, int lockDepth, int preemptCount, String owner) {}

  private static Action note(List<Seen> seen, String what, SpinLock bkl) {
    return c -> seen.add(new Seen(what, c.now(), c.current().lockDepth(), c.preemptCount(), owner(bkl)));
  }

  private static String owner(SpinLock bkl) {
    TaskView o = bkl.sleeper.owner();
    return o == null ? "-" : o.comm();
  }

  private static KernelPath.Builder k(String fn) {
    return KernelPath.path("test/bkl.c", fn);
  }

  private static KernelPath thenRest(KernelPath.Builder program) {
    KernelPath rest = k("rest").sleepFor(1000 * MS).build();
    return program.loop("rest", Long.MAX_VALUE, x -> x.syscall(rest)).build();
  }

  private static Kernel boot(boolean sleeping, TaskSpec... tasks) {
    return boot(1, sleeping, tasks);
  }

  private static Kernel boot(int cpus, boolean sleeping, TaskSpec... tasks) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .hz(1000)
        .debugChecks(DebugChecks.all())
        .patch(CountZeroPreemption.patch())
        .patch(rt(sleeping));
    for (TaskSpec t : tasks) {
      b.task(t);
    }
    return b.build();
  }

  /**
   * A (SCHED_OTHER) holds the BKL over 10 ms of kernel work from t = 0; H (SCHED_FIFO 50) wakes
   * 2 ms in and then wants it. The loan A has is looked at 6 ms in.
   */
  private record Contest(List<Seen> seen, int loanOfA, SpinLock bkl) {}

  private static Contest contest(boolean sleeping) {
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = thenRest(KernelPath.userProgram("A")
        .syscall(k("a_holds").lockKernel(bkl).compute(10 * MS).unlockKernel(bkl).build()));
    KernelPath h = thenRest(KernelPath.userProgram("H")
        .syscall(k("h_naps").sleepFor(2 * MS).effect("H awake", note(seen, "H awake", bkl)).build())
        .syscall(k("h_takes").lockKernel(bkl).effect("H in", note(seen, "H in", bkl)).unlockKernel(bkl).build()));
    Kernel kernel = boot(sleeping, TaskSpec.user("A", a), TaskSpec.user("H", h).fifo(50));
    int[] loan = {-1};
    kernel.machine().simulation().schedule(new Event("look", x -> {
      loan[0] = kernel.task("A").orElseThrow().inheritedRtPriority();
      kernel.checkInvariants(); // A owns the lock, preempted, its depth hidden
    }), 6 * MS);
    kernel.run(30 * MS);
    kernel.checkInvariants();
    return new Contest(seen, loan[0], bkl);
  }

  @Test
  void aSleepingBklHolderIsPreemptedKeepingTheLockAndInheritsFromItsWaiter() {
    Contest r = contest(true);
    Seen awake = r.seen().get(0);
    assertThat(awake.what()).isEqualTo("H awake");
    assertThat(awake.at()).as("H preempts A inside lock_kernel(): a 2 ms sleep ends at a tick").isBetween(MS, 3 * MS);
    assertThat(awake.owner()).as("preempt_schedule() kept A's lock").isEqualTo("A");
    assertThat(r.loanOfA()).as("A runs on H's priority while H sleeps on the BKL").isEqualTo(50);
    assertThat(r.seen().get(1)).isEqualTo(new Seen("H in", 10 * MS, 0, 0, "H"));
    assertThat(r.bkl().contentions()).isEqualTo(1);
    assertThat(r.bkl().acquisitions()).isEqualTo(2);
    assertThat(r.bkl().maxHoldNs()).isEqualTo(10 * MS);
  }

  @Test
  void aSpinningBklKeepsItsHolderOnTheCpuUntilItUnlocks() {
    Contest r = contest(false);
    assertThat(r.seen().get(0).at()).isEqualTo(10 * MS);
    assertThat(r.seen().get(1)).isEqualTo(new Seen("H in", 10 * MS, 0, 1, "-"));
    assertThat(r.loanOfA()).isZero();
    assertThat(r.bkl().sleeper.acquisitions()).as("the flag's rt_mutex is not used").isZero();
  }

  @Test
  void aHolderThatSleepsLosesTheLockAndWaitsForItWithPriorityInheritanceOnItsWayBack() {
    // A (SCHED_FIFO 50) takes the BKL at 0 and sleeps 1 ms holding it: schedule() drops it.
    // B (SCHED_OTHER) takes it at 100 us and holds it 5 ms. A's sleep ends at 1 ms and it
    // preempts B, which keeps the lock; A's schedule() tail finds it owned, sleeps on it and
    // lends B its priority, and has it back at B's unlock_kernel(), 5.1 ms.
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = thenRest(KernelPath.userProgram("A")
        .syscall(k("a").lockKernel(bkl).sleepFor(MS).effect("A back", note(seen, "A back", bkl)).unlockKernel(bkl)
            .build()));
    KernelPath b = thenRest(KernelPath.userProgram("B").compute(100 * US)
        .syscall(k("b").lockKernel(bkl).effect("B in", note(seen, "B in", bkl)).compute(5 * MS)
            .effect("B out", note(seen, "B out", bkl)).unlockKernel(bkl).build()));
    Kernel kernel = boot(true, TaskSpec.user("A", a).fifo(50), TaskSpec.user("B", b));
    int[] loan = {-1};
    int[] depthOfA = {7};
    kernel.machine().simulation().schedule(new Event("look", x -> {
      loan[0] = kernel.task("B").orElseThrow().inheritedRtPriority();
      depthOfA[0] = kernel.task("A").orElseThrow().lockDepth();
    }), 3 * MS);
    kernel.run(30 * MS);
    kernel.checkInvariants();
    assertThat(seen).containsExactly(
        new Seen("B in", 100 * US, 0, 0, "B"),
        new Seen("B out", 5100 * US, 0, 0, "B"),
        new Seen("A back", 5100 * US, 0, 0, "A"));
    assertThat(loan[0]).as("B runs on A's priority while A waits in schedule()").isEqualTo(50);
    assertThat(depthOfA[0]).as("__reacquire_kernel_lock sets the depth -1 while it waits").isEqualTo(-1);
    assertThat(bkl.contentions()).isEqualTo(1);
    assertThat(bkl.acquisitions()).as("A's lock_kernel, B's, A's retake").isEqualTo(3);
    assertThat(kernel.task("B").orElseThrow().inheritedRtPriority()).isZero();
  }

  @Test
  void aTaskPreemptedBeforeAnyoneTookTheBklComesBackWithoutIt() {
    // A computes 5 ms in the kernel holding nothing; H (SCHED_FIFO 50) wakes 1 ms in, preempts
    // it, and is the first to take the BKL (which binds kernel_flag, so only now does it sleep).
    // A's preempt_schedule() hid no depth, and must restore none.
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = thenRest(KernelPath.userProgram("A")
        .syscall(k("a_works").compute(5 * MS).effect("A done", note(seen, "A done", bkl)).build()));
    KernelPath h = thenRest(KernelPath.userProgram("H")
        .syscall(k("h_naps").sleepFor(MS).lockKernel(bkl).effect("H in", note(seen, "H in", bkl)).unlockKernel(bkl)
            .build()));
    Kernel kernel = boot(true, TaskSpec.user("A", a), TaskSpec.user("H", h).fifo(50));
    kernel.run(30 * MS);
    kernel.checkInvariants();
    assertThat(seen).extracting(Seen::what, Seen::lockDepth).containsExactly(tuple("H in", 0), tuple("A done", -1));
  }

  @Test
  void aChainBackThroughTheBigKernelLockIsNoDeadlock() {
    // T3 (cpu0) holds C over 0-2 ms. T1 (SCHED_FIFO 50, cpu1) wakes at ~1 ms, takes the BKL and
    // A, and sleeps on C: its schedule() drops the BKL. T2 (cpu1) takes the BKL at 1.5 ms. At 2
    // ms T1 has C, and sleeps on the BKL in __reacquire_kernel_lock, holding A. At ~3.5 ms T2
    // wants A: T2 -> A -> T1 -> kernel_flag -> T2 is a cycle, but T2's sleep drops the BKL, so
    // T1 goes on and hands A over (2.6.12's kernel_sem; an rt_mutex cycle would be a deadlock).
    SpinLock bkl = SpinLock.bigKernelLock();
    SpinLock a = SpinLock.spin("lock_a");
    SpinLock cLock = SpinLock.spin("lock_c");
    List<Seen> seen = new ArrayList<>();
    KernelPath t3 = thenRest(KernelPath.userProgram("T3")
        .syscall(k("t3").spinLock(cLock).compute(2 * MS).spinUnlock(cLock).build()));
    KernelPath t1 = thenRest(KernelPath.userProgram("T1")
        .syscall(k("t1_naps").sleepFor(MS).build())
        .syscall(k("t1").lockKernel(bkl).spinLock(a).spinLock(cLock).effect("T1 has C", note(seen, "T1 has C", bkl))
            .compute(100 * US).spinUnlock(cLock).spinUnlock(a).unlockKernel(bkl).effect("T1 out", note(seen, "T1 out", bkl))
            .build()));
    KernelPath t2 = thenRest(KernelPath.userProgram("T2").compute(1500 * US)
        .syscall(k("t2").lockKernel(bkl).compute(2 * MS).spinLock(a).effect("T2 has A", note(seen, "T2 has A", bkl))
            .spinUnlock(a).unlockKernel(bkl).build()));
    Kernel kernel = boot(2, true,
        TaskSpec.user("T3", t3).onCpu(0).allowedOn(1),
        TaskSpec.user("T1", t1).fifo(50).onCpu(1).allowedOn(2),
        TaskSpec.user("T2", t2).onCpu(1).allowedOn(2));
    kernel.run(30 * MS);
    kernel.checkInvariants();
    assertThat(seen).extracting(Seen::what).containsExactly("T1 has C", "T1 out", "T2 has A");
    assertThat(seen.get(2).owner()).as("T2 has the BKL back").isEqualTo("T2");
    assertThat(bkl.contentions()).as("T1's retake").isEqualTo(1);
    assertThat(a.contentions()).as("T2's wait for A").isEqualTo(1);
  }

  @Test
  void nestedLockKernelOnlyCountsTheDepthAndHoldsNoPreemptCount() {
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = thenRest(KernelPath.userProgram("A")
        .syscall(k("nest").lockKernel(bkl).lockKernel(bkl).effect("inner", note(seen, "inner", bkl))
            .unlockKernel(bkl).effect("outer", note(seen, "outer", bkl))
            .unlockKernel(bkl).effect("out", note(seen, "out", bkl)).build()));
    Kernel kernel = boot(true, TaskSpec.user("A", a));
    kernel.run(5 * MS);
    kernel.checkInvariants();
    assertThat(seen).containsExactly(
        new Seen("inner", 0, 1, 0, "A"), new Seen("outer", 0, 0, 0, "A"), new Seen("out", 0, -1, 0, "-"));
    assertThat(bkl.acquisitions()).isEqualTo(1);
  }

  @Test
  void aSleepingBklOwnedByATaskAtDepthMinusOneThatWasNotPreemptedBreaksTheInvariants() {
    SpinLock bkl = SpinLock.bigKernelLock();
    KernelPath a = thenRest(KernelPath.userProgram("A").syscall(k("once").lockKernel(bkl).unlockKernel(bkl).build()));
    Kernel kernel = boot(true, TaskSpec.user("A", a));
    kernel.run(5 * MS);
    kernel.checkInvariants();
    bkl.sleeper.owner = kernel.task("A").orElseThrow(); // asleep in its rest, lock_depth -1
    assertThatThrownBy(kernel::checkInvariants).hasMessageContaining("big kernel lock without a holder");
  }

  @Test
  void onSmpTheLoanKeepsAMiddlePriorityTaskFromPreemptingTheHolderItsWaiterOnTheOtherCpuWaitsFor() {
    // A (SCHED_OTHER, cpu1) holds the BKL over 5 ms from 0. H (SCHED_FIFO 50, cpu0) wants it
    // after a 1 ms nap and lends A its priority. M (SCHED_FIFO 10, cpu1) wakes 2 ms in: it does
    // not outrank A's loan, so it runs only once A's unlock_kernel() hands the lock to H.
    SpinLock bkl = SpinLock.bigKernelLock();
    List<Seen> seen = new ArrayList<>();
    KernelPath a = thenRest(KernelPath.userProgram("A")
        .syscall(k("a_holds").lockKernel(bkl).compute(5 * MS).unlockKernel(bkl).build()));
    KernelPath h = thenRest(KernelPath.userProgram("H")
        .syscall(k("h_naps").sleepFor(MS).build())
        .syscall(k("h_takes").lockKernel(bkl).effect("H in", note(seen, "H in", bkl)).unlockKernel(bkl).build()));
    KernelPath m = thenRest(KernelPath.userProgram("M")
        .syscall(k("m_naps").sleepFor(2 * MS).effect("M runs", note(seen, "M runs", bkl)).build()));
    Kernel kernel = boot(2, true,
        TaskSpec.user("A", a).onCpu(1).allowedOn(2),
        TaskSpec.user("H", h).fifo(50).onCpu(0).allowedOn(1),
        TaskSpec.user("M", m).fifo(10).onCpu(1).allowedOn(2));
    kernel.run(30 * MS);
    kernel.checkInvariants();
    // the same instant on two CPUs (a zero-cost machine): which is noted first is the event order's
    assertThat(seen).extracting(Seen::what, Seen::at).containsExactlyInAnyOrder(tuple("H in", 5 * MS), tuple("M runs", 5 * MS));
    assertThat(bkl.contentions()).isEqualTo(1);
  }
}
