package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random stories of scheduler calls on 1, 2 and 4 CPUs, in which every step draws its CPU, its
 * target task, a nice value, a policy (SCHED_OTHER, SCHED_FIFO or SCHED_RR) and an rt_priority
 * independently. A scheduler module subclasses it and supplies {@link #newScheduler()};
 * published in kernel-core's test-jar.
 *
 * <p>After every step: no task is lost or queued twice, a task is queued iff it is runnable,
 * no task is current on two CPUs, the per-CPU nr_running add up, and the scheduler's own
 * invariants hold. On one CPU, after every schedule(), the CPU runs a real-time task of the
 * highest runnable rt_priority if there is one: both kernels of the era pick any runnable
 * real-time task of higher priority before everything else (2.4.17 goodness() adds 1000 to
 * rt_priority; 2.5.5 queues it at MAX_RT_PRIO - 1 - rt_priority). On SMP that need not hold
 * across CPUs (2.5.5 runqueues are per CPU), so it is checked on one CPU only.
 */
public abstract class SchedulerStoryContract {

  /** A fresh, unattached scheduler. */
  protected abstract Scheduler newScheduler();

  /** The kinds of step; every kind is valid in any state (skipped when it makes no sense). */
  enum Kind { SPAWN, FORK, BLOCK, WAKE, TICK, SCHEDULE, EXIT, YIELD, NICE, POLICY, LOAN }

  private static final List<Kind> KINDS = List.of(Kind.SPAWN, Kind.FORK, Kind.BLOCK, Kind.WAKE,
      Kind.TICK, Kind.SCHEDULE, Kind.EXIT, Kind.YIELD, Kind.NICE, Kind.POLICY, Kind.LOAN);
  private static final int CPUS = 4;
  private static final int TARGETS = 64;
  private static final int NICES = 40;
  private static final SchedPolicy[] POLICIES = {SchedPolicy.OTHER, SchedPolicy.FIFO, SchedPolicy.RR};
  private static final int PRIOS = 99;
  private static final int CODES = KINDS.size() * CPUS * TARGETS * NICES * POLICIES.length * PRIOS;

  /**
   * One step, decoded from one int by mixed radix, so that the fields are independent uniform
   * draws and QuickTheories still shrinks a story towards small, readable values.
   */
  record Step(Kind kind, int cpu, int target, int nice, SchedPolicy policy, int rtPriority) {
    static Step decode(int code) {
      int c = code;
      Kind kind = KINDS.get(c % KINDS.size());
      c /= KINDS.size();
      int cpu = c % CPUS;
      c /= CPUS;
      int target = c % TARGETS;
      c /= TARGETS;
      int nice = c % NICES - 20;
      c /= NICES;
      SchedPolicy policy = POLICIES[c % POLICIES.length];
      c /= POLICIES.length;
      int prio = 1 + c % PRIOS;
      return new Step(kind, cpu, target, nice, policy, policy == SchedPolicy.OTHER ? 0 : prio);
    }

    @Override
    public String toString() {
      return switch (kind) {
        case NICE -> "nice(task " + target + ", " + nice + ")";
        case POLICY -> "setscheduler(task " + target + ", " + policy + " " + rtPriority + ")";
        case LOAN -> "rt_mutex_setprio(task " + target + ", " + rtPriority + ")";
        case SPAWN, FORK -> kind.name().toLowerCase(java.util.Locale.ROOT) + "(cpu" + cpu + ", " + policy + " " + rtPriority + ", nice " + nice + ")";
        case WAKE -> "wake(task " + target + ", from cpu" + cpu + ")";
        default -> kind.name().toLowerCase(java.util.Locale.ROOT) + "(cpu" + cpu + ")";
      };
    }
  }

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void randomStoriesOfIndependentDrawsKeepEveryTaskAccountedFor(int cpus) {
    qt().withFixedSeed(0x19_2002L + cpus)
        .withExamples(150)
        .withShrinkCycles(200)
        .forAll(lists().of(integers().between(0, CODES - 1)).ofSizeBetween(1, 100))
        .checkAssert(codes -> runStory(cpus, codes.stream().map(Step::decode).toList()));
  }

  /** The generator reaches every policy, every CPU and both ends of nice: a self-check. */
  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {4})
  void theStepsReachEveryPolicyCpuAndNiceExtreme(int cpus) {
    Set<String> seen = new HashSet<>();
    java.util.SplittableRandom r = new java.util.SplittableRandom(cpus);
    for (int i = 0; i < 5_000; i++) {
      Step s = Step.decode(r.nextInt(CODES));
      seen.add(s.policy().name());
      seen.add("cpu" + s.cpu());
      seen.add("nice" + s.nice());
      seen.add("prio" + s.rtPriority());
    }
    assertThat(seen).contains("OTHER", "FIFO", "RR", "cpu0", "cpu3", "nice-20", "nice19", "prio1", "prio99");
  }

  private StandaloneSchedulerHost boot(int cpus) {
    return new StandaloneSchedulerHost(newScheduler(), cpus, 100);
  }

  private void runStory(int cpus, List<Step> story) {
    StandaloneSchedulerHost h = boot(cpus);
    List<Task> all = new ArrayList<>();
    int nextPid = 1;
    for (Step s : story) {
      int cpu = s.cpu() % cpus;
      Task cur = h.current(cpu);
      switch (s.kind()) {
        case SPAWN -> all.add(h.spawn(h.newTask(nextPid, "t" + nextPid++, s.policy(), s.rtPriority(), s.nice()), cpu));
        case FORK -> {
          if (!cur.isIdle()) {
            // do_fork: the child inherits the parent's policy and nice
            Task child = h.newTask(nextPid, "t" + nextPid++, cur.policy(), cur.rtPriority(), cur.nice());
            all.add(h.fork(cpu, child));
          }
        }
        case BLOCK -> {
          if (!cur.isIdle()) {
            h.block(cpu);
          }
        }
        case WAKE -> {
          List<Task> sleeping = all.stream().filter(t -> t.state().isSleeping()).toList();
          if (!sleeping.isEmpty()) {
            h.wake(sleeping.get(s.target() % sleeping.size()), cpu);
          }
        }
        case TICK -> h.tick();
        case SCHEDULE -> h.schedule(cpu);
        case EXIT -> {
          if (!cur.isIdle()) {
            h.exit(cpu);
            all.remove(cur);
          }
        }
        case YIELD -> {
          if (!cur.isIdle()) {
            h.setThisCpu(cpu);
            if (h.scheduler().yield(cur, cpu)) {
              h.schedule(cpu);
            }
          }
        }
        case NICE -> {
          if (!all.isEmpty()) {
            Task t = all.get(s.target() % all.size());
            h.setThisCpu(cpu);
            t.setNice(s.nice());
            h.scheduler().setNice(t, s.nice());
          }
        }
        case POLICY -> {
          if (!all.isEmpty()) {
            Task t = all.get(s.target() % all.size());
            h.setThisCpu(cpu);
            t.setPolicy(s.policy(), s.rtPriority());
            h.scheduler().setScheduler(t, s.policy(), s.rtPriority());
          }
        }
        case LOAN -> {
          if (!all.isEmpty()) {
            Task t = all.get(s.target() % all.size());
            h.setThisCpu(cpu);
            h.scheduler().setInheritedPriority(t, s.rtPriority());
            assertThat(t.inheritedRtPriority()).as("the loan is written through the host").isEqualTo(s.rtPriority());
          }
        }
      }
      check(h, all, story, s);
    }
  }

  private static void check(StandaloneSchedulerHost h, List<Task> all, List<Step> story, Step last) {
    Scheduler s = h.scheduler();
    s.checkInvariants();
    List<TaskView> queued = s.queuedTasks();
    Set<TaskView> seen = new HashSet<>();
    for (TaskView t : queued) {
      assertThat(seen.add(t)).as("%s queued twice after %s", t, story).isTrue();
      assertThat(t.isIdle()).as("idle task queued").isFalse();
    }
    for (Task t : all) {
      assertThat(queued.contains(t))
          .as("%s (state %s) queued iff runnable, after %s", t, t.state(), story)
          .isEqualTo(t.state() == TaskState.RUNNING);
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
    if (h.cpuCount() == 1 && last.kind() == Kind.SCHEDULE) {
      int best = all.stream()
          .filter(t -> t.state() == TaskState.RUNNING)
          .mapToInt(Task::effectiveRtPriority).max().orElse(0);
      Task cur = h.current(0);
      if (best > 0) {
        // a loan of priority inheritance counts as the priority it lends
        assertThat(cur.effectiveRtPriority() == best)
            .as("after %s cpu0 runs %s (%s %d, inherited %d), not the rt_priority %d task", story, cur,
                cur.policy(), cur.rtPriority(), cur.inheritedRtPriority(), best)
            .isTrue();
      }
    }
  }
}
