package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import org.junit.jupiter.api.Test;

/**
 * The global runqueue list of 2.4.17 (kernel/sched.c add_to_runqueue, move_last_runqueue,
 * move_first_runqueue, include/linux/sched.h del_from_runqueue): every operation needs
 * runqueue_lock, a task is on the list at most once, and the check finds broken links and
 * counts.
 */
class RunqueueListTests {

  private static GoodnessEntity entity(int pid, int cpu) {
    Task t = TestTasks.other(pid, cpu);
    GoodnessEntity e = new GoodnessEntity(t, 5);
    return e;
  }

  private static RunqueueList locked() {
    RunqueueList l = new RunqueueList(2);
    l.lock();
    return l;
  }

  @Test
  void addPutsAtTheHeadAndCountsPerCpu() {
    RunqueueList l = locked();
    GoodnessEntity a = entity(1, 0);
    GoodnessEntity b = entity(2, 1);
    l.addFirst(a);
    l.addFirst(b);
    assertThat(l.tasks()).containsExactly(b.task(), a.task());
    assertThat(l.first()).isSameAs(b);
    assertThat(l.size()).isEqualTo(2);
    assertThat(l.nrRunning(0)).isEqualTo(1);
    assertThat(l.nrRunning(1)).isEqualTo(1);
    l.unlock();
    l.check();
  }

  @Test
  void moveLastAndMoveFirstReorderWithoutChangingTheCounts() {
    RunqueueList l = locked();
    GoodnessEntity a = entity(1, 0);
    GoodnessEntity b = entity(2, 0);
    GoodnessEntity c = entity(3, 0);
    l.addFirst(a);
    l.addFirst(b);
    l.addFirst(c); // c b a
    l.moveLast(c); // b a c
    assertThat(l.tasks()).containsExactly(b.task(), a.task(), c.task());
    l.moveFirst(a); // a b c
    assertThat(l.tasks()).containsExactly(a.task(), b.task(), c.task());
    l.moveLast(c); // already last
    assertThat(l.tasks()).containsExactly(a.task(), b.task(), c.task());
    l.remove(b);
    assertThat(l.tasks()).containsExactly(a.task(), c.task());
    assertThat(l.size()).isEqualTo(2);
    assertThat(l.nrRunning(0)).isEqualTo(2);
    l.remove(a);
    l.remove(c);
    assertThat(l.first()).isNull();
    l.unlock();
    l.check();
  }

  @Test
  void accountMovesATasksShareOfNrRunningToAnotherCpu() {
    RunqueueList l = locked();
    GoodnessEntity a = entity(1, 0);
    l.addFirst(a);
    l.account(a, 1);
    assertThat(l.nrRunning(0)).isZero();
    assertThat(l.nrRunning(1)).isEqualTo(1);
    l.remove(a);
    assertThat(l.nrRunning(1)).isZero();
    assertThatIllegalStateException().isThrownBy(() -> l.account(a, 0)).withMessageContaining("not on the runqueue");
  }

  @Test
  void everyListOperationNeedsRunqueueLock() {
    RunqueueList l = new RunqueueList(1);
    GoodnessEntity a = entity(1, 0);
    assertThatIllegalStateException().isThrownBy(() -> l.addFirst(a)).withMessageContaining("without runqueue_lock");
    l.lock();
    l.addFirst(a);
    l.unlock();
    assertThatIllegalStateException().isThrownBy(() -> l.remove(a)).withMessageContaining("without runqueue_lock");
    assertThatIllegalStateException().isThrownBy(() -> l.moveLast(a)).withMessageContaining("without runqueue_lock");
    assertThatIllegalStateException().isThrownBy(() -> l.moveFirst(a)).withMessageContaining("without runqueue_lock");
    assertThatIllegalStateException().isThrownBy(l::unlock).withMessageContaining("without runqueue_lock");
    l.lock();
    assertThatIllegalStateException().isThrownBy(l::lock).withMessageContaining("taken twice");
  }

  @Test
  void aTaskIsOnTheListAtMostOnceAndOnlyAQueuedTaskMoves() {
    RunqueueList l = locked();
    GoodnessEntity a = entity(1, 0);
    GoodnessEntity b = entity(2, 0);
    l.addFirst(a);
    assertThatIllegalStateException().isThrownBy(() -> l.addFirst(a)).withMessageContaining("already on the runqueue");
    assertThatIllegalStateException().isThrownBy(() -> l.remove(b)).withMessageContaining("not on the runqueue");
    assertThatIllegalStateException().isThrownBy(() -> l.moveLast(b)).withMessageContaining("not on the runqueue");
    assertThatIllegalStateException().isThrownBy(() -> l.moveFirst(b)).withMessageContaining("not on the runqueue");
  }

  @Test
  void theCheckFindsAHeldLockBrokenLinksAndWrongCounts() {
    RunqueueList l = locked();
    assertThatIllegalStateException().isThrownBy(l::check).withMessageContaining("held at a quiescent point");
    GoodnessEntity a = entity(1, 0);
    GoodnessEntity b = entity(2, 0);
    l.addFirst(a);
    l.addFirst(b);
    l.unlock();
    l.check();

    a.prev = null; // b -> a but a no longer points back
    assertThatIllegalStateException().isThrownBy(l::check).withMessageContaining("list broken");
    a.prev = b;
    a.onRunqueue = false;
    assertThatIllegalStateException().isThrownBy(l::check).withMessageContaining("list broken");
    a.onRunqueue = true;
    a.nrCpu = 1;
    assertThatIllegalStateException().isThrownBy(l::check).withMessageContaining("nr_running of cpu0");
    a.nrCpu = 0;
    b.next = null; // the walk ends at b, the tail is a
    assertThatIllegalStateException().isThrownBy(l::check).withMessageContaining("but the list holds 1");
    b.next = a;
    a.next = b; // a cycle: more entries than nr_running
    b.prev = a;
    assertThatIllegalStateException().isThrownBy(l::check);
  }
}
