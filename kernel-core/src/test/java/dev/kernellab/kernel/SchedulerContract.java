package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every {@link Scheduler} must show, on 1, 2 and 4 CPUs (Guava testlib style: a
 * scheduler module subclasses this and supplies {@link #newScheduler()}). Published in
 * kernel-core's test-jar.
 *
 * <p>It drives the policy half through {@link StandaloneSchedulerHost}, which stands in for the
 * generic half of {@code schedule()}. After every test and every random step the scheduler's
 * own {@link Scheduler#checkInvariants()} runs too.
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
      assertThat(h.ipis).contains(waker + "->0");
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

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void randomSequencesNeitherLoseNorDuplicateTasks(int cpus) {
    qt().withFixedSeed(0x02_2002L + cpus)
        .withExamples(120)
        .withShrinkCycles(200)
        .forAll(lists().of(integers().between(0, Action.KINDS * 64 - 1)).ofSizeBetween(1, 120))
        .checkAssert(codes -> runStory(cpus, codes.stream().map(Action::decode).toList()));
  }

  /** One step of a random story; decoded from an int so QuickTheories can shrink it. */
  record Action(String kind, int arg) {
    static final int KINDS = 10;
    static final String[] NAMES = {
      "spawn", "fork", "block", "wake", "tick", "schedule", "exit", "yield", "nice", "rt"
    };

    static Action decode(int code) {
      return new Action(NAMES[code % KINDS], code / KINDS);
    }

    @Override
    public String toString() {
      return kind + "(" + arg + ")";
    }
  }

  private void runStory(int cpus, List<Action> story) {
    StandaloneSchedulerHost h = boot(cpus);
    List<Task> all = new ArrayList<>();
    int nextPid = 1;
    for (Action a : story) {
      int cpu = a.arg() % cpus;
      Task cur = h.current(cpu);
      switch (a.kind()) {
        case "spawn" -> all.add(h.spawn(TestTasks.other(nextPid++), cpu));
        case "fork" -> {
          if (!cur.isIdle()) {
            all.add(h.fork(cpu, TestTasks.other(nextPid++)));
          }
        }
        case "block" -> {
          if (!cur.isIdle()) {
            h.block(cpu);
          }
        }
        case "wake" -> {
          List<Task> sleeping = all.stream().filter(t -> t.state().isSleeping()).toList();
          if (!sleeping.isEmpty()) {
            h.wake(sleeping.get(a.arg() % sleeping.size()), cpu);
          }
        }
        case "tick" -> h.tick();
        case "schedule" -> h.schedule(cpu);
        case "exit" -> {
          if (!cur.isIdle()) {
            h.exit(cpu);
            all.remove(cur);
          }
        }
        case "yield" -> {
          if (!cur.isIdle()) {
            h.setThisCpu(cpu);
            if (h.scheduler().yield(cur, cpu)) {
              h.schedule(cpu);
            }
          }
        }
        case "nice" -> {
          if (!all.isEmpty()) {
            Task t = all.get(a.arg() % all.size());
            h.setThisCpu(cpu);
            int nice = (a.arg() % 40) - 20;
            t.setNice(nice);
            h.scheduler().setNice(t, nice);
          }
        }
        case "rt" -> {
          if (!all.isEmpty()) {
            Task t = all.get(a.arg() % all.size());
            h.setThisCpu(cpu);
            boolean rt = a.arg() % 2 == 0;
            SchedPolicy p = rt ? SchedPolicy.RR : SchedPolicy.OTHER;
            int prio = rt ? 1 + a.arg() % 99 : 0;
            t.setPolicy(p, prio);
            h.scheduler().setScheduler(t, p, prio);
          }
        }
        default -> throw new IllegalStateException(a.kind());
      }
      checkNothingLost(h, all, story);
    }
  }

  private static void checkNothingLost(StandaloneSchedulerHost h, List<Task> all, List<Action> story) {
    Scheduler s = h.scheduler();
    s.checkInvariants();
    List<Task> queued = s.queuedTasks();
    Set<Task> seen = new HashSet<>();
    for (Task t : queued) {
      assertThat(seen.add(t)).as("%s queued twice after %s", t, story).isTrue();
      assertThat(t.isIdle()).as("idle task queued").isFalse();
    }
    for (Task t : all) {
      boolean runnable = t.state() == TaskState.RUNNING;
      assertThat(queued.contains(t))
          .as("%s (state %s) queued iff runnable, after %s", t, t.state(), story)
          .isEqualTo(runnable);
    }
    int total = 0;
    Set<Task> currents = new HashSet<>();
    for (int c = 0; c < h.cpuCount(); c++) {
      total += s.nrRunning(c);
      Task cur = h.current(c);
      assertThat(currents.add(cur)).as("%s current on two CPUs", cur).isTrue();
      assertThat(cur.isIdle() || cur.state() == TaskState.RUNNING)
          .as("cpu%d runs %s in state %s", c, cur, cur.state())
          .isTrue();
    }
    assertThat(total).as("sum of nr_running").isEqualTo(queued.size());
  }
}
