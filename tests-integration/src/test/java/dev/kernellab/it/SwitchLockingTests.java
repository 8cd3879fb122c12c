package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.spi.SchedulerProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two schedulers' context switches under an interrupt: 2.4.17's goodness {@code schedule()}
 * drops {@code runqueue_lock} with {@code spin_unlock_irq} before {@code switch_to}, so an
 * interrupt is taken inside the switch; 2.5.5's O(1) switches under {@code rq->lock} with
 * interrupts off ({@code finish_arch_switch} unlocks after), so the interrupt waits for its end.
 *
 * <p>One CPU, every cost zero but a 100 us context switch. T (SCHED_FIFO 50) sleeps on a
 * queue, H computes in user mode. An interrupt at 1 ms wakes T; T's switch back in takes
 * 1 ms..1.1 ms; a second interrupt is asserted at 1.05 ms.
 */
class SwitchLockingTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  private static List<Long> handlerEntries(String scheduler) {
    return RtcProbeRig.handlerEntriesAroundASwitch(SchedulerProvider.create(scheduler));
  }

  @Test
  void theGoodnessSchedulersSwitchCanBeInterrupted() {
    assertThat(handlerEntries("goodness")).containsExactly(MS, MS + 50 * US);
  }

  @Test
  void theO1SchedulersSwitchCannot() {
    assertThat(handlerEntries("o1")).containsExactly(MS, MS + 100 * US);
  }
}
