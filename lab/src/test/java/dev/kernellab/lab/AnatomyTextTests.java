package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.anatomy.Cause;
import dev.kernellab.anatomy.TaskId;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.SchedPolicy;
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

  @Test
  void aLoanIsNamedByItsLenderAndLockAlongTheChain() {
    TaskId low = new TaskId("low", 9);
    Cause.Loan mid = new Cause.Loan(new TaskId("mid", 10), SpinLock.spin("lock_a"));
    Cause.Loan high = new Cause.Loan(new TaskId("high", 11), SpinLock.spin("lock_b"));
    assertThat(AnatomyText.cause(new Cause.LentPriority(low, HOLD, 60, 4_500_000, 0, java.util.List.of(mid))))
        .isEqualTo("low[9] on real-time priority 60, lent by mid[10] waiting for lock_a, in"
            + " drivers/test/hold.c:hold_it for 4500.0 us");
    assertThat(AnatomyText.cause(new Cause.LentPriority(low, HOLD, 60, 4_500_000, 0, java.util.List.of(mid, high))))
        .isEqualTo("low[9] on real-time priority 60, lent by mid[10] waiting for lock_a, itself lent it by high[11]"
            + " waiting for lock_b, in drivers/test/hold.c:hold_it for 4500.0 us");
  }

  @Test
  void aHolderOfPriorityNotBelowTheWaitersIsNamedWithBothPrioritiesAndWhatItRan() {
    TaskId ide = new TaskId("irq/14-ide0", 4);
    Cause.Holding held =
        new Cause.NotPreemptible(ide, HOLD, 7_000, true, false, java.util.Optional.empty(), 0);
    assertThat(AnatomyText.cause(new Cause.PriorityNotLower(held, ide, SchedPolicy.FIFO, 50,
        new TaskId("irq/8-rtc", 3), 50)))
        .isEqualTo("irq/14-ide0[4] on SCHED_FIFO 50, not below irq/8-rtc[3]'s 50:"
            + " irq/14-ide0[4] not preemptible in drivers/test/hold.c:hold_it for 7.0 us");
  }
}
