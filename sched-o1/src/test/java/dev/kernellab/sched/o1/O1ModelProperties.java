package dev.kernellab.sched.o1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model-based test of the O(1) runqueues: random stories of actions (spawn, fork, exit, sleep,
 * wake, ticks, schedule, yield, nice, setscheduler, affinity, balance) run on
 * {@link O1Scheduler} and, beside it, on {@link SortedListScheduler}, the same algorithm on
 * sorted lists. After every action the two must agree on every CPU's current task, queue order
 * (active then expired), nr_running, expired_timestamp, IPIs, and every task's prio,
 * static_prio, sleep_avg, time_slice, CPU, state and need_resched; and the invariants of
 * docs/scheduler-invariants.md are checked on the real one:
 *
 * <ul>
 *   <li>1-5 and the bounds of 6-8 through {@link O1Scheduler#checkInvariants()};
 *   <li>6: prio at most static_prio + 5 unless the task yielded since its last recalculation;
 *   <li>9: a non-empty expired array has a non-zero expired_timestamp;
 *   <li>10: a nice 16..19 task that expires goes to the expired array;
 *   <li>13: a successful wake-up leaves need_resched on its CPU's current task iff that task
 *       is idle, has a worse prio, or was already flagged;
 *   <li>14: a balance moves at most 1 (idle) / 2 (busy) tasks, never a current one, only to
 *       allowed CPUs, into the active array;
 *   <li>15: wake-ups and forks never change a task's CPU; on UP no CPU field ever changes.
 * </ul>
 *
 * <p>Where properties do not hold, so they are not checked: 9 fails in 2.5.5 if a task first
 * expires at jiffies 0 (the host starts at 1 and the stories never rewind it); 3's "every
 * runnable task is queued" has a window between setting a sleep state and schedule() that the
 * host closes at once; 11 (starvation bound) has no bound once there are wake-ups or RT tasks,
 * so it is tested without them in {@link StarvationProperties}; 16 is the benchmark's.
 *
 * <p>Actions are decoded from integers so that QuickTheories shrinks a failure to a short
 * story; each action is valid in any state and does nothing where it does not apply.
 */
class O1ModelProperties {

  sealed interface Action {}

  record Spawn(int cpu, int nice) implements Action {}

  record Fork(int cpu) implements Action {}

  record Exit(int cpu) implements Action {}

  record Sleep(int cpu) implements Action {}

  record Wake(int pick, int fromCpu) implements Action {}

  record Ticks(int count) implements Action {}

  record Schedule(int cpu) implements Action {}

  record Yield(int cpu) implements Action {}

  record Nice(int pick, int nice) implements Action {}

  record SetScheduler(int pick, SchedPolicy policy, int rtPriority) implements Action {}

  record Affinity(int pick, long mask) implements Action {}

  /** A loan of priority inheritance (0: its end), as an rt_mutex's waiter gives its owner. */
  record Loan(int pick, int rtPriority) implements Action {}

  record Balance(int cpu, boolean idle) implements Action {}

  private static final int KINDS = 13;

  static Action decode(int code, int cpus) {
    int a = code / KINDS;
    int cpu = a % cpus;
    return switch (code % KINDS) {
      case 0 -> new Spawn(cpu, a % 40 - 20);
      case 1 -> new Fork(cpu);
      case 2 -> new Exit(cpu);
      case 3 -> new Sleep(cpu);
      case 4 -> new Wake(a / 4, cpu);
      case 5 -> new Ticks(1 + a % 40);
      case 6 -> new Schedule(cpu);
      case 7 -> new Yield(cpu);
      case 8 -> new Nice(a / 40, a % 40 - 20);
      case 9 -> {
        SchedPolicy p = SchedPolicy.values()[a % 3];
        yield new SetScheduler(a / 3, p, p.isRealTime() ? 1 + a % 99 : 0);
      }
      case 10 -> new Affinity(a / 16, 1 + a % ((1L << cpus) - 1));
      case 11 -> new Loan(a / 100, a % 2 == 0 ? 0 : a % 100);
      default -> new Balance(cpu, a % 2 == 0);
    };
  }

  @ParameterizedTest(name = "{0} cpus")
  @ValueSource(ints = {1, 2, 4})
  void o1RunqueuesAgreeWithSortedListsAndKeepTheirInvariants(int cpus) {
    qt().withFixedSeed(0x2_5_5L * 31 + cpus)
        .withExamples(300)
        .withShrinkCycles(300)
        .forAll(lists()
            .of(integers().between(0, KINDS * 1000 - 1).map(c -> decode(c, cpus)))
            .ofSizeBetween(1, 150))
        .checkAssert(story -> new Story(cpus).run(story));
  }

  /** Two hosts, one O(1) and one reference, driven in lock step. */
  static final class Story {
    final int cpus;
    final StandaloneSchedulerHost real;
    final StandaloneSchedulerHost ref;
    final O1Scheduler o1;
    final SortedListScheduler model;
    final List<Task> realTasks = new ArrayList<>();
    final List<Task> refTasks = new ArrayList<>();
    int nextPid = 1;
    List<Action> done = new ArrayList<>();

    Story(int cpus) {
      this.cpus = cpus;
      o1 = new O1Scheduler();
      model = new SortedListScheduler();
      real = new StandaloneSchedulerHost(o1, cpus, 100);
      ref = new StandaloneSchedulerHost(model, cpus, 100);
    }

    void run(List<Action> story) {
      for (Action a : story) {
        done.add(a);
        apply(a);
        compare();
      }
    }

    private List<Integer> live(TaskState only) {
      List<Integer> idx = new ArrayList<>();
      for (int i = 0; i < realTasks.size(); i++) {
        TaskState s = realTasks.get(i).state();
        if (s != TaskState.DEAD && (only == null || s == only)) {
          idx.add(i);
        }
      }
      return idx;
    }

    private void apply(Action action) {
      if (action instanceof Spawn s) {
        int pid = nextPid++;
        realTasks.add(real.spawn(TestTasks.user(pid, "t" + pid, SchedPolicy.OTHER, 0, s.nice()),
            s.cpu()));
        refTasks.add(ref.spawn(TestTasks.user(pid, "t" + pid, SchedPolicy.OTHER, 0, s.nice()),
            s.cpu()));
      } else if (action instanceof Fork f) {
        if (!real.current(f.cpu()).isIdle()) {
          int pid = nextPid++;
          Task child = real.fork(f.cpu(), TestTasks.other(pid));
          realTasks.add(child);
          refTasks.add(ref.fork(f.cpu(), TestTasks.other(pid)));
          assertThat(child.cpu()).as("15: a child starts on the forking CPU").isEqualTo(f.cpu());
        }
      } else if (action instanceof Exit e) {
        if (!real.current(e.cpu()).isIdle()) {
          real.exit(e.cpu());
          ref.exit(e.cpu());
        }
      } else if (action instanceof Sleep s) {
        if (!real.current(s.cpu()).isIdle()) {
          real.block(s.cpu());
          ref.block(s.cpu());
        }
      } else if (action instanceof Wake w) {
        wake(w);
      } else if (action instanceof Ticks t) {
        for (int i = 0; i < t.count(); i++) {
          tickOnce();
        }
      } else if (action instanceof Schedule s) {
        real.schedule(s.cpu());
        ref.schedule(s.cpu());
      } else if (action instanceof Yield y) {
        if (!real.current(y.cpu()).isIdle()) {
          both(y.cpu(), (h, s) -> {
            if (s.yield(h.current(y.cpu()), y.cpu())) {
              h.schedule(y.cpu());
            }
          });
        }
      } else if (action instanceof Nice n) {
        onPicked(n.pick(), (h, s, t) -> s.setNice(t, n.nice()));
      } else if (action instanceof SetScheduler p) {
        onPicked(p.pick(), (h, s, t) -> s.setScheduler(t, p.policy(), p.rtPriority()));
      } else if (action instanceof Loan l) {
        onPicked(l.pick(), (h, s, t) -> s.setInheritedPriority(t, l.rtPriority()));
      } else if (action instanceof Affinity a) {
        onPicked(a.pick(), (h, s, t) -> {
          int from = t.cpu();
          if (s.setCpusAllowed(t, a.mask())) {
            h.schedule(from);
          }
        });
      } else if (action instanceof Balance b) {
        balance(b);
      } else {
        throw new IllegalArgumentException(action.toString());
      }
    }

    private void wake(Wake w) {
      List<Integer> sleeping = live(TaskState.INTERRUPTIBLE);
      if (sleeping.isEmpty()) {
        return;
      }
      int i = sleeping.get(w.pick() % sleeping.size());
      Task p = realTasks.get(i);
      int cpu = p.cpu();
      Task curr = real.current(cpu);
      boolean wasSet = curr.needResched();
      real.setThisCpu(w.fromCpu());
      ref.setThisCpu(w.fromCpu());
      boolean ok = real.wake(p, w.fromCpu());
      ref.wake(refTasks.get(i), w.fromCpu());
      assertThat(p.cpu()).as("15: a wake-up never changes the CPU").isEqualTo(cpu);
      if (ok) {
        boolean expect = wasSet || curr.isIdle() || O1Scheduler.entity(p).prio
            < O1Scheduler.entity(curr).prio;
        assertThat(curr.needResched()).as("13: need_resched of %s after waking %s", curr, p)
            .isEqualTo(expect);
      }
    }

    private void tickOnce() {
      List<Task> hopeless = new ArrayList<>();
      for (int c = 0; c < cpus; c++) {
        Task t = real.current(c);
        O1Entity e = O1Scheduler.entity(t);
        if (!t.isIdle() && !e.isRt() && e.timeSlice == 1 && e.staticPrio >= 136
            && e.array == o1.rq(c).active) {
          hopeless.add(t);
        }
      }
      real.tick();
      ref.tick();
      for (Task t : hopeless) {
        assertThat(O1Scheduler.entity(t).array).as("10: nice 16..19 %s expires", t)
            .isSameAs(o1.rq(t.cpu()).expired);
      }
      for (int c = 0; c < cpus; c++) {
        if (real.current(c).needResched()) {
          real.schedule(c);
          ref.schedule(c);
        }
      }
      compare();
    }

    private void balance(Balance b) {
      Runqueue rq = o1.rq(b.cpu());
      if (cpus == 1 || (!b.idle() && rq.curr == rq.idle)) {
        return;
      }
      List<TaskView> before = o1.queuedTasks();
      List<Integer> cpuBefore = before.stream().map(TaskView::cpu).toList();
      List<TaskView> currents = new ArrayList<>();
      for (int c = 0; c < cpus; c++) {
        currents.add(real.current(c));
      }
      both(b.cpu(), (h, s) -> s.loadBalance(b.cpu(), b.idle()));
      int moved = 0;
      for (int i = 0; i < before.size(); i++) {
        TaskView t = before.get(i);
        if (t.cpu() != cpuBefore.get(i)) {
          moved++;
          assertThat(t.cpu()).as("14: pulled to the balancing CPU").isEqualTo(b.cpu());
          assertThat(currents).as("14: never moves a running task").doesNotContain(t);
          assertThat(t.mayRunOn(b.cpu())).as("14: cpus_allowed").isTrue();
          assertThat(O1Scheduler.entity(t).array).as("14: into active").isSameAs(rq.active);
        }
      }
      assertThat(moved).as("14: tasks moved by one balance").isLessThanOrEqualTo(b.idle() ? 1 : 2);
    }

    interface HostOp {
      void run(StandaloneSchedulerHost h, Scheduler s);
    }

    interface TaskOp {
      void run(StandaloneSchedulerHost h, Scheduler s, Task t);
    }

    private void both(int cpu, HostOp op) {
      real.setThisCpu(cpu);
      op.run(real, real.scheduler());
      ref.setThisCpu(cpu);
      op.run(ref, ref.scheduler());
    }

    private void onPicked(int pick, TaskOp op) {
      List<Integer> alive = live(null);
      if (alive.isEmpty()) {
        return;
      }
      int i = alive.get(pick % alive.size());
      int cpu = realTasks.get(i).cpu();
      real.setThisCpu(cpu);
      op.run(real, real.scheduler(), realTasks.get(i));
      ref.setThisCpu(cpu);
      op.run(ref, ref.scheduler(), refTasks.get(i));
    }

    void compare() {
      if (done.isEmpty()) {
        return;
      }
      String story = "action " + done.size() + " " + done.get(done.size() - 1);
      o1.checkInvariants();
      assertThat(pids(o1.queuedTasks())).as("queue order after %s", story)
          .isEqualTo(pids(model.queuedTasks()));
      assertThat(real.ipis()).as("IPIs after %s", story).isEqualTo(ref.ipis());
      for (int c = 0; c < cpus; c++) {
        Runqueue rq = o1.rq(c);
        SortedListScheduler.Rq mq = model.rq(c);
        assertThat(real.current(c).pid()).as("cpu%d current after %s", c, story)
            .isEqualTo(ref.current(c).pid());
        assertThat(rq.nrRunning).as("cpu%d nr_running", c).isEqualTo(mq.nrRunning());
        assertThat(rq.active.nrActive()).as("cpu%d active", c).isEqualTo(mq.active.size());
        assertThat(rq.expiredTimestamp).as("cpu%d expired_timestamp after %s", c, story)
            .isEqualTo(mq.expiredTimestamp);
        assertThat(rq.expired.nrActive() == 0 || rq.expiredTimestamp != 0)
            .as("9: expired non-empty => expired_timestamp set").isTrue();
        assertThat(real.current(c).needResched()).as("cpu%d need_resched after %s", c, story)
            .isEqualTo(ref.current(c).needResched());
      }
      for (int i = 0; i < realTasks.size(); i++) {
        Task t = realTasks.get(i);
        Task m = refTasks.get(i);
        if (t.state() == TaskState.DEAD) {
          continue;
        }
        O1Entity e = O1Scheduler.entity(t);
        SortedListScheduler.Ref r = SortedListScheduler.ref(m);
        String what = t + " after " + story;
        assertThat(List.of(e.prio, e.staticPrio, e.sleepAvg, e.timeSlice, t.cpu()))
            .as("prio, static, sleep_avg, slice, cpu of %s", what)
            .isEqualTo(List.of(r.prio, r.staticPrio, r.sleepAvg, r.timeSlice, m.cpu()));
        assertThat(t.state()).as("state of %s", what).isEqualTo(m.state());
        assertThat(t.needResched()).as("need_resched of %s", what).isEqualTo(m.needResched());
        if (!e.isRt() && !r.yielded) {
          assertThat(e.prio).as("6: prio <= static + 5 of %s", what)
              .isLessThanOrEqualTo(e.staticPrio + 5);
        }
        if (cpus == 1) {
          assertThat(t.cpu()).as("15: UP").isZero();
        }
      }
    }

    private static List<Integer> pids(List<? extends TaskView> ts) {
      return ts.stream().map(TaskView::pid).toList();
    }
  }
}
