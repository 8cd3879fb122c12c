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
 * Whether an interrupt can land in the context switch is the scheduler's locking discipline
 * ({@link Scheduler#switchesUnderRunqueueLock}): 2.4.17's goodness {@code schedule()} drops
 * {@code runqueue_lock} with {@code spin_unlock_irq} before {@code switch_to}, 2.5.5's O(1)
 * switches under {@code rq->lock} with interrupts off and unlocks after.
 *
 * <p>A zero-cost uniprocessor but for a 100 us context switch, kernel-core's test scheduler.
 * T (SCHED_FIFO) sleeps on a queue, H computes in user mode. At boot T runs (switch
 * 0..100 us), sleeps, H runs (switch 100..200 us). An interrupt at 1 ms wakes T: H returns
 * from it to user mode, schedules, and T pays its switch back in from 1 ms to 1.1 ms. A second
 * interrupt is asserted at 1.05 ms, inside that switch.
 */
class SwitchLockingTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final CostTable SWITCH_ONLY = new CostTable(0, 0, 100 * US, 0, 0, 0, 0, 0, 0, 0, 0);

  private static List<Long> handlerEntries(boolean underLock) {
    List<Long> entered = new ArrayList<>();
    WaitQueue wq = new WaitQueue("q");
    KernelPath irq = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("ack, note the instant", c -> {
          c.machine().rtc().readRegisterC();
          entered.add(c.now());
        })
        .wakeUp(wq)
        .build();
    Scheduler s = new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public boolean switchesUnderRunqueueLock() {
        return underLock;
      }
    };
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(SWITCH_ONLY), 1)
        .scheduler(s)
        .debugChecks(DebugChecks.all())
        .requestIrq(Rtc.IRQ, "rtc", irq, true)
        .task(TaskSpec.user("T", KernelPath.userProgram("T")
            .syscall(KernelPath.path("test/t.c", "wait").sleepOn(wq).build())
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()).fifo(50))
        .task(TaskSpec.user("H", RtcProbeRig.userHog()))
        .build();
    RtcProbeRig.assertRtcAt(k, MS);
    k.machine().simulation().schedule(
        new Event("rtc.assert again", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), MS + 50 * US);
    k.run(2 * MS);
    k.checkInvariants();
    return entered;
  }

  @Test
  void aSchedulerThatSwitchesWithInterruptsOnTakesAnInterruptInTheSwitch() {
    assertThat(handlerEntries(false)).containsExactly(MS, MS + 50 * US);
  }

  @Test
  void aSchedulerThatSwitchesUnderItsRunqueueLockHoldsAnInterruptUntilTheSwitchEnds() {
    assertThat(handlerEntries(true)).containsExactly(MS, MS + 100 * US);
  }

  @Test
  void theDefaultIsTheSwitchUnderTheLock() {
    assertThat(new SimpleRoundRobinScheduler().switchesUnderRunqueueLock()).isTrue();
  }
}
