package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * arch/i386/kernel/irq.c do_IRQ and handle_IRQ_event (2.4.17) on one zero-cost CPU: a handler
 * registered without SA_INTERRUPT runs with interrupts on, so a higher-priority line nests
 * into it; with SA_INTERRUPT it runs with them off. The edge is acked at entry, and an edge of
 * the same line during its handler only sets IRQ_PENDING: the running do_IRQ loops once more
 * instead of nesting.
 */
class IrqHandlingTests {

  private static final long MS = 1_000_000;
  /** The secondary IDE channel's line: free, since the primary's (14) is the kernel's own. */
  private static final int IDE1 = 15;

  private static Kernel boot(List<String> log, boolean rtcSaInterrupt, long[] rtcAt, long[] ideAt) {
    KernelPath rtc = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("enter", c -> log.add("rtc+" + c.now() / 1_000))
        .compute(MS)
        .effect("leave", c -> log.add("rtc-" + c.now() / 1_000))
        .build();
    KernelPath ide = KernelPath.path("drivers/ide/ide.c", "ide_intr")
        .effect("enter", c -> log.add("ide+" + c.now() / 1_000))
        .compute(MS / 10)
        .effect("leave", c -> log.add("ide-" + c.now() / 1_000))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .requestIrq(Rtc.IRQ, "rtc", rtc, rtcSaInterrupt)
        .requestIrq(IDE1, "ide1", ide, true)
        .task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .build();
    for (long t : rtcAt) {
      k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), t);
    }
    for (long t : ideAt) {
      k.machine().simulation().schedule(new Event("ide", now -> k.machine().ioApic().assertLine(IDE1)), t);
    }
    return k;
  }

  @Test
  void aHigherLineNestsIntoAHandlerRegisteredWithoutSaInterrupt() {
    List<String> log = new ArrayList<>();
    boot(log, false, new long[] {MS}, new long[] {MS + MS / 5}).run(5 * MS);
    // the RTC handler's 1 ms of work resumes after the 0.1 ms it lent the IDE handler
    assertThat(log).containsExactly("rtc+1000", "ide+1200", "ide-1300", "rtc-2100");
  }

  @Test
  void anSaInterruptHandlerRunsToItsEndWithInterruptsOff() {
    List<String> log = new ArrayList<>();
    boot(log, true, new long[] {MS}, new long[] {MS + MS / 5}).run(5 * MS);
    assertThat(log).containsExactly("rtc+1000", "rtc-2000", "ide+2000", "ide-2100");
  }

  @Test
  void anEdgeOfTheSameLineDuringItsHandlerRunsTheHandlerAgainAfterItNotInsideIt() {
    List<String> log = new ArrayList<>();
    boot(log, false, new long[] {MS, MS + MS / 2}, new long[] {}).run(5 * MS);
    assertThat(log).containsExactly("rtc+1000", "rtc-2000", "rtc+2000", "rtc-3000");
  }
}
