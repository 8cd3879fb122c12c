package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kernel/sched.c __wake_up_common (2.4.17), the loop of every {@code wake_up}:
 *
 * <pre>
 *   list_for_each(tmp, &q->task_list) {
 *       p = curr->task;
 *       if (try_to_wake_up(p, sync) && (curr->flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
 *           break;
 *   }
 * </pre>
 *
 * with {@code nr_exclusive = 1} for {@code wake_up} and {@code sync = 1} for
 * {@code wake_up_sync}. Only a waiter actually woken counts against {@code nr_exclusive}; one
 * that is runnable already (woken, not yet run, so still on the queue) is passed over.
 *
 * <p>One zero-cost CPU. Waiters sleep at boot; the waker W first sleeps 1 ms (one jiffy, so it
 * runs again at the 10 ms tick), by which time every waiter is asleep on the queue.
 */
class WakeUpSemanticsTests {

  private static final long MS = 1_000_000;

  /** What the scheduler was asked: every successful try_to_wake_up, and its sync argument. */
  private static final class Recording extends ForwardingScheduler {
    final List<String> woken = new ArrayList<>();
    final long wakeUpCostNs;

    Recording(long wakeUpCostNs) {
      super(new SimpleRoundRobinScheduler());
      this.wakeUpCostNs = wakeUpCostNs;
    }

    @Override
    public boolean tryToWakeUp(TaskView p, boolean sync) {
      boolean w = super.tryToWakeUp(p, sync);
      if (w && !p.comm().equals("W") && !p.comm().startsWith("ksoftirqd")) {
        woken.add(p.comm() + (sync ? "/sync" : ""));
      }
      return w;
    }

    @Override
    public long wakeUpCostNs() {
      return wakeUpCostNs;
    }
  }

  private static KernelPath reader(WaitQueue q) {
    return KernelPath.userProgram("reader")
        .syscall(KernelPath.path("test/q.c", "read").waitEvent(q, () -> false).build())
        .build();
  }

  private static KernelPath downer(Semaphore s) {
    return KernelPath.userProgram("downer")
        .syscall(KernelPath.path("test/q.c", "lock").down(s).build())
        .build();
  }

  private static KernelPath waker(KernelPath body) {
    return KernelPath.userProgram("waker")
        .syscall(KernelPath.path("test/q.c", "poke").sleepFor(MS).call(body).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
  }

  private static KernelBuilder machine(Scheduler s) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1).scheduler(s);
  }

  private static TaskState stateOf(Kernel k, String comm) {
    return k.allTasks().stream().filter(t -> t.comm().equals(comm)).findFirst().orElseThrow().state();
  }

  /**
   * C and D sleep exclusively in down() (arch/i386/kernel/semaphore.c __down, 2.4.17). W calls
   * wake_up twice in a row, so C is runnable but has not run (it is still on the queue) at the
   * second call: that call passes over C, whose try_to_wake_up fails, and wakes D.
   */
  @Test
  void aSecondWakeUpBeforeTheFirstWokenWaiterRunsWakesTheNextExclusiveWaiter() {
    Semaphore s = new Semaphore("S", 0);
    WaitQueue q = s.waitQueue();
    Recording rec = new Recording(0);
    KernelPath twice = KernelPath.path("test/q.c", "twice").wakeUp(q).wakeUp(q).build();
    Kernel k = machine(rec)
        .task(TaskSpec.user("C", downer(s)))
        .task(TaskSpec.user("D", downer(s)))
        .task(TaskSpec.user("E", downer(s)))
        .task(TaskSpec.user("W", waker(twice)))
        .build();
    k.run(30 * MS);
    assertThat(rec.woken).as("one exclusive waiter per wake_up, in queue order").containsExactly("C", "D");
    assertThat(stateOf(k, "E")).isEqualTo(TaskState.UNINTERRUPTIBLE);
  }

  /**
   * W's wake_up wakes A, B (non-exclusive) and C (the first exclusive): three wake-ups at the
   * policy's 7 us each, 21 us of W's time between the instant before and after the call. A
   * wake_up of a queue nobody sleeps on wakes nobody and costs nothing.
   */
  @Test
  void wakeUpChargesThePolicysWakeUpCostOncePerTaskItWakes() {
    Semaphore s = new Semaphore("S", 0);
    WaitQueue q = s.waitQueue();
    WaitQueue empty = new WaitQueue("empty");
    List<Long> at = new ArrayList<>();
    Recording rec = new Recording(7_000);
    KernelPath body = KernelPath.path("test/q.c", "timed")
        .effect("t0", c -> at.add(c.now()))
        .wakeUp(q)
        .effect("t1", c -> at.add(c.now()))
        .wakeUp(empty)
        .effect("t2", c -> at.add(c.now()))
        .build();
    Kernel k = machine(rec)
        .task(TaskSpec.user("A", reader(q)))
        .task(TaskSpec.user("C", downer(s)))
        .task(TaskSpec.user("B", reader(q)))
        .task(TaskSpec.user("D", downer(s)))
        .task(TaskSpec.user("W", waker(body)))
        .build();
    k.run(30 * MS);
    assertThat(rec.woken).containsExactlyInAnyOrder("A", "B", "C");
    assertThat(at).hasSize(3);
    assertThat(at.get(1) - at.get(0)).as("3 tasks woken x 7 us").isEqualTo(21_000);
    assertThat(at.get(2) - at.get(1)).as("nobody woken, nothing paid").isZero();
    assertThat(stateOf(k, "D")).isEqualTo(TaskState.UNINTERRUPTIBLE);
  }

  /**
   * include/linux/sched.h wake_up() as a driver calls it (the RTC handler's
   * {@code wake_up_interruptible(&rtc_wait)}): it returns how many tasks it woke, here the
   * two readers; a second call right after finds them runnable and wakes none.
   */
  @Test
  void wakeUpFromADriverReturnsHowManyItWoke() {
    WaitQueue q = new WaitQueue("q");
    List<Integer> counts = new ArrayList<>();
    KernelPath body = KernelPath.path("test/q.c", "driver")
        .effect("wake_up(&q) twice", c -> {
          counts.add(c.wakeUp(q));
          counts.add(c.wakeUp(q));
        })
        .build();
    Recording rec = new Recording(0);
    machine(rec)
        .task(TaskSpec.user("A", reader(q)))
        .task(TaskSpec.user("B", reader(q)))
        .task(TaskSpec.user("W", waker(body)))
        .build()
        .run(30 * MS);
    assertThat(counts).containsExactly(2, 0);
    assertThat(rec.woken).containsExactlyInAnyOrder("A", "B");
  }

  /**
   * kernel/sched.c __wake_up_sync (2.4.17) passes sync = 1 to try_to_wake_up; plain wake_up
   * passes 0. A waits on q1, B on q2; W wakes q1 with wake_up_sync and q2 with wake_up.
   */
  @Test
  void wakeUpSyncTellsTryToWakeUpThatTheWakerIsAboutToSleep() {
    WaitQueue q1 = new WaitQueue("q1");
    WaitQueue q2 = new WaitQueue("q2");
    Recording rec = new Recording(0);
    KernelPath body = KernelPath.path("test/q.c", "both").wakeUpSync(q1).wakeUp(q2).build();
    machine(rec)
        .task(TaskSpec.user("A", reader(q1)))
        .task(TaskSpec.user("B", reader(q2)))
        .task(TaskSpec.user("W", waker(body)))
        .build()
        .run(30 * MS);
    assertThat(rec.woken).containsExactly("A/sync", "B");
  }
}
