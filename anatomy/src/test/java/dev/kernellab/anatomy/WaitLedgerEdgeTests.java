package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import org.junit.jupiter.api.Test;

/**
 * The ledger's edges: a slot remembers user mode if any of its stretches ran there, the least
 * of equal holders to leave for the merged rest is the earliest slot, and a loop's count for a
 * holder the ledger never saw changes nothing.
 */
class WaitLedgerEdgeTests {

  private static final KernelPath[] PATHS = new KernelPath[WaitLedger.SLOTS + 1];

  static {
    for (int i = 0; i < PATHS.length; i++) {
      PATHS[i] = KernelPath.path("scenario/edge.c", "g" + i).build();
    }
  }

  private static final KernelPath UNSEEN = KernelPath.path("scenario/edge.c", "unseen").build();

  private static KernelPath path(int i) {
    return PATHS[i];
  }

  private static WaitLedger.Stretch stretch(KernelPath p) {
    WaitLedger.Stretch s = new WaitLedger.Stretch();
    s.path = p;
    s.context = WaitLedger.TASK;
    return s;
  }

  @Test
  void aSlotRemembersUserModeIfAnyOfItsStretchesRanThere() {
    WaitLedger l = new WaitLedger();
    WaitLedger.Stretch user = stretch(null);
    user.user = true;
    l.add(user, 7, 0);
    l.add(stretch(null), 5, 0);
    assertThat(l.slots).isEqualTo(1);
    assertThat(l.user[0]).isTrue();
    assertThat(l.ns[0]).isEqualTo(12);
  }

  /** Sixteen holders of 100 ns each, then a seventeenth: the first of the equals leaves. */
  @Test
  void amongEqualHoldersTheEarliestSlotLeavesForTheMergedRest() {
    WaitLedger l = new WaitLedger();
    for (int i = 0; i <= WaitLedger.SLOTS; i++) {
      l.add(stretch(path(i)), 100, 0);
    }
    assertThat(l.slots).isEqualTo(WaitLedger.SLOTS);
    assertThat(l.otherCount).isEqualTo(1);
    assertThat(l.otherNs).isEqualTo(100);
    assertThat(l.path[0]).isSameAs(path(WaitLedger.SLOTS));
    for (int i = 1; i < WaitLedger.SLOTS; i++) {
      assertThat(l.path[i]).isSameAs(path(i));
    }
    // the newcomer is the last seen, whatever slot it took
    assertThat(l.firstSeen[0]).isGreaterThan(l.firstSeen[WaitLedger.SLOTS - 1]);
    assertThat(l.total()).isEqualTo(100L * (WaitLedger.SLOTS + 1));
  }

  @Test
  void aLoopCountForAHolderNotInTheLedgerChangesNothing() {
    WaitLedger l = new WaitLedger();
    for (int i = 0; i < WaitLedger.SLOTS; i++) {
      l.add(stretch(path(i)), 10, 0);
    }
    l.countIterations(stretch(UNSEEN), 42);
    l.countIterations(stretch(path(3)), 7);
    l.countIterations(stretch(path(3)), 5);
    assertThat(l.iterations[3]).isEqualTo(7);
    for (int i = 0; i < WaitLedger.SLOTS; i++) {
      if (i != 3) {
        assertThat(l.iterations[i]).as("slot %d", i).isZero();
      }
    }
    assertThat(l.slots).isEqualTo(WaitLedger.SLOTS);
    assertThat(l.total()).isEqualTo(10L * WaitLedger.SLOTS);
  }
}
