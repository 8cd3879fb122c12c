package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * rwlocks where spinlocks sleep, as kernel/locking/rwbase_rt.c (6.12) has them, on a zero-cost
 * uniprocessor at HZ 1000 with kernel preemption: A (SCHED_OTHER) holds R for 10 ms of kernel
 * work from t = 0, for read or for write; real-time tasks wake later and want it.
 */
class SleepingRwlockTests {

  private static final long MS = 1_000_000;

  private record Run(Map<String, Long> at, int loanOfA, long contentions, long acquisitions) {}

  /** A task that naps {@code napMs}, then takes R for read or write and lets it go at once. */
  private static KernelPath taker(String name, SpinLock r, long napMs, boolean read, Map<String, Long> at) {
    KernelPath.Builder takes = KernelPath.path("test/r.c", name + "_takes");
    takes = read ? takes.readLock(r).readUnlock(r) : takes.writeLock(r).writeUnlock(r);
    return KernelPath.userProgram(name)
        .syscall(KernelPath.path("test/r.c", name + "_naps").sleepFor(napMs * MS).build())
        .probe((c, t, now) -> at.put(name + " awake", now / MS))
        .syscall(takes.build())
        .probe((c, t, now) -> at.put(name + " had R", now / MS))
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest()))
        .build();
  }

  private static KernelPath rest() {
    return KernelPath.path("test/rest.c", "rest").sleepFor(1000 * MS).build();
  }

  /**
   * A holds R ({@code aReads}: for read) for 10 ms; H (FIFO 50) naps 2 ms and takes it
   * ({@code hReads}); W (FIFO 40), when {@code writerToo}, naps 1 ms and write-locks it.
   */
  private static Run run(boolean sleeping, boolean aReads, boolean hReads, long hNapMs, boolean writerToo) {
    SpinLock r = SpinLock.readerWriter("R");
    Map<String, Long> at = new LinkedHashMap<>();
    KernelPath.Builder holds = KernelPath.path("test/r.c", "a_holds");
    holds = aReads ? holds.readLock(r).compute(10 * MS).readUnlock(r) : holds.writeLock(r).compute(10 * MS).writeUnlock(r);
    KernelPath a = KernelPath.userProgram("A")
        .syscall(holds.build())
        .probe((c, t, now) -> at.put("A done", now / MS))
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest()))
        .build();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .hz(1000)
        .patch(CountZeroPreemption.patch())
        .patch(RtSwitches.of("test-rt", true, true, sleeping))
        .task(TaskSpec.user("A", a))
        .task(TaskSpec.user("H", taker("H", r, hNapMs, hReads, at)).fifo(50));
    if (writerToo) {
      b.task(TaskSpec.user("W", taker("W", r, 1, false, at)).fifo(40));
    }
    Kernel k = b.build();
    int[] loan = {-1};
    k.machine().simulation().schedule(new Event("look", x -> loan[0] = k.task("A").orElseThrow().inheritedRtPriority()), 6 * MS);
    k.run(30 * MS);
    k.checkInvariants();
    assertThat(r.readers()).as("every reader left").isZero();
    return new Run(at, loan[0], r.contentions(), r.acquisitions());
  }

  @Test
  void aSleepingReaderIsPreemptedAndAnotherReaderGetsIn() {
    Run r = run(true, true, true, 2, false);
    assertThat(r.at().get("H awake")).as("H preempts A inside its read section").isBetween(1L, 3L);
    assertThat(r.at().get("H had R")).as("readers share the lock").isEqualTo(r.at().get("H awake"));
    assertThat(r.at().get("A done")).isEqualTo(10L);
    assertThat(r.contentions()).isZero();
    assertThat(r.acquisitions()).as("one hold from the first reader in to the last out").isEqualTo(1);
  }

  @Test
  void aSpinningReaderKeepsTheCpuUntilItUnlocks() {
    Run r = run(false, true, true, 2, false);
    assertThat(r.at().get("H awake")).isEqualTo(10L);
  }

  @Test
  void aWriterSleepsUntilTheLastReaderLeavesAndLendsTheReadersNothing() {
    Run r = run(true, true, false, 2, false);
    assertThat(r.at().get("H awake")).isBetween(1L, 3L);
    assertThat(r.at().get("H had R")).as("woken by A's read_unlock").isEqualTo(10L);
    assertThat(r.loanOfA()).as("PREEMPT_RT cannot boost readers").isZero();
    assertThat(r.contentions()).isEqualTo(1);
    assertThat(r.acquisitions()).isEqualTo(2);
  }

  @Test
  void aReaderSleepsOnAWriteLockedLockAndLendsTheWriterItsPriority() {
    Run r = run(true, false, true, 2, false);
    assertThat(r.at().get("H awake")).isBetween(1L, 3L);
    assertThat(r.loanOfA()).as("A runs on H's priority while H sleeps on R's rt_mutex").isEqualTo(50);
    assertThat(r.at().get("H had R")).isEqualTo(10L);
    assertThat(r.contentions()).isEqualTo(1);
  }

  @Test
  void aReaderGetsInWhileAWriterStillWaitsForTheReaders() {
    // A reads; W (FIFO 40) wants to write at 1 ms and sleeps until A leaves; H (FIFO 50) reads
    // at 4 ms and gets in at once, ahead of W: PREEMPT_RT's rwlocks are not writer fair
    Run r = run(true, true, true, 4, true);
    assertThat(r.at().get("W awake")).isBetween(0L, 2L);
    assertThat(r.at().get("H had R")).isEqualTo(r.at().get("H awake")).isBetween(3L, 5L);
    assertThat(r.at().get("W had R")).isEqualTo(10L);
    assertThat(r.loanOfA()).isZero();
  }
}
