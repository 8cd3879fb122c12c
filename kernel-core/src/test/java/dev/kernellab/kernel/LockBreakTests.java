package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lock breaks inside a long loop, as 2.4.17's own loops and the low-latency patch write them
 * ({@code if (need_resched) { spin_unlock(&l); schedule(); spin_lock(&l); }}, then the
 * revalidation), on the zero-cost uniprocessor of docs/golden-scenarios.md without
 * CONFIG_PREEMPT: P (SCHED_FIFO 99) sleeps on the RTC; B walks a 10-iteration loop of 1 ms
 * under L from t = 0; the RTC fires at 2.5 ms and its handler wakes P, which sets B's
 * need_resched. P's latency is the instant it is back in user mode minus 2.5 ms.
 */
class LockBreakTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final long T_IRQ = 2_500_000;
  private static final Site WALK = new Site("fs/test.c", "walk", "walk");
  private static final Site WALK2 = new Site("fs/test.c", "walk2", "walk");
  private static final Site ZAP = new Site("mm/memory.c", "zap_page_range", "zap");

  private static KernelPath walk(SpinLock l, java.util.function.Consumer<KernelPath.Builder> after,
      List<Long> end) {
    return KernelPath.path("fs/test.c", "walk")
        .spinLock(l)
        .loop(WALK, 10, body -> {
          body.compute(MS);
          after.accept(body);
        })
        .spinUnlock(l)
        .effect("end", c -> end.add(c.now()))
        .build();
  }

  private static long latency(RtcProbeRig rig, KernelPath k) {
    return rig.firstLatency(rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k)), T_IRQ, 30 * MS);
  }

  /**
   * need_resched is set at 2.5 ms; the next lock break is at the end of the third iteration,
   * 3 ms: L dropped (held 0..3 ms), P runs (latency 0.5 ms), B retakes L at 3 ms and pays
   * 50 us before the fourth iteration starts, at 3.05 ms.
   */
  @Test
  void aDueLockBreakDropsTheLockSchedulesRetakesItAndPaysTheRevalidation() {
    RtcProbeRig rig = new RtcProbeRig();
    SpinLock l = SpinLock.spin("L");
    List<Long> end = new ArrayList<>();
    List<String> starts = new ArrayList<>();
    KernelPath k = KernelPath.path("fs/test.c", "walk")
        .spinLock(l)
        .loop(WALK, 10, body -> body
            .effect("start", c -> starts.add(c.loopIndex() + "@" + c.now() / US + " held=" + l.isHeldExclusive()))
            .compute(MS)
            .condReschedLock(l, 50 * US))
        .spinUnlock(l)
        .effect("end", c -> end.add(c.now()))
        .build();
    long lat = latency(rig, k);
    assertThat(lat).isEqualTo(MS / 2);
    assertThat(starts.subList(0, 4))
        .containsExactly("0@0 held=true", "1@1000 held=true", "2@2000 held=true", "3@3050 held=true");
    assertThat(l.acquisitions()).isEqualTo(2);
    assertThat(l.holdHistogram()[22]).as("the first hold, 3 ms: 2^21 <= 3e6 < 2^22").isEqualTo(1);
  }

  /**
   * A lock break resumes the same walk (2.4.17 mm/vmscan.c shrink_cache: unlock, schedule,
   * lock, go on): the loop still runs all 10 iterations after a break, ending at
   * 3 + 0.05 + 7 = 10.05 ms; the chunked walk runs all 6, ending at 6 ms + 2 x 100 us. (The
   * retake once kept its lock index in the loop body's iteration count, which ended the walk
   * locks.length iterations after the break: at 4.05 and 4.1 ms.)
   */
  @Test
  void aLockBreakDoesNotShortenTheLoopItSitsIn() {
    RtcProbeRig rig = new RtcProbeRig();
    SpinLock l = SpinLock.spin("L");
    List<Long> end = new ArrayList<>();
    latency(rig, walk(l, b -> b.condReschedLock(l, 50 * US), end));
    assertThat(end).containsExactly(10_050_000L);
    assertThat(l.maxHoldNs()).isEqualTo(7_050_000);

    SpinLock pt = SpinLock.spin("page_table_lock");
    List<Long> zapEnd = new ArrayList<>();
    KernelPath zap = KernelPath.path("mm/memory.c", "zap_page_range")
        .spinLock(pt)
        .loop(ZAP, 6, body -> body.compute(MS).dropLocksEvery(List.of(pt), 3, 100 * US))
        .spinUnlock(pt)
        .effect("end", c -> zapEnd.add(c.now()))
        .build();
    new RtcProbeRig().builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(zap)).build().run(9 * MS);
    assertThat(zapEnd).containsExactly(6_200_000L);
    assertThat(pt.acquisitions()).isEqualTo(3);
  }

  /** Every 2nd iteration only ((i + 1) % 2 == 0): the first due look is at the 4th's end, 4 ms. */
  @Test
  void aCountedLockBreakLooksOnlyEveryNthIteration() {
    RtcProbeRig rig = new RtcProbeRig();
    SpinLock l = SpinLock.spin("L");
    List<Long> end = new ArrayList<>();
    long lat = latency(rig, walk(l, b -> b.condReschedLock(l, 50 * US, null, 2), end));
    assertThat(lat).isEqualTo(1_500_000);
    assertThat(l.acquisitions()).isEqualTo(2);
  }

  /** The gate off: no break at all; P runs when B's system call returns at 10 ms: 7.5 ms. */
  @Test
  void aLockBreakBehindASysctlThatIsOffNeverBreaks() {
    RtcProbeRig rig = new RtcProbeRig();
    SpinLock l = SpinLock.spin("L");
    Sysctl off = new Sysctl("kernel/lowlatency", false);
    List<Long> end = new ArrayList<>();
    long lat = latency(rig, walk(l, b -> b.condReschedLock(l, 50 * US, off, 1), end));
    assertThat(lat).isEqualTo(7_500_000);
    assertThat(end).containsExactly(10 * MS);
    assertThat(l.acquisitions()).isEqualTo(1);
  }

  /**
   * Two nested locks are dropped innermost first and retaken outermost first; P runs with
   * neither held and preempt_count 0.
   */
  @Test
  void aLockBreakOfNestedLocksRunsTheWokenTaskWithNoLockHeld() {
    RtcProbeRig rig = new RtcProbeRig();
    SpinLock outer = SpinLock.spin("outer");
    SpinLock inner = SpinLock.spin("inner");
    List<String> trace = new ArrayList<>();
    List<Long> end = new ArrayList<>();
    KernelPath k = KernelPath.path("fs/test.c", "walk2")
        .spinLock(outer).spinLock(inner)
        .loop(WALK2, 10, body -> body.compute(MS).condReschedLock(List.of(outer, inner), 50 * US, null, 1))
        .spinUnlock(inner).spinUnlock(outer)
        .effect("end", c -> end.add(c.now()))
        .build();
    Tracer locks = new Tracer() {
      @Override
      public void lockAcquire(long now, int cpu, SpinLock lock, KernelPath path, long spunNs) {
        trace.add("+" + lock + "@" + now / US);
      }

      @Override
      public void lockRelease(long now, int cpu, SpinLock lock, KernelPath path, long heldNs) {
        trace.add("-" + lock + "@" + now / US);
      }
    };
    KernelPath probe = KernelPath.userProgram("probe2")
        .loop("main", Long.MAX_VALUE, x -> x
            .syscall(rig.rtcRead)
            .probe((c, t, now) -> trace.add("P@" + now / US + " held=" + c.heldLockCount()
                + " count=" + t.preemptCount())))
        .build();
    Kernel kernel = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(locks)
        .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
        .task(TaskSpec.user("P", probe).fifo(99))
        .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)))
        .build();
    RtcProbeRig.assertRtcAt(kernel, T_IRQ);
    kernel.run(30 * MS);
    assertThat(trace.subList(0, 7)).containsExactly(
        "+outer@0", "+inner@0", "-inner@3000", "-outer@3000", "P@3000 held=0 count=0",
        "+outer@3000", "+inner@3000");
    assertThat(trace.subList(7, trace.size())).as("released at the end, inner first")
        .hasSize(2).allMatch(x -> x.startsWith("-")).first().asString().startsWith("-inner@");
  }

  /**
   * The low-latency patch's zap_page_range chunking: the locks are dropped at every 3rd
   * iteration (index 2 is the first) whether or not a reschedule is due, the drop paying
   * 100 us (the TLB flush); with no reschedule due nobody else runs, and the 4th iteration
   * starts at 3 ms + 100 us with the lock held again.
   */
  @Test
  void aChunkedWalkDropsItsLocksEveryChunkAndPaysEachTime() {
    SpinLock l = SpinLock.spin("page_table_lock");
    List<String> starts = new ArrayList<>();
    List<String> switches = new ArrayList<>();
    KernelPath k = KernelPath.path("mm/memory.c", "zap_page_range")
        .spinLock(l)
        .loop(ZAP, 6, body -> body
            .effect("start", c -> starts.add(c.loopIndex() + "@" + c.now() / US + " held=" + l.isHeldExclusive()))
            .compute(MS).dropLocksEvery(List.of(l), 3, 100 * US))
        .spinUnlock(l)
        .build();
    RtcProbeRig rig = new RtcProbeRig();
    rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k))
        .tracer(new Tracer() {
          @Override
          public void schedSwitch(long now, int cpu, Task prev, Task next) {
            if (now > 0) {
              switches.add(prev.comm() + "->" + next.comm());
            }
          }
        })
        .build().run(9 * MS);
    assertThat(starts.subList(0, 4))
        .containsExactly("0@0 held=true", "1@1000 held=true", "2@2000 held=true", "3@3100 held=true");
    assertThat(l.acquisitions()).as("the first take and the retake").isGreaterThanOrEqualTo(2);
    assertThat(l.maxHoldNs()).as("0..3 ms, the first stretch").isGreaterThanOrEqualTo(3 * MS);
    assertThat(switches).as("no reschedule due: the drop schedules nobody").isEmpty();
  }

  @Test
  void aLockBreakNeedsALockAPositivePeriodAndANonNegativeCost() {
    SpinLock l = SpinLock.spin("L");
    KernelPath.Builder b = KernelPath.path("fs/test.c", "bad");
    assertThatIllegalArgumentException().isThrownBy(() -> b.condReschedLock(List.of(), 0, null, 1));
    assertThatIllegalArgumentException().isThrownBy(() -> b.condReschedLock(l, 0, null, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> b.condReschedLock(l, -1));
    assertThat(b.condReschedLock(l, 0, null, 1)).isSameAs(b);
  }
}
