package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;

/**
 * The machine of the hand-worked scenarios (docs/golden-scenarios.md): a probe P (SCHED_FIFO 99)
 * asleep in {@code read()} on the RTC, a SCHED_OTHER task B that enters kernel path K at
 * t = 0, and one RTC interrupt asserted at {@code t_irq} whose handler wakes P. Latency = P
 * back in user mode minus the assertion instant. Published in the test-jar for the preempt,
 * lowlatency and integration tests.
 *
 * <p>Each rig owns its driver state (wait queue, {@code rtc_irq_data}), so paths built from
 * one rig belong to one kernel.
 *
 * <p>The latency is counted from the line's <em>last</em> assertion: right for the scenarios'
 * single interrupt, but with a periodic RTC whose edges merge (a reader later than one period)
 * it would cap each sample at one period. A periodic probe must measure from the first
 * unacknowledged assertion, or as realfeel does, from the period.
 */
public final class RtcProbeRig {

  /** {@code rtc_wait} of drivers/char/rtc.c. */
  public final WaitQueue rtcWait = new WaitQueue("rtc_wait");
  private long rtcIrqData;
  /** Latencies P measured, ns, in order. */
  public final List<Long> latencies = new ArrayList<>();

  /** drivers/char/rtc.c {@code rtc_interrupt} (2.4.17): ack register C, count, wake readers. */
  public final KernelPath rtcInterrupt =
      KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
          .effect("CMOS_READ(RTC_INTR_FLAGS); rtc_irq_data += 0x100", c -> {
            c.machine().rtc().readRegisterC();
            rtcIrqData++;
          })
          .wakeUp(rtcWait)
          .build();

  /** drivers/char/rtc.c {@code rtc_read}: sleep until an interrupt arrived, consume it. */
  public final KernelPath rtcRead =
      KernelPath.path("drivers/char/rtc.c", "rtc_read")
          .waitEvent(rtcWait, () -> rtcIrqData != 0)
          .effect("rtc_irq_data = 0", c -> rtcIrqData = 0)
          .build();

  /** P: {@code for (;;) { read(rtc_fd); sample(); }}. */
  public final KernelPath probe =
      KernelPath.userProgram("probe")
          .loop("main", Long.MAX_VALUE, body -> body
              .syscall(rtcRead)
              .probe((c, t, now) -> latencies.add(now - c.machine().ioApic().lastAssertNs(Rtc.IRQ))))
          .build();

  /** B: enter kernel path {@code k} at once, then compute in user mode for ever. */
  public static KernelPath busyTask(KernelPath k) {
    return KernelPath.userProgram("B")
        .syscall(k)
        .loop("spin", Long.MAX_VALUE, body -> body.compute(1_000_000))
        .build();
  }

  /** B computing in user mode from the start. */
  public static KernelPath userHog() {
    return KernelPath.userProgram("B")
        .loop("spin", Long.MAX_VALUE, body -> body.compute(1_000_000))
        .build();
  }

  /** A builder with every cost zero, one CPU, P and B, the RTC handler registered. */
  public KernelBuilder builder(Scheduler s, KernelPath b) {
    return builder(s, b, CostTable.zero(), 1);
  }

  /** A builder with the given costs and CPU count. */
  public KernelBuilder builder(Scheduler s, KernelPath b, CostTable costs, int cpus) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(costs).withCpus(cpus), 1)
        .scheduler(s)
        .requestIrq(Rtc.IRQ, "rtc", rtcInterrupt, true)
        .task(TaskSpec.user("P", probe).fifo(99))
        .task(TaskSpec.user("B", b));
  }

  /** Asserts the RTC line at {@code tIrq}. */
  public static void assertRtcAt(Kernel k, long tIrq) {
    k.machine().simulation()
        .schedule(new Event("rtc.assert", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), tIrq);
  }

  /**
   * The instants an RTC handler is entered on a zero-cost uniprocessor but for a 100 us context
   * switch, under scheduler {@code s}: T (SCHED_FIFO) sleeps on a queue, H computes in user mode;
   * the interrupt at 1 ms wakes T, whose switch back in runs from 1 ms to 1.1 ms, and a second
   * interrupt is asserted at 1.05 ms, inside that switch. Its handler enters at 1.05 ms if the
   * switch runs with interrupts on, at 1.1 ms if under the runqueue lock with them off.
   */
  public static List<Long> handlerEntriesAroundASwitch(Scheduler s) {
    long us = 1_000;
    long ms = 1_000_000;
    List<Long> entered = new ArrayList<>();
    WaitQueue wq = new WaitQueue("q");
    KernelPath irq = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("ack, note the instant", c -> {
          c.machine().rtc().readRegisterC();
          entered.add(c.now());
        })
        .wakeUp(wq)
        .build();
    Kernel k = new KernelBuilder(
            MachineSpec.uniprocessor().withCosts(new CostTable(0, 0, 100 * us, 0, 0, 0, 0, 0, 0, 0, 0)), 1)
        .scheduler(s)
        .debugChecks(DebugChecks.all())
        .requestIrq(Rtc.IRQ, "rtc", irq, true)
        .task(TaskSpec.user("T", KernelPath.userProgram("T")
            .syscall(KernelPath.path("test/t.c", "wait").sleepOn(wq).build())
            .loop("spin", Long.MAX_VALUE, l -> l.compute(ms)).build()).fifo(50))
        .task(TaskSpec.user("H", userHog()))
        .build();
    assertRtcAt(k, ms);
    k.machine().simulation().schedule(
        new Event("rtc.assert again", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), ms + 50 * us);
    k.run(2 * ms);
    k.checkInvariants();
    return entered;
  }

  /** Builds, runs to {@code endNs}, returns P's first latency. */
  public long firstLatency(KernelBuilder b, long tIrq, long endNs) {
    Kernel k = b.build();
    assertRtcAt(k, tIrq);
    k.run(endNs);
    if (latencies.isEmpty()) {
      throw new AssertionError("P never ran after the interrupt");
    }
    return latencies.get(0);
  }
}
