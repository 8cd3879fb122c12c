package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.kernel.CondReschedLock.Then;
import dev.kernellab.kernel.CondReschedLock.When;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The phases of the lock-break primitive ({@link CondReschedLock}) with the decisions a patch
 * passes in, on the zero-cost uniprocessor of docs/golden-scenarios.md: P (SCHED_FIFO 99)
 * sleeps on the RTC; B walks a 10-iteration loop of 1 ms under L from t = 0, breaking L at the
 * end of every iteration; the RTC fires at 2.5 ms and its handler wakes P, which sets B's
 * need_resched. The first break after that is at 3 ms.
 */
class CondReschedLockTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final long T_IRQ = 2_500_000;
  private static final Site WALK = new Site("fs/test.c", "walk", "walk");

  /** B's walk: L (and {@code outer} if any, outside it) held across a 10 x 1 ms loop at WALK. */
  private static KernelPath walk(SpinLock outer, SpinLock l, java.util.function.Consumer<KernelPath.Builder> after) {
    KernelPath.Builder b = KernelPath.path(WALK.file(), WALK.function());
    if (outer != null) {
      b.spinLock(outer);
    }
    b.spinLock(l).loop(WALK, 10, body -> {
      body.compute(MS);
      after.accept(body);
    }).spinUnlock(l);
    if (outer != null) {
      b.spinUnlock(outer);
    }
    return b.build();
  }

  private static KernelBuilder builder(RtcProbeRig rig, KernelPath k, boolean preempt, Tracer t) {
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    if (preempt) {
      b.patch(CountZeroPreemption.patch());
    }
    if (t != null) {
      b.tracer(t);
    }
    return b;
  }

  private static long latency(KernelPath k, boolean preempt) {
    RtcProbeRig rig = new RtcProbeRig();
    return rig.firstLatency(builder(rig, k, preempt, null), T_IRQ, 30 * MS);
  }

  /** A patch that runs {@code hook} between the iterations of the loops at {@code site}. */
  private static KernelPatch hooking(Site site, KernelPath hook) {
    return new KernelPatch() {
      @Override
      public String name() {
        return "test-break";
      }

      @Override
      public void apply(Patching k) {
        k.hookSite(site, hook);
      }
    };
  }

  /**
   * The test is told how many iterations have run, the one just ended included: a hook between
   * iterations sees 1..9 (none after the last), a break at the end of the body 1..10.
   */
  @Test
  void theTestCountsTheIterationsThatHaveRunAtAHookAndInline() {
    SpinLock l = SpinLock.spin("L");
    List<Long> inline = new ArrayList<>();
    List<Long> hooked = new ArrayList<>();
    KernelPath k = walk(null, l, body -> body.condReschedLock("inline(&L)", List.of(l),
        (cpu, iterations) -> {
          inline.add(iterations);
          return false;
        }, Then.SCHEDULE, 0));
    KernelPath hook = KernelPath.path(WALK.file(), WALK.function() + "/hook")
        .condReschedLock("hook(&L)", List.of(l), (cpu, iterations) -> {
          hooked.add(iterations);
          return false;
        }, Then.SCHEDULE, 0)
        .build();
    RtcProbeRig rig = new RtcProbeRig();
    builder(rig, k, false, null).patch(hooking(WALK, hook)).build().run(20 * MS);
    assertThat(inline).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    assertThat(hooked).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
  }

  /** Not due: no lock dropped, no revalidation paid; P waits for B's return to user at 10 ms. */
  @Test
  void aBreakThatIsNotDueTouchesNothingAndCostsNothing() {
    SpinLock l = SpinLock.spin("L");
    List<Long> end = new ArrayList<>();
    KernelPath k = KernelPath.path(WALK.file(), WALK.function())
        .spinLock(l)
        .loop(WALK, 10, body -> body.compute(MS)
            .condReschedLock("never(&L)", List.of(l), (cpu, i) -> false, Then.SCHEDULE, 100 * US))
        .spinUnlock(l)
        .effect("end", c -> end.add(c.now()))
        .build();
    assertThat(latency(k, false)).isEqualTo(7_500 * US);
    assertThat(end).containsExactly(10 * MS);
    assertThat(l.acquisitions()).isEqualTo(1);
  }

  /**
   * {@link Then#NOTHING} ({@code break_spin_lock}): the unlock is the only way out. Without
   * preemption B keeps the CPU to the end of its system call (10 ms); with it, the unlock at
   * 3 ms preempts B for P. The walk is not shortened: every iteration's break retakes L.
   */
  @Test
  void thenNothingLetsTheWokenTaskRunOnlyIfTheUnlockPreempts() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k = walk(null, l, body -> body.condReschedLock("break_spin_lock(&L)", List.of(l),
        When.every(1), Then.NOTHING, 0));
    assertThat(latency(k, false)).isEqualTo(7_500 * US);
    assertThat(l.acquisitions()).as("the first take and a retake after each of 10 breaks").isEqualTo(11);
    SpinLock m = SpinLock.spin("L");
    KernelPath km = walk(null, m, body -> body.condReschedLock("break_spin_lock(&L)", List.of(m),
        When.every(1), Then.NOTHING, 0));
    assertThat(latency(km, true)).isEqualTo(500 * US);
  }

  /**
   * The drop is a preemption point only when the count reaches zero: with an outer lock held
   * across the walk and not broken, the unlock of L leaves preempt_count at 1, and P waits for
   * the outer unlock at 10 ms even under preemption.
   */
  @Test
  void anUnlockThatLeavesALockHeldIsNoPreemptionPoint() {
    SpinLock outer = SpinLock.spin("outer");
    SpinLock l = SpinLock.spin("L");
    KernelPath k = walk(outer, l, body -> body.condReschedLock("break_spin_lock(&L)", List.of(l),
        When.every(1), Then.NOTHING, 0));
    assertThat(latency(k, true)).isEqualTo(7_500 * US);
  }

  /**
   * What runs with the lock dropped, counted in schedule() calls between 2.5 and 3.5 ms.
   * Without preemption, both {@link Then#COND_RESCHED} and {@link Then#SCHEDULE} switch to P
   * at the break (one schedule()) and P's sleep switches back (a second). With preemption the
   * unlock already switched to P and cleared need_resched: COND_RESCHED then does nothing,
   * SCHEDULE calls schedule() a third time.
   */
  @Test
  void thenCondReschedSchedulesOnlyIfStillNeededAndThenScheduleAlways() {
    int[][] schedules = new int[2][2];
    long[][] latencies = new long[2][2];
    Then[] thens = {Then.COND_RESCHED, Then.SCHEDULE};
    for (int t = 0; t < 2; t++) {
      for (int preempt = 0; preempt < 2; preempt++) {
        SpinLock l = SpinLock.spin("L");
        Then then = thens[t];
        KernelPath k = walk(null, l, body -> body.condReschedLock("break(&L)", List.of(l),
            When.needResched(), then, 0));
        int[] count = schedules[t];
        int p = preempt;
        Tracer tracer = new Tracer() {
          @Override
          public void pathEnter(long now, int cpu, PathView path) {
            if (path.function().equals("schedule") && now >= T_IRQ && now < 3_500 * US) {
              count[p]++;
            }
          }
        };
        RtcProbeRig rig = new RtcProbeRig();
        latencies[t][preempt] = rig.firstLatency(builder(rig, k, preempt == 1, tracer), T_IRQ, 30 * MS);
      }
    }
    assertThat(latencies).as("P runs at the 3 ms break in every case")
        .isDeepEqualTo(new long[][] {{500 * US, 500 * US}, {500 * US, 500 * US}});
    assertThat(schedules[0]).as("COND_RESCHED without, with preemption").containsExactly(2, 2);
    assertThat(schedules[1]).as("SCHEDULE without, with preemption").containsExactly(2, 3);
  }

  /**
   * The revalidation is paid after the retake, with the locks held: the fourth iteration starts
   * at 3 ms + 50 us, L held again; with no reschedule due, a COND_RESCHED break every 3rd
   * iteration still drops and retakes L (the chunked walk), schedules nobody, and pays each
   * time.
   */
  @Test
  void theRevalidationIsPaidWithTheLocksRetakenDueOrNotDue() {
    SpinLock l = SpinLock.spin("L");
    List<String> starts = new ArrayList<>();
    List<String> switches = new ArrayList<>();
    KernelPath k = KernelPath.path(WALK.file(), WALK.function())
        .spinLock(l)
        .loop(WALK, 6, body -> body
            .effect("start", c -> starts.add(c.loopIndex() + "@" + c.now() / US + " held=" + l.isHeldExclusive()))
            .compute(MS)
            .condReschedLock("chunk(&L)", List.of(l), When.every(3), Then.COND_RESCHED, 50 * US))
        .spinUnlock(l)
        .build();
    RtcProbeRig rig = new RtcProbeRig();
    builder(rig, k, false, new Tracer() {
      @Override
      public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
        if (now > 0) {
          switches.add(prev.comm() + "->" + next.comm());
        }
      }
    }).build().run(9 * MS);
    assertThat(starts).containsExactly(
        "0@0 held=true", "1@1000 held=true", "2@2000 held=true",
        "3@3050 held=true", "4@4050 held=true", "5@5050 held=true");
    assertThat(l.acquisitions()).as("the first take, a retake at 3 ms and at 6.05 ms").isEqualTo(3);
    assertThat(switches).isEmpty();
  }

  @Test
  void aBreakNeedsADescriptionItsLocksATestAndANonNegativeCost() {
    SpinLock l = SpinLock.spin("L");
    KernelPath.Builder b = KernelPath.path("fs/test.c", "bad");
    When always = When.every(1);
    assertThatIllegalArgumentException().isThrownBy(() -> When.every(0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock(" ", List.of(l), always, Then.SCHEDULE, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock("x", List.of(), always, Then.SCHEDULE, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock("x", java.util.Arrays.asList(l, null), always, Then.SCHEDULE, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock("x", List.of(l), always, Then.SCHEDULE, -1));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock("x", List.of(l), null, Then.SCHEDULE, 0));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> b.condReschedLock("x", List.of(l), always, null, 0));
    assertThat(b.condReschedLock("break_spin_lock(&L)", List.of(l), always, Then.NOTHING, 0)).isSameAs(b);
    assertThat(b.build().listing()).containsExactly("break_spin_lock(&L)");
    assertThat(When.every(2).and(When.every(3)).due(null, 6)).isTrue();
    assertThat(When.every(2).and(When.every(3)).due(null, 4)).isFalse();
  }
}
