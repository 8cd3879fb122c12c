package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.Scheduler;
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
  private static List<Long> handlerEntries(boolean underLock) {
    return RtcProbeRig.handlerEntriesAroundASwitch(new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public boolean switchesUnderRunqueueLock() {
        return underLock;
      }
    });
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
