package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.anatomy.Cause;
import dev.kernellab.anatomy.TaskId;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import org.junit.jupiter.api.Test;

/** explain's words for the causes realtime preemption adds. */
class AnatomyTextTests {

  private static final KernelPath HOLD = KernelPath.path("drivers/test/hold.c", "hold_it").compute(1_000).build();

  @Test
  void aSpinlockThatStillSpinsWhereTheOthersSleepIsCalledRaw() {
    SpinLock lock = SpinLock.raw("i8259A_lock");
    TaskId t = new TaskId("holder", 7);
    assertThat(AnatomyText.cause(new Cause.SpinlockHeld(t, HOLD, lock, 12_300, 0, true)))
        .isEqualTo("raw spinlock i8259A_lock held by holder[7] in drivers/test/hold.c:hold_it for 12.3 us");
    assertThat(AnatomyText.cause(new Cause.SpinlockHeld(t, HOLD, lock, 12_300, 0)))
        .isEqualTo("spinlock i8259A_lock held by holder[7] in drivers/test/hold.c:hold_it for 12.3 us");
  }

  @Test
  void aLockOwnerOnALentPriorityIsNamedWithThePriority() {
    assertThat(AnatomyText.cause(new Cause.LentPriority(new TaskId("low", 9), HOLD, 60, 4_500_000, 0)))
        .isEqualTo("low[9] on real-time priority 60, lent by a task waiting for its lock, in"
            + " drivers/test/hold.c:hold_it for 4500.0 us");
  }
}
