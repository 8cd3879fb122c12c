package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The predicates of include/asm-i386/hardirq.h on the packed count: in_interrupt() is hardirq
 * or softirq/bh depth, in_irq() hardirq only, in_softirq() the bh byte, in_atomic() anything
 * but PREEMPT_ACTIVE.
 */
class PreemptCountTests {

  private static final int LOCK = PreemptCount.PREEMPT_OFFSET;
  private static final int BH = PreemptCount.SOFTIRQ_OFFSET;
  private static final int IRQ = PreemptCount.HARDIRQ_OFFSET;
  private static final int ACTIVE = PreemptCount.PREEMPT_ACTIVE;

  @Test
  void aHeldSpinlockIsAtomicButNotInterruptContext() {
    assertThat(PreemptCount.inAtomic(LOCK)).isTrue();
    assertThat(PreemptCount.inInterrupt(LOCK)).isFalse();
    assertThat(PreemptCount.inIrq(LOCK)).isFalse();
    assertThat(PreemptCount.inSoftirq(LOCK)).isFalse();
    assertThat(PreemptCount.preemptDepth(3 * LOCK + BH)).isEqualTo(3);
  }

  @Test
  void bottomHalvesOffCountAsSoftirqAndInterruptContext() {
    assertThat(PreemptCount.inSoftirq(BH)).isTrue();
    assertThat(PreemptCount.inInterrupt(BH)).isTrue();
    assertThat(PreemptCount.inIrq(BH)).isFalse();
    assertThat(PreemptCount.inSoftirq(255 * BH)).isTrue();
  }

  @Test
  void aHardirqIsIrqAndInterruptButNotSoftirq() {
    assertThat(PreemptCount.inIrq(IRQ)).isTrue();
    assertThat(PreemptCount.inInterrupt(IRQ)).isTrue();
    assertThat(PreemptCount.inSoftirq(IRQ)).isFalse();
    assertThat(PreemptCount.inIrq(255 * IRQ)).isTrue();
  }

  @Test
  void preemptActiveAloneIsNotAtomic() {
    assertThat(PreemptCount.inAtomic(ACTIVE)).isFalse();
    assertThat(PreemptCount.inAtomic(ACTIVE | LOCK)).isTrue();
    assertThat(PreemptCount.inAtomic(0)).isFalse();
    assertThat(PreemptCount.inInterrupt(ACTIVE)).isFalse();
  }

  @Test
  void describeNamesEveryField() {
    assertThat(PreemptCount.describe(2 * LOCK + BH + 3 * IRQ))
        .isEqualTo("preempt_count=0x00030102 (preempt 2, softirq 1, hardirq 3)");
    assertThat(PreemptCount.describe(ACTIVE | LOCK))
        .isEqualTo("preempt_count=0x04000001 (preempt 1, softirq 0, hardirq 0, PREEMPT_ACTIVE)");
  }
}
