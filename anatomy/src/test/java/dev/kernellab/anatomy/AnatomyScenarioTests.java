package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.workloads.Realfeel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The anatomy on small machines whose answers are known by hand: one CPU, zero costs, realfeel
 * blocked in read() from t = 0 and one RTC interrupt at 1 ms, and a task B whose system call
 * {@code K} holds the CPU.
 *
 * <p>Golden scenario S2: K takes spin_lock(L) at t = 0, computes 5 ms, unlocks, computes 3 ms
 * and returns. Vanilla: 7 ms, all of it a wait for the CPU in B's path; preempt: 4 ms, a wait
 * ending at the unlock, under L.
 */
class AnatomyScenarioTests {

  private static final long MS = 1_000_000;
  // rtc_interrupt's CMOS_READ is port I/O at the machine's isaPortNs, zero here: what is left is
  // its re-arm of rtc_irq_timer and the read's tail
  private static final long DRIVER =
      dev.kernellab.paths.drivers.Rtc.MOD_TIMER_NS + dev.kernellab.paths.drivers.Rtc.READ_TAIL_NS;

  /** The worst sample when B runs the system call {@code k}, with the preempt patch or not. */
  static SampleAnatomy worst(KernelPath k, boolean preempt) {
    return worstWith(k, preempt, b -> { });
  }

  /** {@link #worst}, with {@code more} applied to the builder before it builds. */
  static SampleAnatomy worstWith(KernelPath k, boolean preempt, java.util.function.Consumer<KernelBuilder> more) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelPath b = KernelPath.userProgram("B").syscall(k)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build();
    Realfeel realfeel = new Realfeel(paths, 2048);
    KernelBuilder kb =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 4);
    kb.tracer(anatomy);
    kb.task(realfeel.task()).task(TaskSpec.user("B", b));
    if (preempt) {
      kb.patch(new PreemptKernelPatch());
    }
    more.accept(kb);
    realfeel.listen(anatomy);
    Kernel kernel = kb.build();
    // One interrupt, at 1 ms (the probe's RTC rate is never set, so this is the only one).
    kernel.machine().simulation().schedule(new Event("rtc", t -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), MS);
    kernel.run(20 * MS);
    assertThat(realfeel.result().latency().samples()).isEqualTo(1);
    return anatomy.worst().get(0);
  }

  private static SampleAnatomy worstOfS2(boolean preempt) {
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        KernelPath.path("scenario/s2.c", "K")
            .spinLock(l).compute(5 * MS).spinUnlock(l).compute(3 * MS).build();
    return worst(k, preempt);
  }

  private static long sum(List<Segment> segments) {
    return segments.stream().mapToLong(Segment::ns).sum();
  }

  @Test
  void vanillaWaitsForBsReturnToUserInItsPath() {
    SampleAnatomy w = worstOfS2(false);
    assertThat(w.latencyNs()).isEqualTo(7 * MS + DRIVER);
    assertThat(sum(w.segments())).isEqualTo(w.latencyNs());
    assertThat(w.segments()).extracting(Segment::part).containsExactly(
        Part.INTERRUPT_LATENCY, Part.HANDLER, Part.WAIT_FOR_CPU, Part.SWITCH_TO_USER);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.dominant().ns()).isBetween(7 * MS - DRIVER, 7 * MS);
    assertThat(w.probe().comm()).isEqualTo("realfeel");
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.NotPreemptible.class, c -> {
      assertThat(c.path().location()).isEqualTo("scenario/s2.c:K");
      assertThat(c.task().comm()).isEqualTo("B");
      assertThat(c.kernelPreemptible()).isFalse();
      assertThat(c.siteHooked()).isFalse();
    });
  }

  @Test
  void preemptWaitsForTheUnlockOfL() {
    SampleAnatomy w = worstOfS2(true);
    assertThat(w.latencyNs()).isEqualTo(4 * MS + DRIVER);
    assertThat(sum(w.segments())).isEqualTo(w.latencyNs());
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.SpinlockHeld.class, c -> {
      assertThat(c.path().location()).isEqualTo("scenario/s2.c:K");
      assertThat(c.lock().name()).isEqualTo("L");
      assertThat(c.task().comm()).isEqualTo("B");
    });
  }

  @Test
  void theInterruptWasTakenAtOnceAndTheHandlerIsTheDriversReadTail() {
    SampleAnatomy w = worstOfS2(false);
    assertThat(w.segment(Part.INTERRUPT_LATENCY)).hasValueSatisfying(s -> {
      assertThat(s.ns()).isZero();
      assertThat(s.cause()).isInstanceOf(Cause.TakenAtOnce.class);
    });
    assertThat(w.segment(Part.HANDLER)).hasValueSatisfying(s ->
        assertThat(s.cause()).isEqualTo(new Cause.Handler(Rtc.IRQ)));
    assertThat(w.segment(Part.SWITCH_TO_USER)).hasValueSatisfying(s ->
        assertThat(s.cause()).isInstanceOf(Cause.ReturnToUser.class));
  }

  /**
   * K runs 2 ms in itself, then calls J for 3 ms and comes back for 1 ms: the wait of the
   * vanilla kernel is split between the two paths in the order they first held the CPU, and
   * adds up to the nanosecond.
   */
  @Test
  void aWaitTwoPathsHeldInTurnIsSplitBetweenThemAndAddsUp() {
    KernelPath j = KernelPath.path("scenario/split.c", "J").compute(3 * MS).build();
    KernelPath k = KernelPath.path("scenario/split.c", "K")
        .compute(2 * MS).call(j).compute(MS).build();
    SampleAnatomy w = worst(k, false);
    Segment wait = w.segment(Part.WAIT_FOR_CPU).orElseThrow();
    assertThat(wait.holders()).hasSize(2);
    assertThat(wait.holders().stream().mapToLong(Cause.Holding::ns).sum()).isEqualTo(wait.ns());
    assertThat(wait.holders()).allSatisfy(h -> assertThat(h).isInstanceOf(Cause.NotPreemptible.class));
    Cause.NotPreemptible first = (Cause.NotPreemptible) wait.holders().get(0);
    Cause.NotPreemptible second = (Cause.NotPreemptible) wait.holders().get(1);
    // the interrupt comes 1 ms into K's 2 ms (the handler costs nothing on this machine, the
    // driver's read tail is the probe's own): K holds 1 ms before the call and 1 ms after it
    assertThat(first.path().function()).isEqualTo("K");
    assertThat(first.ns()).isEqualTo(2 * MS);
    assertThat(second.path().function()).isEqualTo("J");
    assertThat(second.ns()).isEqualTo(3 * MS);
    assertThat(wait.cause()).isEqualTo(second);
    assertThat(w.latencyNs()).isEqualTo(5 * MS + DRIVER);
  }

  /** A cause a patch declares on its path is what the anatomy reports for the time spent there. */
  record BiosCall(String function) implements dev.kernellab.kernel.spi.LatencyCause {
    @Override
    public String describe(dev.kernellab.kernel.spi.LatencyCause.Hold h) {
      return "APM BIOS call " + function + " by " + h.task();
    }
  }

  @Test
  void aCauseAPathDeclaresIsReportedWithItsOwnType() {
    KernelPath bios = KernelPath.path("arch/i386/kernel/apm.c", "apm_bios_call")
        .cause(new BiosCall("APM_GET_EVENT")).compute(4 * MS).build();
    KernelPath k = KernelPath.path("scenario/apm.c", "K").call(bios).build();
    SampleAnatomy w = worst(k, false);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new BiosCall("APM_GET_EVENT"));
      assertThat(d.path().function()).isEqualTo("apm_bios_call");
      assertThat(d.task().comm()).isEqualTo("B");
    });
  }

  /** The holder of a lock over a loop says how many iterations the loop ran: the load's count. */
  @Test
  void aHoldOverALoopCountsTheLoopsIterations() {
    SpinLock l = SpinLock.spin("L");
    dev.kernellab.kernel.spi.Site walk = new dev.kernellab.kernel.spi.Site("scenario/walk.c", "K", "walk");
    KernelPath k = KernelPath.path("scenario/walk.c", "K")
        .spinLock(l).loop(walk, 5, body -> body.compute(MS)).spinUnlock(l).build();
    SampleAnatomy w = worst(k, true);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.SpinlockHeld.class, c -> {
      assertThat(c.path().site()).isEqualTo(walk);
      assertThat(c.iterations()).isEqualTo(5);
      assertThat(c.ns()).isEqualTo(4 * MS);
    });
  }

  /**
   * A path that keeps interrupts off and declares a cause: the interrupt latency it makes is
   * reported as that cause, for the interrupts-off stretch, with its loop's count.
   */
  @Test
  void anInterruptLatencyAPathDeclaredIsReportedAsItsCause() {
    dev.kernellab.kernel.spi.Site each = new dev.kernellab.kernel.spi.Site("arch/i386/kernel/apm.c", "apm_bios_call", "each");
    KernelPath bios = KernelPath.path("arch/i386/kernel/apm.c", "apm_bios_call")
        .cause(new BiosCall("APM_IDLE")).localIrqDisable().loop(each, 3, body -> body.compute(MS))
        .localIrqEnable().build();
    KernelPath k = KernelPath.path("scenario/apm.c", "K").call(bios).build();
    SampleAnatomy w = worst(k, true);
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new BiosCall("APM_IDLE"));
      assertThat(d.ns()).isEqualTo(3 * MS);
      assertThat(d.iterations()).isEqualTo(3);
      assertThat(d.task().comm()).isEqualTo("B");
    });
  }

  @Test
  void aPreemptibleKernelNamesThePreemptCountTheBottomHalvesAndTheBigKernelLock() {
    KernelPath pd = KernelPath.path("scenario/pd.c", "K").preemptDisable().compute(4 * MS).preemptEnable().build();
    assertThat(worst(pd, true).culprit()).isInstanceOfSatisfying(Cause.PreemptCountHeld.class, c -> {
      assertThat(c.depth()).isEqualTo(1);
      assertThat(c.ns()).isEqualTo(3 * MS);
    });
    KernelPath bh = KernelPath.path("scenario/bh.c", "K").localBhDisable().compute(4 * MS).localBhEnable().build();
    assertThat(worst(bh, true).culprit()).isInstanceOf(Cause.BottomHalvesOff.class);
    SpinLock bkl = SpinLock.bigKernelLock();
    KernelPath big = KernelPath.path("scenario/bkl.c", "K").lockKernel(bkl).compute(4 * MS).unlockKernel(bkl).build();
    assertThat(worst(big, true).culprit()).isInstanceOfSatisfying(Cause.BigKernelLockHeld.class, c ->
        assertThat(c.lock()).isSameAs(bkl));
  }

  @Test
  void interruptsOffOverTheAssertionMakeTheInterruptLatency() {
    KernelPath k = KernelPath.path("scenario/cli.c", "K").localIrqDisable().compute(4 * MS).localIrqEnable().build();
    SampleAnatomy w = worst(k, false);
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.InterruptsOff.class, c -> {
      assertThat(c.path().location()).isEqualTo("scenario/cli.c:K");
      assertThat(c.ns()).isEqualTo(4 * MS);
      assertThat(c.iterations()).isZero();
    });
  }

  @Test
  void aNonPreemptibleKernelInALoopAPatchHookedSaysSo() {
    dev.kernellab.kernel.spi.Site walk = new dev.kernellab.kernel.spi.Site("scenario/hooked.c", "K", "walk");
    KernelPath k = KernelPath.path("scenario/hooked.c", "K").loop(walk, 4, body -> body.compute(MS)).build();
    KernelPath nothing = KernelPath.path("scenario/hooked.c", "hook").compute(0).build();
    SampleAnatomy w = worstWith(k, false, b -> b.declareSites(List.of(walk)).patch(new dev.kernellab.kernel.spi.KernelPatch() {
      @Override
      public String name() {
        return "hook-test";
      }

      @Override
      public void apply(Patching p) {
        p.hookSite(walk, nothing);
      }
    }));
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.NotPreemptible.class, c -> {
      assertThat(c.siteHooked()).isTrue();
      assertThat(c.path().site()).isEqualTo(walk);
    });
  }
}
