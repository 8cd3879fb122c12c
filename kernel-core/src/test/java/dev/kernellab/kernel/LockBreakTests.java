package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.CondReschedLock.Then;
import dev.kernellab.kernel.CondReschedLock.When;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Tracer;
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
   * 3 + 0.05 + 7 = 10.05 ms; a walk that drops its lock every 3rd iteration, due or not (the
   * low-latency patch's chunked zap_page_range), runs all 6, ending at 6 ms + 2 x 100 us. (The
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
        .loop(ZAP, 6, body -> body.compute(MS).condReschedLock("unlock(&page_table_lock); cond_resched()",
            List.of(pt), When.every(3), Then.COND_RESCHED, 100 * US))
        .spinUnlock(pt)
        .effect("end", c -> zapEnd.add(c.now()))
        .build();
    new RtcProbeRig().builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(zap)).build().run(9 * MS);
    assertThat(zapEnd).containsExactly(6_200_000L);
    assertThat(pt.acquisitions()).isEqualTo(3);
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
        .loop(WALK2, 10, body -> body.compute(MS).condReschedLock("cond_resched_lock(&outer, &inner)",
            List.of(outer, inner), When.needResched(), Then.SCHEDULE, 50 * US))
        .spinUnlock(inner).spinUnlock(outer)
        .effect("end", c -> end.add(c.now()))
        .build();
    // The walk's locks only: do_IRQ's mask_and_ack_8259A takes i8259A_lock on every interrupt.
    Tracer locks = new Tracer() {
      @Override
      public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
        // the walk's locks only: the timer bottom half takes timerlist_lock on every tick
        if (lock == outer || lock == inner) {
          trace.add("+" + lock + "@" + now / US);
        }
      }

      @Override
      public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
        if (lock == outer || lock == inner) {
          trace.add("-" + lock + "@" + now / US);
        }
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

  @Test
  void aLockBreakNeedsALockAPositivePeriodAndANonNegativeCost() {
    SpinLock l = SpinLock.spin("L");
    KernelPath.Builder b = KernelPath.path("fs/test.c", "bad");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock("cond_resched_lock()", List.of(), When.needResched(), Then.SCHEDULE, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> When.every(0));
    assertThatIllegalArgumentException().isThrownBy(() -> b.condReschedLock(l, -1));
    assertThatIllegalArgumentException().isThrownBy(() -> b.condReschedLock(null, 0));
    assertThat(b.condReschedLock(l, 0)).isSameAs(b);
  }
}
