package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.PreemptCount;
import dev.kernellab.kernel.SpinLock;
import org.junit.jupiter.api.Test;

/** The ledger of who held a CPU: slots by path and context, the strongest state, the merged rest. */
class WaitLedgerTests {

  private static KernelPath path(int i) {
    return KernelPath.path("scenario/p.c", "f" + i).build();
  }

  private static WaitLedger.Stretch stretch(KernelPath p, byte context) {
    WaitLedger.Stretch s = new WaitLedger.Stretch();
    s.path = p;
    s.context = context;
    return s;
  }

  @Test
  void aPathAndItsCalleeTakingTurnsFillTwoSlots() {
    WaitLedger l = new WaitLedger();
    KernelPath a = path(1);
    KernelPath b = path(2);
    for (int i = 0; i < 10; i++) {
      l.add(stretch(a, WaitLedger.TASK), 3, 0);
      l.add(stretch(b, WaitLedger.TASK), 5, 0);
    }
    assertThat(l.slots).isEqualTo(2);
    assertThat(l.ns[0]).isEqualTo(30);
    assertThat(l.ns[1]).isEqualTo(50);
    assertThat(l.total()).isEqualTo(80);
    assertThat(l.firstSeen[0]).isLessThan(l.firstSeen[1]);
  }

  @Test
  void theSamePathInAnotherContextIsAnotherHolder() {
    WaitLedger l = new WaitLedger();
    KernelPath a = path(1);
    l.add(stretch(a, WaitLedger.TASK), 1, 0);
    l.add(stretch(a, WaitLedger.SOFTIRQ), 1, 0);
    l.add(stretch(a, WaitLedger.HARDIRQ), 1, 0);
    assertThat(l.slots).isEqualTo(3);
  }

  @Test
  void aSlotKeepsTheStrongestStateItsStretchesHad() {
    WaitLedger l = new WaitLedger();
    KernelPath a = path(1);
    SpinLock lock = SpinLock.spin("L");
    WaitLedger.Stretch locked = stretch(a, WaitLedger.TASK);
    locked.lock = lock;
    locked.preemptCount = 2 * PreemptCount.PREEMPT_OFFSET + PreemptCount.SOFTIRQ_OFFSET;
    locked.irqsOff = true;
    l.add(locked, 4, 0);
    l.add(stretch(a, WaitLedger.TASK), 4, 9);
    l.add(stretch(a, WaitLedger.TASK), 4, 3);
    assertThat(l.slots).isEqualTo(1);
    assertThat(l.lock[0]).isSameAs(lock);
    assertThat(l.preemptDepth[0]).isEqualTo(2);
    assertThat(l.bhDepth[0]).isEqualTo(1);
    assertThat(l.irqsOff[0]).isTrue();
    assertThat(l.iterations[0]).isEqualTo(9);
    assertThat(l.ns[0]).isEqualTo(12);
  }

  /**
   * A loop that drops an inner lock on each iteration inside an outer one (sync_list's
   * inode_lock inside kupdate's BKL, 175 ns and 4 us a turn): the slot names the lock its time
   * ran under longest, whichever came last.
   */
  @Test
  void aSlotNamesTheLockItsTimeRanUnderLongestNotTheLastOne() {
    WaitLedger l = new WaitLedger();
    KernelPath a = path(1);
    SpinLock outer = SpinLock.spin("kernel_flag");
    SpinLock inner = SpinLock.spin("inode_lock");
    WaitLedger.Stretch underOuter = stretch(a, WaitLedger.TASK);
    underOuter.lock = outer;
    WaitLedger.Stretch underInner = stretch(a, WaitLedger.TASK);
    underInner.lock = inner;
    l.add(underInner, 175, 0);
    assertThat(l.lock[0]).isSameAs(inner);
    for (int i = 0; i < 5; i++) {
      l.add(underOuter, 4_000, 0);
      l.add(underInner, 175, 0);
    }
    assertThat(l.slots).isEqualTo(1);
    assertThat(l.lock[0]).isSameAs(outer);
    assertThat(l.ns[0]).isEqualTo(175 + 5 * 4_175);
  }

  /** More holders than slots: the least leave for the merged rest, and the total stays exact. */
  @Test
  void beyondItsSlotsTheLeastHoldersMergeAndTheTotalStaysExact() {
    WaitLedger l = new WaitLedger();
    long total = 0;
    for (int i = 0; i < WaitLedger.SLOTS + 5; i++) {
      long ns = 100 + i;
      l.add(stretch(path(i), WaitLedger.TASK), ns, 0);
      total += ns;
    }
    assertThat(l.slots).isEqualTo(WaitLedger.SLOTS);
    assertThat(l.otherCount).isEqualTo(5);
    assertThat(l.total()).isEqualTo(total);
    // the five merged were the least at the time each came: 100, 101, ... the first paths
    assertThat(l.otherNs).isEqualTo(100 + 101 + 102 + 103 + 104);
    l.clear();
    assertThat(l.total()).isZero();
    assertThat(l.slots).isZero();
  }
}
