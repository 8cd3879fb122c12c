package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Pit;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.workloads.Cyclictest;
import dev.kernellab.workloads.ProbeSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A timer probe's samples to the nanosecond: cyclictest at a 10 ms interval on a zero-cost
 * uniprocessor at HZ 100 with a vanilla kernel, beside a task B whose system call is scripted.
 * 2.4.17's nanosleep rounds the sleep up and adds a jiffy, so the first thread, asleep from
 * {@value Timer#NANOSLEEP_SETUP_NS} ns (its sys_nanosleep's setup) to its expiry at 10 ms, is
 * woken by the PIT's tick after 20 ms: its sample starts with the timer's rounding to that tick.
 */
class TimerProbeScenarioTests {

  private static final long MS = 1_000_000;
  private static final long SETUP = Timer.NANOSLEEP_SETUP_NS;

  private static List<SampleAnatomy> run(int threads, KernelPath k) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Cyclictest ct = new Cyclictest(threads, 10 * MS);
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    LatencyAnatomy anatomy = new LatencyAnatomy(ct.probe(), 8);
    kb.tracer(anatomy);
    ct.tasks().forEach(kb::task);
    kb.task(TaskSpec.user("B", KernelPath.userProgram("B").syscall(k)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build()));
    ct.listen(anatomy);
    Kernel kernel = kb.build();
    kernel.run(40 * MS);
    List<SampleAnatomy> worst = anatomy.worst();
    for (SampleAnatomy s : worst) {
      assertThat(s.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(s.latencyNs());
      assertThat(s.segments()).extracting(Segment::part).containsExactly(Part.TIMER_GRANULARITY,
          Part.INTERRUPT_LATENCY, Part.HANDLER, Part.WAIT_FOR_CPU, Part.SWITCH_TO_USER);
    }
    return worst;
  }

  private static SampleAnatomy of(List<SampleAnatomy> worst, String comm, long expiry) {
    return worst.stream().filter(s -> s.probe().comm().equals(comm)
            && ((Cause.TimerRounding) s.segments().get(0).cause()).expiryNs() == expiry)
        .findFirst().orElseThrow(() -> new AssertionError(comm + " at " + expiry + " not in " + worst));
  }

  /**
   * B turns interrupts off from 19 ms to 21 ms (after the first thread's setup) over the tick
   * that expires the thread's timer, then computes 3 ms more: the tick's interrupt latency is
   * that interrupts-off stretch, the wait is B's 3 ms, and the thread runs at once when B's call
   * returns.
   */
  @Test
  void aTickHeldOffByInterruptsOffIsNamedAndTheWaitFollowsIt() {
    KernelPath k = KernelPath.path("scenario/cli.c", "K")
        .compute(19 * MS).localIrqDisable().compute(2 * MS).localIrqEnable().compute(3 * MS).build();
    SampleAnatomy s = of(run(1, k), "cyclictest0", 10 * MS);
    Cause.TimerRounding rounding = (Cause.TimerRounding) s.segments().get(0).cause();
    long tick = rounding.tickNs();
    assertThat(tick).isBetween(20 * MS, 20 * MS + 1_000);
    assertThat(rounding.hz()).isEqualTo(100);
    TaskId b = ((Cause.InKernelCode) s.segment(Part.WAIT_FOR_CPU).orElseThrow().cause()).task();
    assertThat(b.comm()).isEqualTo("B");
    assertThat(s.segments()).containsExactly(
        Segment.of(Part.TIMER_GRANULARITY, tick - 10 * MS, rounding),
        Segment.of(Part.INTERRUPT_LATENCY, 21 * MS + SETUP - tick, new Cause.InterruptsOff(b, k, 2 * MS, 0)),
        Segment.of(Part.HANDLER, 0, new Cause.Handler(Pit.IRQ)),
        new Segment(Part.WAIT_FOR_CPU, 3 * MS, new Cause.NotPreemptible(b, k, 3 * MS, false, false, Optional.empty(), 0),
            List.of(new Cause.NotPreemptible(b, k, 3 * MS, false, false, Optional.empty(), 0))),
        Segment.of(Part.SWITCH_TO_USER, 0, new Cause.ReturnToUser()));
    assertThat(s.latencyNs()).isEqualTo(14 * MS + SETUP);
    assertThat(s.probe().comm()).isEqualTo("cyclictest0");
  }

  /**
   * Nothing in the way: the thread is woken by the tick and runs at that instant, so its sample
   * is all timer rounding, and its wake-up, at the sample's very end, is still a wake-up.
   */
  @Test
  void aSampleWokenAtItsVeryEndIsAllTimerRounding() {
    SampleAnatomy s = of(run(1, KernelPath.path("scenario/none.c", "K").build()), "cyclictest0", 10 * MS);
    Cause.TimerRounding rounding = (Cause.TimerRounding) s.segments().get(0).cause();
    assertThat(s.segments()).containsExactly(
        Segment.of(Part.TIMER_GRANULARITY, rounding.tickNs() - 10 * MS, rounding),
        Segment.of(Part.INTERRUPT_LATENCY, 0, new Cause.TakenAtOnce()),
        Segment.of(Part.HANDLER, 0, new Cause.Handler(Pit.IRQ)),
        Segment.of(Part.WAIT_FOR_CPU, 0, new Cause.SwitchedAtOnce()),
        Segment.of(Part.SWITCH_TO_USER, 0, new Cause.ReturnToUser()));
    assertThat(s.culprit()).isEqualTo(rounding);
  }

  /**
   * Two threads, each its own probe task: each sample is the thread's own. The second thread
   * (10.5 ms interval) overran a period, and its next expiry, under 2 ms away, is a busy wait
   * in sys_nanosleep: a sample with no wake-up, already runnable.
   */
  @Test
  void twoThreadsEachHaveTheirOwnSamples() {
    List<SampleAnatomy> worst = run(2, KernelPath.path("scenario/none.c", "K").build());
    assertThat(worst).extracting(s -> s.probe().comm()).contains("cyclictest0", "cyclictest1");
    SampleAnatomy first = of(worst, "cyclictest0", 10 * MS);
    assertThat(first.segment(Part.WAIT_FOR_CPU).orElseThrow().cause()).isEqualTo(new Cause.SwitchedAtOnce());
    // the busy-waited sleep (udelay) is late by exactly the setup run after the time left was read
    SampleAnatomy busy = worst.stream()
        .filter(s -> s.probe().comm().equals("cyclictest1") && s.latencyNs() == SETUP).findFirst().orElseThrow();
    assertThat(busy.segment(Part.WAIT_FOR_CPU).orElseThrow().cause())
        .isEqualTo(new Cause.AlreadyRunnable(ProbeSpec.Start.TIMER_EXPIRY));
    assertThat(busy.segment(Part.INTERRUPT_LATENCY).orElseThrow().cause()).isEqualTo(new Cause.TakenAtOnce());
    for (SampleAnatomy s : worst) {
      if (s.probe().comm().equals("cyclictest1")) {
        assertThat(((Cause.TimerRounding) s.segments().get(0).cause()).expiryNs() % (10_500_000) ).isEqualTo(SETUP);
      }
    }
  }
}
