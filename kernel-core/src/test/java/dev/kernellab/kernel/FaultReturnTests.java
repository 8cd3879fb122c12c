package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A page fault's way back (arch/i386/kernel/entry.S error_code and ret_from_exception,
 * 2.4.17): to user mode it reschedules if need_resched is set, as ret_from_intr does; iret
 * restores the interrupt flag the fault came with. Zero-cost uniprocessor without
 * CONFIG_PREEMPT; the fault handler, do_page_fault, runs 1 ms.
 */
class FaultReturnTests {

  private static final long MS = 1_000_000;

  private static final KernelPath DO_PAGE_FAULT =
      KernelPath.path("arch/i386/mm/fault.c", "do_page_fault").compute(MS).build();

  /**
   * B faults at t = 0; the RTC at 0.5 ms wakes P during the handler, which vanilla 2.4 does
   * not preempt; ret_from_exception to user mode at 1 ms schedules P: latency 0.5 ms.
   */
  @Test
  void aUserFaultReturnsThroughScheduleWhenNeedReschedWasSetDuringTheHandler() {
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath b = KernelPath.userProgram("B")
        .pageFault(DO_PAGE_FAULT)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    long lat = rig.firstLatency(
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("P", rig.probe).fifo(99))
            .task(TaskSpec.user("B", b)),
        MS / 2, 5 * MS);
    assertThat(lat).isEqualTo(MS / 2);
  }

  /**
   * ret_from_exception to user mode tests need_resched again after schedule() returns
   * ("reschedule: call schedule; jmp ret_from_sys_call"). Every switch costs 100 us: after the
   * boot switches B faults at 0.3 ms; the RTC at 0.5 ms wakes P during the handler; at 1.3 ms B
   * schedules and P is back at 1.4 ms (latency 0.9 ms), reads again and sleeps, and B is
   * switched back in (1.4..1.5 ms). A second interrupt asserted at 1.45 ms, inside that switch,
   * is taken in B's kernel context before its iret and wakes P again: B must schedule before it
   * returns to user mode, so P is back at 1.6 ms, 150 us after the assertion. Without the second
   * test B returned to user mode with need_resched set and computed until the next interrupt.
   */
  @Test
  void aUserFaultReturnTestsNeedReschedAgainAfterSchedule() {
    long us = 1_000;
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath b = KernelPath.userProgram("B")
        .pageFault(DO_PAGE_FAULT)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    Kernel k = new KernelBuilder(
            MachineSpec.uniprocessor().withCosts(new CostTable(0, 0, 100 * us, 0, 0, 0, 0, 0, 0, 0, 0)), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.all())
        .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
        .task(TaskSpec.user("B", b))
        .task(TaskSpec.user("P", rig.probe).fifo(99))
        .build();
    RtcProbeRig.assertRtcAt(k, MS / 2);
    RtcProbeRig.assertRtcAt(k, MS + 450 * us);
    k.run(5 * MS);
    k.checkInvariants();
    assertThat(rig.latencies).startsWith(900 * us, 150 * us);
  }

  /** iret restores the faulting code's IF: off in a cli region, on otherwise and in user mode. */
  @Test
  void aFaultReturnsWithTheInterruptFlagItCameWith() {
    List<String> seen = new ArrayList<>();
    KernelPath k = KernelPath.path("fs/test.c", "copy_from_user")
        .localIrqDisable()
        .pageFault(DO_PAGE_FAULT)
        .effect("IF", c -> seen.add("kernel, cli: " + c.interruptsEnabled()))
        .localIrqEnable()
        .pageFault(DO_PAGE_FAULT)
        .effect("IF", c -> seen.add("kernel: " + c.interruptsEnabled()))
        .build();
    KernelPath user = KernelPath.userProgram("U")
        .syscall(k)
        .pageFault(DO_PAGE_FAULT)
        .effect("IF", c -> seen.add("user: " + c.interruptsEnabled()
            + " count=" + c.preemptCount()))
        .build();
    new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .task(TaskSpec.user("U", user))
        .build()
        .run(5 * MS);
    assertThat(seen).containsExactly("kernel, cli: false", "kernel: true", "user: true count=0");
  }
}
