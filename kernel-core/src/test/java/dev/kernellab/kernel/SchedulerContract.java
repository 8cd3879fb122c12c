package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost.Ipi;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every {@link Scheduler} must show, on 1, 2 and 4 CPUs (Guava testlib style: a
 * scheduler module subclasses this and supplies {@link #newScheduler()}). Published in
 * kernel-core's test-jar.
 *
 * <p>It drives the policy half through {@link StandaloneSchedulerHost}, which stands in for the
 * generic half of {@code schedule()}. These are the hand-written cases; the random stories, in
 * which every step draws its CPU, task, nice, policy and rt_priority independently, are
 * {@link SchedulerStoryContract}, which a scheduler module runs beside this one.
 */
public abstract class SchedulerContract {

  /** A fresh, unattached scheduler. */
  protected abstract Scheduler newScheduler();

  /** HZ for the tests. */
  protected int hz() {
    return 100;
  }

  /** How a scheduler orders runnable real-time tasks of one priority. */
  protected enum RealTimeOrder {
    /** POSIX: in the order they became runnable (O(1): tail of the priority list). */
    FIFO,
    /**
     * The last woken first: 2.4.17's add_to_runqueue() puts a woken task at the list head and
     * schedule() keeps the first of equal goodness.
     */
    LAST_WOKEN_FIRST
  }

  /** The scheduler's order among equal real-time tasks (a feature, chosen per scheduler). */
  protected RealTimeOrder realTimeOrder() {
    return RealTimeOrder.FIFO;
  }

  private StandaloneSchedulerHost boot(int cpus) {
    return new StandaloneSchedulerHost(newScheduler(), cpus, hz());
  }

  private static Task pinned(Task t, int cpu) {
    t.setCpusAllowed(1L << cpu);
    return t;
  }

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void aRealTimeTaskRunsBeforeEverySchedOtherTask(int cpus) {
    StandaloneSchedulerHost h = boot(cpus);
    for (int i = 1; i <= 5; i++) {
      h.spawn(pinned(TestTasks.other(i), 0), 0);
    }
    Task rt = h.spawn(pinned(TestTasks.user(10, "rt", SchedPolicy.FIFO, 1, 0), 0), 0);
    assertThat(h.schedule(0)).isSameAs(rt);
    h.scheduler().checkInvariants();
  }

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void realTimeTasksOfOneLevelRunInTheSchedulersDeclaredOrder(int cpus) {
    StandaloneSchedulerHost h = boot(cpus);
    Task a = h.spawn(pinned(TestTasks.user(1, "a", SchedPolicy.FIFO, 50, 0), 0), 0);
    Task b = h.spawn(pinned(TestTasks.user(2, "b", SchedPolicy.FIFO, 50, 0), 0), 0);
    Task c = h.spawn(pinned(TestTasks.user(3, "c", SchedPolicy.FIFO, 50, 0), 0), 0);
    boolean fifo = realTimeOrder() == RealTimeOrder.FIFO;
    Task first = fifo ? a : c;
    Task last = fifo ? c : a;
    assertThat(h.schedule(0)).isSameAs(first);
    // Ticks never rotate SCHED_FIFO tasks.
    for (int i = 0; i < 50; i++) {
      h.tick();
    }
    assertThat(h.schedule(0)).isSameAs(first);
    assertThat(h.block(0)).isSameAs(b);
    assertThat(h.block(0)).isSameAs(last);
    h.wake(first, 0);
    assertThat(h.block(0)).isSameAs(first);
    h.scheduler().checkInvariants();
  }

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void aWokenHigherPriorityTaskGetsNeedReschedSetOnItsCpu(int cpus) {
    StandaloneSchedulerHost h = boot(cpus);
    Task hog = h.spawn(pinned(TestTasks.other(1), 0), 0);
    Task rt = h.spawn(pinned(TestTasks.user(2, "rt", SchedPolicy.FIFO, 99, 0), 0), 0);
    assertThat(h.schedule(0)).isSameAs(rt);
    h.block(0);
    assertThat(h.current(0)).isSameAs(hog);
    hog.setNeedResched(false);

    int waker = cpus - 1;
    assertThat(h.wake(rt, waker)).isTrue();
    assertThat(hog.needResched()).as("need_resched of the task running where rt must run").isTrue();
    if (waker != 0) {
      assertThat(h.ipis()).contains(new Ipi(waker, 0));
    }
    assertThat(h.schedule(0)).isSameAs(rt);
    h.scheduler().checkInvariants();
  }

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void aCpuWithNothingRunnableRunsItsIdleTask(int cpus) {
    StandaloneSchedulerHost h = boot(cpus);
    Task t = h.spawn(pinned(TestTasks.other(1), 0), 0);
    assertThat(h.schedule(0)).isSameAs(t);
    assertThat(h.block(0)).isSameAs(h.idle(0));
    assertThat(h.scheduler().nrRunning(0)).isZero();
    assertThat(h.scheduler().queuedTasks()).isEmpty();
  }
}
