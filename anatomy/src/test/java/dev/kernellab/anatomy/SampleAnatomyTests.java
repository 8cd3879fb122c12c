package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.workloads.ProbeSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The anatomy's records: their sums are checked, and the dominant part is the kernel's longest. */
class SampleAnatomyTests {

  private static final TaskId PROBE = new TaskId("realfeel", 5);
  private static final TaskId B = new TaskId("B", 6);
  private static final KernelPath K = KernelPath.path("scenario/k.c", "K").build();

  private static Cause.Holding held(long ns) {
    return new Cause.NotPreemptible(B, K, ns, false, false, Optional.empty(), 0);
  }

  @Test
  void thePartsMustAddUpToTheSample() {
    List<Segment> parts = List.of(
        Segment.of(Part.INTERRUPT_LATENCY, 10, new Cause.TakenAtOnce()),
        Segment.of(Part.SWITCH_TO_USER, 5, new Cause.ReturnToUser()));
    assertThat(new SampleAnatomy(15, 100, 0, PROBE, parts).segments()).hasSize(2);
    assertThatIllegalArgumentException().isThrownBy(() -> new SampleAnatomy(16, 100, 0, PROBE, parts))
        .withMessage("the parts add up to 15 ns, the sample is 16 ns");
    assertThatIllegalArgumentException().isThrownBy(() -> new SampleAnatomy(0, 100, 0, PROBE, List.of()))
        .withMessage("a sample has at least one part");
  }

  @Test
  void aWaitsHoldersMustAddUpToTheWait() {
    Segment wait = new Segment(Part.WAIT_FOR_CPU, 30, held(20), List.of(held(20), held(10)));
    assertThat(wait.holders()).hasSize(2);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Segment(Part.WAIT_FOR_CPU, 31, held(20), List.of(held(20), held(10))))
        .withMessage("WAIT_FOR_CPU of 31 ns: its holders add up to 30 ns");
    assertThatIllegalArgumentException().isThrownBy(() -> Segment.of(Part.HANDLER, -1, new Cause.Handler(8)))
        .withMessage("HANDLER: a negative length, -1 ns");
  }

  @Test
  void aPriorityCauseWrapsOnlyWhatAHigherPriorityPreemptsAndUnwrapsToIt() {
    TaskId w = new TaskId("irq/8-rtc", 3);
    Cause.Holding preemptible =
        new Cause.NotPreemptible(B, K, 20, true, false, Optional.empty(), 0);
    Cause.Holding lent = new Cause.LentPriority(B, K, 60, 20, 0);
    Cause.Holding user = new Cause.UserMode(B, 20);
    for (Cause.Holding h : List.of(preemptible, lent, user)) {
      Cause.PriorityNotLower p = new Cause.PriorityNotLower(h, B, SchedPolicy.FIFO, 50, w, 50);
      assertThat(Cause.unwrapped(p)).isSameAs(h);
      assertThat(p.ns()).isEqualTo(20);
    }
    assertThat(Cause.unwrapped(user)).isSameAs(user);
    SpinLock raw = SpinLock.raw("r");
    List<Cause.Holding> keepTheCpu = List.of(
        new Cause.InterruptsOff(B, K, 20, 0),
        new Cause.SpinlockHeld(B, K, raw, 20, 0, true),
        new Cause.SpinlockHeld(B, K, SpinLock.spin("s"), 20, 0),
        new Cause.BigKernelLockHeld(B, K, SpinLock.bigKernelLock(), 20, 0),
        new Cause.BottomHalvesOff(B, K, 20, 0),
        new Cause.PreemptCountHeld(B, K, 1, 20, 0),
        held(20),
        new Cause.InterruptHandler(K, B, 20),
        new Cause.Idle(B, 20));
    for (Cause.Holding h : keepTheCpu) {
      assertThat(Cause.PriorityNotLower.preemptibleByPriority(h)).as(h.toString()).isFalse();
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new Cause.PriorityNotLower(h, B, SchedPolicy.FIFO, 50, w, 50))
          .withMessageStartingWith("a priority cause holds what a higher priority preempts, not ");
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Cause.PriorityNotLower(user, B, SchedPolicy.FIFO, 49, w, 50))
        .withMessageContaining("does not hold off");
  }

  @Test
  void theDominantPartIsTheLongestTheEarliestOfEquals() {
    SampleAnatomy a = new SampleAnatomy(30, 0, 0, PROBE, List.of(
        Segment.of(Part.INTERRUPT_LATENCY, 10, new Cause.TakenAtOnce()),
        Segment.of(Part.HANDLER, 10, new Cause.Handler(8)),
        Segment.of(Part.SWITCH_TO_USER, 10, new Cause.ReturnToUser())));
    assertThat(a.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(a.culprit()).isEqualTo(new Cause.TakenAtOnce());
    assertThat(a.segment(Part.HANDLER)).isPresent();
    assertThat(a.segment(Part.WAIT_FOR_CPU)).isEmpty();
  }

  /** A timer's rounding is what 2.4's timers promise; the culprit is what the kernel added. */
  @Test
  void theTimersGranularityDominatesOnlyASampleWithNothingElse() {
    Cause rounding = new Cause.TimerRounding(0, 10_000_000, 100);
    SampleAnatomy late = new SampleAnatomy(10_003_000, 0, 0, PROBE, List.of(
        Segment.of(Part.TIMER_GRANULARITY, 10_000_000, rounding),
        Segment.of(Part.INTERRUPT_LATENCY, 1_000, new Cause.TakenAtOnce()),
        new Segment(Part.WAIT_FOR_CPU, 2_000, held(2_000), List.of(held(2_000)))));
    assertThat(late.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    SampleAnatomy onTheTick = new SampleAnatomy(10_000_000, 0, 0, PROBE, List.of(
        Segment.of(Part.TIMER_GRANULARITY, 10_000_000, rounding),
        Segment.of(Part.INTERRUPT_LATENCY, 0, new Cause.TakenAtOnce())));
    assertThat(onTheTick.dominant().part()).isEqualTo(Part.TIMER_GRANULARITY);
    assertThat(onTheTick.culprit()).isEqualTo(rounding);
    SampleAnatomy timerOnly = new SampleAnatomy(5, 0, 0, PROBE, List.of(Segment.of(Part.TIMER_GRANULARITY, 5, rounding)));
    assertThat(timerOnly.dominant().part()).isEqualTo(Part.TIMER_GRANULARITY);
  }

  @Test
  void aTaskIsWrittenAsTheKernelWritesIt() {
    assertThat(B).hasToString("B[6]");
    assertThatIllegalArgumentException().isThrownBy(() -> new LatencyAnatomy(
        new ProbeSpec(List.of("realfeel"), 8, ProbeSpec.Start.INTERRUPT_ASSERTION), 0))
        .withMessage("an anatomy keeps at least 1 sample, got 0");
  }

  @Test
  void aDeclaredCauseHandsItsHoldToTheCausesWords() {
    dev.kernellab.kernel.spi.LatencyCause words = h -> h.task() + " " + h.path().function() + " " + h.ns() + " " + h.iterations();
    Cause.Declared d = new Cause.Declared(words, B, K, 42, 7);
    assertThat(d.cause().describe(d.hold())).isEqualTo("B[6] K 42 7");
  }
}
