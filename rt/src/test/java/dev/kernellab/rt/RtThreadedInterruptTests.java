package dev.kernellab.rt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What threading changes for a real-time load: the handler is a SCHED_FIFO task like any other,
 * so a real-time task above it delays it, and raising the line's thread (as {@code chrt} does)
 * puts it back in front. Both schedulers order real-time tasks by priority (sched.c 2.4.17
 * goodness() gives 1000 + rt_priority; the O(1) scheduler's rt arrays), so both must agree.
 */
class RtThreadedInterruptTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  /**
   * When the RTC handler ran: a FIFO 60 task "hog" computes 5 ms in user mode from boot and
   * exits, and an RTC interrupt at 1.5 ms runs a 10 us handler that records when it ends.
   */
  private static List<Long> handlerRuns(String scheduler, boolean rt, int rtcThreadPriority) {
    List<Long> at = new ArrayList<>();
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .compute(10 * US)
        .effect("record", c -> at.add(c.now()))
        .build();
    KernelPath hog = KernelPath.userProgram("hog").compute(5 * MS).build();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create(scheduler))
        .requestIrq(Rtc.IRQ, "rtc", handler, true)
        .task(TaskSpec.user("hog", hog).fifo(60))
        .patch("preempt");
    if (rt) {
      b.patch(RtPatch.NAME);
      if (rtcThreadPriority > 0) {
        b.irqThreadPriority(Rtc.IRQ, rtcThreadPriority);
      }
    }
    Kernel k = b.build();
    k.machine().simulation()
        .schedule(new Event("rtc.assert", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), 1_500 * US);
    k.run(10 * MS);
    k.checkInvariants();
    return at;
  }

  @Test
  void aHardHandlerRunsOverTheRealTimeTaskAtOnce() {
    for (String s : List.of("goodness", "o1")) {
      assertThat(handlerRuns(s, false, 0)).as(s).containsExactly(1_510 * US);
    }
  }

  @Test
  void aThreadedHandlerBelowTheRealTimeTaskWaitsForItAndAboveItRunsAtOnce() {
    for (String s : List.of("goodness", "o1")) {
      List<Long> below = handlerRuns(s, true, 0); // FIFO 50 under the hog's 60
      assertThat(below).as(s).hasSize(1);
      assertThat(below.get(0)).as("%s: after the hog's 5 ms", s).isGreaterThanOrEqualTo(5 * MS);
      assertThat(handlerRuns(s, true, 70)).as(s).containsExactly(1_510 * US);
    }
  }

  /**
   * When the RTC handler ran, raised to FIFO 90, with a 1 ms handler of line 5 (its thread at the
   * default 50) running since 1 ms and the RTC asserted at 1.2 ms: a preemptible handler thread
   * lets the higher one in at once.
   */
  private static List<Long> rtcDuringASlowHandler(String scheduler) {
    List<Long> at = new ArrayList<>();
    KernelPath slow = KernelPath.path("drivers/test/slow.c", "slow_interrupt").compute(MS).build();
    KernelPath rtc = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .compute(10 * US)
        .effect("record", c -> at.add(c.now()))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create(scheduler))
        .requestIrq(5, "slow", slow, true)
        .requestIrq(Rtc.IRQ, "rtc", rtc, true)
        .task(TaskSpec.user("idle-loop", KernelPath.userProgram("idle-loop")
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()))
        .patch("preempt")
        .patch(RtPatch.NAME)
        .irqThreadPriority(Rtc.IRQ, 90)
        .build();
    k.machine().simulation().schedule(new Event("slow.assert", now -> k.machine().ioApic().assertLine(5)), MS);
    k.machine().simulation()
        .schedule(new Event("rtc.assert", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), 1_200 * US);
    k.run(5 * MS);
    k.checkInvariants();
    return at;
  }

  @Test
  void aHigherHandlerThreadPreemptsALowerOneInTheMiddleOfItsHandler() {
    for (String s : List.of("goodness", "o1")) {
      assertThat(rtcDuringASlowHandler(s)).as(s).containsExactly(1_210 * US);
    }
  }

  @Test
  void rtAloneIsRefusedWithWhatItNeeds() {
    assertThatIllegalArgumentException().isThrownBy(() -> new KernelBuilder(MachineSpec.uniprocessor(), 1)
            .scheduler(SchedulerProvider.create("o1")).patch(RtPatch.NAME).build())
        .withMessage("patch rt requires preempt: apply both (preempt+rt)");
  }

  @Test
  void onePriorityGivenToEveryConfigurationReachesRtsThreadAndLeavesPreemptAsItIs() {
    for (String config : List.of("preempt", "rt")) {
      Kernel k = rtcKernel(config).irqThreadPriorityWhereThreaded(Rtc.IRQ, 80).build();
      if (config.equals("rt")) {
        assertThat(k.irqThread(Rtc.IRQ).orElseThrow().rtPriority()).isEqualTo(80);
        assertThat(k.irqThread(14).orElseThrow().rtPriority()).as("the disk's, not given").isEqualTo(50);
      } else {
        assertThat(k.irqThread(Rtc.IRQ)).as(config).isEmpty();
        // the unconditional form is refused by this same kernel: the where-threaded one is what
        // lets it build
        assertThatIllegalArgumentException()
            .isThrownBy(() -> rtcKernel(config).irqThreadPriority(Rtc.IRQ, 80).build())
            .withMessageStartingWith("IRQ 8's thread priority: no interrupt of this kernel");
      }
    }
  }

  private static KernelBuilder rtcKernel(String config) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"))
        .requestIrq(Rtc.IRQ, "rtc",
            KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").compute(US).build(), true)
        .configuration(config);
  }
}
