package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.workloads.Realfeel;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The wait for the CPU to the nanosecond, on a machine whose every cost is zero: realfeel
 * blocked in read(), RTC interrupts asserted at chosen instants, and a task B whose scripted
 * system call holds the CPU in one state after another, each in a path of its own so that each
 * state is a holder of its own. On this machine the RTC handler takes {@value #HANDLER} ns
 * before it wakes realfeel (rtc_interrupt's mod_timer) and realfeel's read() returns
 * {@value #SWITCH} ns after the switch (its tail): what is left of a sample is the wait, and
 * the scripted lengths give it exactly.
 */
class WaitAttributionScenarioTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final long HANDLER = dev.kernellab.paths.drivers.Rtc.MOD_TIMER_NS;
  private static final long SWITCH = dev.kernellab.paths.drivers.Rtc.READ_TAIL_NS;

  /** A zero-cost uniprocessor running realfeel and B's program, RTC interrupts at {@code irqAt}. */
  private static final class Machine {
    final Kernel24Paths paths = Kernel24Paths.withDefaults();
    final Realfeel realfeel = new Realfeel(paths, Realfeel.DEFAULT_HZ);
    final KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    Kernel kernel;

    Machine(KernelPath bProgram, boolean preempt) {
      paths.install(kb);
      kb.task(realfeel.task()).task(TaskSpec.user("B", bProgram));
      if (preempt) {
        kb.patch(new PreemptKernelPatch());
      }
    }

    LatencyAnatomy anatomy(int kept) {
      LatencyAnatomy a = new LatencyAnatomy(realfeel.probe(), kept);
      kb.tracer(a);
      realfeel.listen(a);
      return a;
    }

    Machine run(long ns, long... irqAt) {
      kernel = kb.build();
      for (long at : irqAt) {
        kernel.machine().simulation().schedule(
            new Event("rtc", t -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), at);
      }
      kernel.run(ns);
      return this;
    }
  }

  /** B: system call {@code k} once, then user code for ever. */
  private static KernelPath once(KernelPath k) {
    return KernelPath.userProgram("B").syscall(k).loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build();
  }

  /** The one sample of realfeel woken at 1 ms while B runs {@code k}. */
  private static SampleAnatomy onlySample(KernelPath k, boolean preempt) {
    return onlySample(k, preempt, b -> { });
  }

  private static SampleAnatomy onlySample(KernelPath k, boolean preempt, Consumer<KernelBuilder> more) {
    Machine m = new Machine(once(k), preempt);
    more.accept(m.kb);
    LatencyAnatomy a = m.anatomy(4);
    m.run(40 * MS, MS);
    assertThat(a.worst()).hasSize(1);
    SampleAnatomy s = a.worst().get(0);
    assertAddsUp(s);
    return s;
  }

  private static void assertAddsUp(SampleAnatomy s) {
    assertThat(s.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(s.latencyNs());
    for (Segment g : s.segments()) {
      if (!g.holders().isEmpty()) {
        assertThat(g.holders().stream().mapToLong(Cause.Holding::ns).sum()).isEqualTo(g.ns());
      }
    }
  }

  private static Segment wait(SampleAnatomy s) {
    return s.segment(Part.WAIT_FOR_CPU).orElseThrow();
  }

  private static KernelPath path(String function, Consumer<KernelPath.Builder> body) {
    KernelPath.Builder b = KernelPath.path("scenario/ladder.c", function);
    body.accept(b);
    return b.build();
  }

  private static TaskId b(SampleAnatomy s) {
    return ((Cause.InKernelCode) wait(s).holders().get(0)).task();
  }

  // ---- the preemptible kernel: each state a holder of its own ----

  /**
   * K holds a preempt count over the wake-up at 1 ms and drops it without a preemption point
   * (preempt_enable_no_resched), so that realfeel waits on through paths that run with a count
   * of zero: A turns interrupts off for 200 us after 100 us, D takes a preempt count of its own
   * after 100 us, E holds nothing, and B1 takes L1 and, inside it, L2, dropping both at one
   * instant, at which the preemption comes.
   */
  @Test
  void eachStateAfterTheWakeUpIsNamedForItsOwnPathToTheNanosecond() {
    SpinLock l1 = SpinLock.spin("L1");
    SpinLock l2 = SpinLock.spin("L2");
    KernelPath a = path("A", p -> p.compute(100 * US).localIrqDisable().compute(200 * US).localIrqEnable());
    KernelPath d = path("D", p -> p.compute(100 * US).preemptDisable().compute(250 * US).preemptEnableNoResched());
    KernelPath e = path("E", p -> p.compute(400 * US));
    KernelPath b1 = path("B1", p -> p.spinLock(l1).compute(100 * US).spinLock(l2).compute(200 * US)
        .spinUnlock(l2).spinUnlock(l1));
    KernelPath k = path("K", p -> p.preemptDisable().compute(2 * MS).preemptEnableNoResched()
        .call(a).call(d).call(e).call(b1));
    SampleAnatomy s = onlySample(k, true);
    TaskId b = b(s);
    assertThat(b.comm()).isEqualTo("B");
    assertThat(s.segments()).containsExactly(
        Segment.of(Part.INTERRUPT_LATENCY, 0, new Cause.TakenAtOnce()),
        Segment.of(Part.HANDLER, HANDLER, new Cause.Handler(Rtc.IRQ)),
        new Segment(Part.WAIT_FOR_CPU, 2_350 * US,
            new Cause.PreemptCountHeld(b, k, 1, MS, 0),
            List.of(
                new Cause.PreemptCountHeld(b, k, 1, MS, 0),
                new Cause.InterruptsOff(b, a, 300 * US, 0),
                new Cause.PreemptCountHeld(b, d, 1, 350 * US, 0),
                new Cause.NotPreemptible(b, e, 400 * US, true, false, Optional.empty(), 0),
                new Cause.SpinlockHeld(b, b1, l2, 300 * US, 0))),
        Segment.of(Part.SWITCH_TO_USER, SWITCH, new Cause.ReturnToUser()));
  }

  /**
   * Two locks held in turn, L2 inside L1 with 300 us of L1 alone after it: the holder names
   * the lock held last, L1, not L2 (the kernel tells of an unlock before the CPU forgets the
   * lock, and the anatomy must not read L2 as still held).
   */
  @Test
  void theTimeAfterAnInnerUnlockIsHeldUnderTheOuterLock() {
    SpinLock l1 = SpinLock.spin("L1");
    SpinLock l2 = SpinLock.spin("L2");
    KernelPath b2 = path("B2", p -> p.spinLock(l1).compute(100 * US).spinLock(l2).compute(200 * US)
        .spinUnlock(l2).compute(300 * US).spinUnlock(l1));
    KernelPath k = path("K", p -> p.preemptDisable().compute(2 * MS).preemptEnableNoResched().call(b2));
    SampleAnatomy s = onlySample(k, true);
    TaskId b = b(s);
    assertThat(wait(s).holders()).containsExactly(
        new Cause.PreemptCountHeld(b, k, 1, MS, 0),
        new Cause.SpinlockHeld(b, b2, l1, 600 * US, 0));
    assertThat(wait(s).cause()).isEqualTo(new Cause.PreemptCountHeld(b, k, 1, MS, 0));
  }

  /** local_bh_disable after 100 us of C: C is named as bottom halves off, and the wait ends at local_bh_enable. */
  @Test
  void bottomHalvesTurnedOffAfterTheWakeUpAreNamedAndTheirEnableEndsTheWait() {
    KernelPath c = path("C", p -> p.compute(100 * US).localBhDisable().compute(200 * US).localBhEnable().compute(MS));
    KernelPath k = path("K", p -> p.preemptDisable().compute(2 * MS).preemptEnableNoResched().call(c));
    SampleAnatomy s = onlySample(k, true);
    TaskId b = b(s);
    assertThat(wait(s).holders()).containsExactly(
        new Cause.PreemptCountHeld(b, k, 1, MS, 0),
        new Cause.BottomHalvesOff(b, c, 300 * US, 0));
  }

  /** Two holders of exactly 1 ms each: the wait's cause is the first of them. */
  @Test
  void ofTwoLongestHoldersOfEqualLengthTheFirstIsTheCause() {
    KernelPath j = path("J", p -> p.compute(MS));
    KernelPath k = path("K", p -> p.compute(2 * MS).call(j));
    SampleAnatomy s = onlySample(k, false);
    TaskId b = b(s);
    Cause.NotPreemptible first = new Cause.NotPreemptible(b, k, MS, false, false, Optional.empty(), 0);
    assertThat(wait(s).holders()).containsExactly(
        first, new Cause.NotPreemptible(b, j, MS, false, false, Optional.empty(), 0));
    assertThat(wait(s).cause()).isEqualTo(first);
  }

  // ---- the vanilla kernel ----

  /**
   * Vanilla: a lock taken after the wake-up, inside an outer one and dropped with it at one
   * instant, is the lock the holder names; a lock held only before the wake-up is not.
   */
  @Test
  void aNonPreemptibleHolderNamesTheLockItTookLast() {
    SpinLock l1 = SpinLock.spin("L1");
    SpinLock l2 = SpinLock.spin("L2");
    SpinLock before = SpinLock.spin("before");
    KernelPath b1 = path("B1", p -> p.spinLock(l1).compute(100 * US).spinLock(l2).compute(200 * US)
        .spinUnlock(l2).spinUnlock(l1));
    KernelPath k = path("K", p -> p.spinLock(before).compute(500 * US).spinUnlock(before).compute(1500 * US).call(b1));
    SampleAnatomy s = onlySample(k, false);
    TaskId b = b(s);
    assertThat(wait(s).holders()).containsExactly(
        new Cause.NotPreemptible(b, k, MS, false, false, Optional.empty(), 0),
        new Cause.NotPreemptible(b, b1, 300 * US, false, false, Optional.of(l2), 0));
  }

  /**
   * Eighteen paths called in turn after the wake-up, J0 of 10 us to J17 of 27 us, and K's own
   * millisecond: seventeen holders for sixteen slots, so the three least (J0, J1, J2) merge,
   * and the holders still come in the order they first held the CPU and add up exactly.
   */
  @Test
  void moreHoldersThanSlotsMergeTheLeastAndKeepTheirOrder() {
    KernelPath.Builder kb = KernelPath.path("scenario/many.c", "K").compute(2 * MS);
    KernelPath[] j = new KernelPath[18];
    for (int i = 0; i < j.length; i++) {
      j[i] = KernelPath.path("scenario/many.c", "J" + i).compute((10 + i) * US).build();
      kb.call(j[i]);
    }
    KernelPath k = kb.build();
    SampleAnatomy s = onlySample(k, false);
    TaskId b = b(s);
    List<Cause.Holding> holders = wait(s).holders();
    assertThat(wait(s).ns()).isEqualTo(MS + 333 * US);
    assertThat(holders).hasSize(17);
    assertThat(holders.get(0)).isEqualTo(new Cause.NotPreemptible(b, k, MS, false, false, Optional.empty(), 0));
    for (int i = 3; i < 18; i++) {
      assertThat(holders.get(i - 2)).isEqualTo(
          new Cause.NotPreemptible(b, j[i], (10 + i) * US, false, false, Optional.empty(), 0));
    }
    assertThat(holders.get(16)).isEqualTo(new Cause.OtherHolders(3, 33 * US));
  }

  /** A softirq B raises and runs at its local_bh_enable is a holder of its own, in softirq context. */
  @Test
  void aSoftirqRunInTheWaitIsNamedAsASoftirq() {
    KernelPath handler = KernelPath.path("scenario/softirq.c", "tasklet_action").compute(400 * US).build();
    KernelPath k = path("K", p -> p.compute(2 * MS).localBhDisable().raiseSoftirq(Softirq.TASKLET).localBhEnable()
        .compute(500 * US));
    SampleAnatomy s = onlySample(k, false, kb -> kb.openSoftirq(Softirq.TASKLET, handler));
    TaskId b = b(s);
    List<Cause.Holding> holders = wait(s).holders();
    assertThat(holders).contains(
        new Cause.NotPreemptible(b, k, 1_500 * US, false, false, Optional.empty(), 0),
        new Cause.SoftirqRunning(handler, b, 400 * US));
    assertThat(wait(s).ns()).isEqualTo(1_900 * US);
  }

  // ---- samples in turn ----

  /**
   * B loops over a 3 ms system call and 7 ms of user code; RTC interrupts at 1 ms (in the call:
   * a 2 ms wait), at 5 and 6 ms (in user code: none) and at 11.5 ms (in the second call: a wait
   * to its end). Every wait is split from its own wake-up, the worst few are kept worst first
   * (equals in the order they came), and a worse sample displaces the least of them.
   */
  @Test
  void samplesInTurnEachWaitFromTheirOwnWakeUpAndTheWorstAreKeptInOrder() {
    KernelPath k = path("K", p -> p.compute(3 * MS));
    Machine m = new Machine(KernelPath.userProgram("B")
        .loop("work", Long.MAX_VALUE, x -> x.syscall(k).compute(7 * MS)).build(), false);
    LatencyAnatomy three = new LatencyAnatomy(m.realfeel.probe(), 3);
    LatencyAnatomy one = new LatencyAnatomy(m.realfeel.probe(), 1);
    m.kb.tracer(three).tracer(one);
    m.realfeel.listen((p, start, end, cpu) -> {
      three.sample(p, start, end, cpu);
      one.sample(p, start, end, cpu);
    });
    m.run(20 * MS, MS, 5 * MS, 6 * MS, 11_500 * US);
    assertThat(m.realfeel.result().latency().samples()).isEqualTo(4);
    List<SampleAnatomy> worst = three.worst();
    worst.forEach(WaitAttributionScenarioTests::assertAddsUp);
    // B's user code starts when realfeel's first sample ends and blocks again; the second call
    // starts 7 ms later, later still by the two handlers and reads that ran in the user code,
    // and ends later by the handler of the fourth interrupt
    long secondCallEnds = 3 * MS + HANDLER + SWITCH + 7 * MS + 2 * (HANDLER + SWITCH) + 3 * MS + HANDLER;
    assertThat(worst).extracting(SampleAnatomy::latencyNs).containsExactly(
        2 * MS + HANDLER + SWITCH,
        secondCallEnds - 11_500 * US + SWITCH,
        HANDLER + SWITCH);
    assertThat(worst).extracting(SampleAnatomy::atNs).containsExactly(
        3 * MS + HANDLER + SWITCH, secondCallEnds + SWITCH, 5 * MS + HANDLER + SWITCH);
    TaskId b = b(worst.get(0));
    assertThat(wait(worst.get(0)).holders()).containsExactly(
        new Cause.NotPreemptible(b, k, 2 * MS, false, false, Optional.empty(), 0));
    assertThat(wait(worst.get(1)).holders()).containsExactly(
        new Cause.NotPreemptible(b, k, secondCallEnds - 11_500 * US - HANDLER, false, false, Optional.empty(), 0));
    assertThat(wait(worst.get(2)).cause()).isEqualTo(new Cause.SwitchedAtOnce());
    assertThat(one.worst()).containsExactly(worst.get(0));
    assertThatIllegalStateException().isThrownBy(() ->
        one.sample(m.kernel.task("B").orElseThrow(), 0, 1, 0)).withMessageContaining("not one of the probe's tasks");
  }

  /**
   * Another task, W, woken from its nanosleep at the 20 ms tick while B holds the CPU in a
   * 25 ms system call, and realfeel woken at 21 ms: realfeel's wait starts at its own wake-up.
   * (B's call starts after W's sys_nanosleep setup, so it ends that much later.)
   */
  @Test
  void aWakeUpOfAnotherTaskIsNotTheProbes() {
    KernelPath k = path("K", p -> p.compute(25 * MS));
    Machine m = new Machine(once(k), false);
    m.kb.task(TaskSpec.user("W", KernelPath.userProgram("W").syscall(Timer.sysNanosleep(5 * MS))
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build()));
    LatencyAnatomy a = m.anatomy(4);
    m.run(40 * MS, 21 * MS);
    SampleAnatomy s = a.worst().get(0);
    assertAddsUp(s);
    TaskId b = b(s);
    assertThat(s.segment(Part.HANDLER).orElseThrow().ns()).isEqualTo(HANDLER);
    assertThat(wait(s).holders()).containsExactly(
        new Cause.NotPreemptible(b, k, 4 * MS + Timer.NANOSLEEP_SETUP_NS, false, false, Optional.empty(), 0));
  }

  /**
   * A second RTC interrupt at 2 ms, while realfeel (woken at 1 ms) still waits for B's 3 ms
   * call: its handler's time is a holder of its own, in hardirq context, and B's call ends that
   * much later.
   */
  @Test
  void anInterruptHandlerThatRunsInTheWaitIsAHolderInHardirqContext() {
    KernelPath k = path("K", p -> p.compute(3 * MS));
    Machine m = new Machine(once(k), false);
    LatencyAnatomy a = m.anatomy(4);
    m.run(40 * MS, MS, 2 * MS);
    SampleAnatomy s = a.worst().get(0);
    assertAddsUp(s);
    TaskId b = b(s);
    List<Cause.Holding> holders = wait(s).holders();
    assertThat(holders.get(0)).isEqualTo(new Cause.NotPreemptible(b, k, 2 * MS, false, false, Optional.empty(), 0));
    assertThat(holders.subList(1, holders.size())).allSatisfy(h ->
        assertThat(h).isInstanceOfSatisfying(Cause.InterruptHandler.class, i -> assertThat(i.task()).isEqualTo(b)));
    assertThat(holders.stream().skip(1).mapToLong(Cause.Holding::ns).sum()).isEqualTo(HANDLER);
    assertThat(wait(s).ns()).isEqualTo(2 * MS + HANDLER);
  }

  /**
   * K turns interrupts off and calls X with them off: X's whole stretch, which starts at its
   * entry and not at a local_irq_disable, is named as interrupts off.
   */
  @Test
  void aPathCalledWithInterruptsOffHoldsWithThemOff() {
    KernelPath x = path("X", p -> p.compute(300 * US));
    KernelPath k = path("K", p -> p.preemptDisable().compute(2 * MS).preemptEnableNoResched()
        .localIrqDisable().call(x).localIrqEnable());
    SampleAnatomy s = onlySample(k, true);
    TaskId b = b(s);
    assertThat(wait(s).holders()).startsWith(
        new Cause.PreemptCountHeld(b, k, 1, MS, 0),
        new Cause.InterruptsOff(b, x, 300 * US, 0));
  }
}
