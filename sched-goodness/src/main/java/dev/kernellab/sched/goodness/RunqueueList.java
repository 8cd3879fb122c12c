package dev.kernellab.sched.goodness;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;

/**
 * Models kernel/sched.c: {@code runqueue_head}, {@code runqueue_lock} and {@code nr_running}
 * with {@code add_to_runqueue}, {@code del_from_runqueue}, {@code move_last_runqueue} and
 * {@code move_first_runqueue} (2.4.17).
 *
 * <p>The one runqueue of the whole machine: every CPU's schedule() walks the same list under
 * the same lock. The lock is modelled as an assertion (the simulation is single-threaded):
 * every change to the list checks that the lock is held, and taking it twice is an error, so a
 * path that forgot to lock, or re-entered the scheduler, fails at once.
 */
final class RunqueueList {

  /*
   * Implementation overview
   *
   * An intrusive doubly linked list threaded through GoodnessEntity.prev/next, like
   * struct list_head run_list. Woken tasks go to the head (add_to_runqueue is list_add), yielding
   * and expired SCHED_RR tasks to the tail, setscheduler moves a task to the head:
   *
   *    head                                                   tail
   *     |                                                       |
   *     v                                                       v
   *   +------+  next  +------+  next  +------+        +------+
   *   | p7   | -----> | p3   | -----> | p12  | -> .. -> | p1   | -> null
   *   |ctr 4 | <----- |ctr 0 | <----- |ctr 6 |  <- .. <- |ctr 2 |
   *   +------+  prev  +------+  prev  +------+        +------+
   *   woken last                                       yielded / RR expired
   *
   * schedule() walks it from the head and keeps the first task of highest goodness (strict >),
   * so list order is the tie-break. The running tasks stay on the list (2.4 marks them with
   * cpus_runnable instead of dequeuing them).
   *
   * nr_running is the list length. For Scheduler.nrRunning(cpu) it is split by CPU: each queued
   * task counts for nrCpu, its processor when it was queued or last picked.
   */

  private GoodnessEntity head; // first task schedule() considers; null iff the list is empty
  private GoodnessEntity tail; // last; null iff the list is empty
  private int nrRunning; // number of entities on the list
  private final int[] nrRunningByCpu; // sums to nrRunning
  private boolean locked; // runqueue_lock

  RunqueueList(int cpus) {
    this.nrRunningByCpu = new int[cpus];
  }

  /** {@code spin_lock_irq(&runqueue_lock)}. */
  void lock() {
    if (locked) {
      throw new IllegalStateException("runqueue_lock taken twice (the scheduler was re-entered)");
    }
    locked = true;
  }

  /** {@code spin_unlock_irq(&runqueue_lock)}. */
  void unlock() {
    assertLocked();
    locked = false;
  }

  /** Fails unless runqueue_lock is held: every list operation of the kernel requires it. */
  void assertLocked() {
    if (!locked) {
      throw new IllegalStateException("runqueue list used without runqueue_lock");
    }
  }

  /** {@code add_to_runqueue(p)}: list_add at the head; nr_running++. */
  @Models(file = "kernel/sched.c", function = "add_to_runqueue", version = "2.4.17")
  void addFirst(GoodnessEntity e) {
    assertLocked();
    if (e.onRunqueue) {
      throw new IllegalStateException(e.task() + " is already on the runqueue");
    }
    linkFirst(e);
    e.onRunqueue = true;
    e.nrCpu = e.task().cpu();
    nrRunning++;
    nrRunningByCpu[e.nrCpu]++;
  }

  /** {@code del_from_runqueue(p)}: list_del; nr_running--. */
  @Models(file = "include/linux/sched.h", function = "del_from_runqueue", version = "2.4.17")
  void remove(GoodnessEntity e) {
    assertLocked();
    requireQueued(e);
    unlink(e);
    e.onRunqueue = false;
    nrRunning--;
    nrRunningByCpu[e.nrCpu]--;
  }

  /** {@code move_last_runqueue(p)}: to the tail (sched_yield, SCHED_RR expiry). */
  @Models(file = "kernel/sched.c", function = "move_last_runqueue", version = "2.4.17")
  void moveLast(GoodnessEntity e) {
    assertLocked();
    requireQueued(e);
    unlink(e);
    e.prev = tail;
    if (tail == null) {
      head = e;
    } else {
      tail.next = e;
    }
    tail = e;
  }

  /** {@code move_first_runqueue(p)}: to the head (setscheduler). */
  @Models(file = "kernel/sched.c", function = "move_first_runqueue", version = "2.4.17")
  void moveFirst(GoodnessEntity e) {
    assertLocked();
    requireQueued(e);
    unlink(e);
    linkFirst(e);
  }

  /** Counts a queued task's share of nr_running for {@code cpu} from now on. */
  void account(GoodnessEntity e, int cpu) {
    requireQueued(e);
    nrRunningByCpu[e.nrCpu]--;
    e.nrCpu = cpu;
    nrRunningByCpu[cpu]++;
  }

  /** The first task schedule() considers, or null if the list is empty. */
  GoodnessEntity first() {
    return head;
  }

  /** {@code nr_running}. */
  int size() {
    return nrRunning;
  }

  /** The queued tasks counted for {@code cpu}. */
  int nrRunning(int cpu) {
    return nrRunningByCpu[cpu];
  }

  /** The queued tasks, head first. */
  List<TaskView> tasks() {
    List<TaskView> l = new ArrayList<>(nrRunning);
    for (GoodnessEntity e = head; e != null; e = e.next) {
      l.add(e.task());
    }
    return l;
  }

  /** Checks the links, the flags and the counts; throws {@link IllegalStateException}. */
  void check() {
    if (locked) {
      throw new IllegalStateException("runqueue_lock held at a quiescent point");
    }
    int n = 0;
    int[] byCpu = new int[nrRunningByCpu.length];
    GoodnessEntity before = null;
    for (GoodnessEntity e = head; e != null; e = e.next) {
      if (e.prev != before || !e.onRunqueue || ++n > nrRunning) {
        throw new IllegalStateException("runqueue list broken at " + e + " (entry " + n + ")");
      }
      byCpu[e.nrCpu]++;
      before = e;
    }
    if (before != tail || n != nrRunning) {
      throw new IllegalStateException("nr_running " + nrRunning + " but the list holds " + n);
    }
    for (int c = 0; c < byCpu.length; c++) {
      if (byCpu[c] != nrRunningByCpu[c]) {
        throw new IllegalStateException("nr_running of cpu" + c + " is " + nrRunningByCpu[c]
            + " but " + byCpu[c] + " queued tasks count for it");
      }
    }
  }

  private void linkFirst(GoodnessEntity e) {
    e.prev = null;
    e.next = head;
    if (head == null) {
      tail = e;
    } else {
      head.prev = e;
    }
    head = e;
  }

  private void unlink(GoodnessEntity e) {
    if (e.prev == null) {
      head = e.next;
    } else {
      e.prev.next = e.next;
    }
    if (e.next == null) {
      tail = e.prev;
    } else {
      e.next.prev = e.prev;
    }
    e.prev = null;
    e.next = null;
  }

  private static void requireQueued(GoodnessEntity e) {
    if (!e.onRunqueue) {
      throw new IllegalStateException(e.task() + " is not on the runqueue");
    }
  }
}
