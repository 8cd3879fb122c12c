package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Random stories for the 2.4 scheduler's properties: a list of actions, each valid in any state
 * (an action that does not apply is skipped), run on a {@link StandaloneSchedulerHost} over a
 * {@link ReferenceCheckedScheduler}, with the counter bounds of docs/scheduler-invariants.md 17
 * checked after every step. Actions decode from ints so that QuickTheories shrinks a failure to
 * a short story.
 */
final class Story {

  static final int HZ = 100;

  /** One step; {@code arg} picks CPUs, tasks and values. */
  record Action(Kind kind, int arg) {
    static Action decode(int code) {
      Kind[] kinds = Kind.values();
      return new Action(kinds[code % kinds.length], code / kinds.length);
    }

    @Override
    public String toString() {
      return kind.name().toLowerCase(java.util.Locale.ROOT) + "(" + arg + ")";
    }
  }

  /** What a step does. */
  enum Kind { SPAWN, FORK, BLOCK, WAKE, RUN, SCHEDULE, EXIT, YIELD, NICE, POLICY, PIN }

  final ReferenceCheckedScheduler scheduler = new ReferenceCheckedScheduler();
  final StandaloneSchedulerHost host;
  private final int cpus;
  private final List<Task> live = new ArrayList<>();
  private final IdentityHashMap<Task, Integer> allowance = new IdentityHashMap<>(); // not iterated
  private int nextPid = 1;

  Story(int cpus) {
    this.cpus = cpus;
    this.host = new StandaloneSchedulerHost(scheduler, cpus, HZ);
  }

  void run(List<Action> actions) {
    for (Action a : actions) {
      step(a);
      checkCounters(actions);
      host.scheduler().checkInvariants();
    }
  }

  private void step(Action a) {
    int cpu = a.arg() % cpus;
    Task cur = host.current(cpu);
    Task some = live.isEmpty() ? null : live.get(a.arg() % live.size());
    switch (a.kind()) {
      case SPAWN -> live.add(host.spawn(newTask(a.arg() % 40 - 20), cpu));
      case FORK -> {
        if (!cur.isIdle()) {
          live.add(host.fork(cpu, newTask(0)));
        }
      }
      case BLOCK -> {
        if (!cur.isIdle()) {
          host.block(cpu);
        }
      }
      case WAKE -> {
        List<Task> sleeping = live.stream().filter(t -> t.state().isSleeping()).toList();
        if (!sleeping.isEmpty()) {
          host.wake(sleeping.get(a.arg() % sleeping.size()), cpu);
        }
      }
      case RUN -> {
        // Ticks, each followed by the return to user mode on every CPU: need_resched is acted on.
        for (int i = 0; i <= a.arg() % 8; i++) {
          host.tick();
          for (int c = 0; c < cpus; c++) {
            if (host.current(c).needResched()) {
              host.schedule(c);
            }
          }
        }
      }
      case SCHEDULE -> host.schedule(cpu);
      case EXIT -> {
        if (!cur.isIdle()) {
          host.exit(cpu);
          live.remove(cur);
        }
      }
      case YIELD -> {
        host.setThisCpu(cpu);
        if (!cur.isIdle() && host.scheduler().yield(cur, cpu)) {
          host.schedule(cpu);
        }
      }
      case NICE -> {
        if (some != null) {
          host.setThisCpu(cpu);
          host.scheduler().setNice(some, a.arg() % 40 - 20);
        }
      }
      case POLICY -> {
        if (some != null) {
          SchedPolicy p = switch (a.arg() % 3) {
            case 0 -> SchedPolicy.OTHER;
            case 1 -> SchedPolicy.FIFO;
            default -> SchedPolicy.RR;
          };
          host.setThisCpu(cpu);
          host.scheduler().setScheduler(some, p, p.isRealTime() ? 1 + a.arg() % 99 : 0);
        }
      }
      case PIN -> {
        if (some != null) {
          host.setThisCpu(cpu);
          long mask = 1 + (a.arg() / 7) % ((1L << cpus) - 1);
          if (host.scheduler().setCpusAllowed(some, mask)) {
            host.schedule(cpu);
          }
        }
      }
    }
  }

  private Task newTask(int nice) {
    int pid = nextPid++;
    return TestTasks.user(pid, "t" + pid, SchedPolicy.OTHER, 0, nice);
  }

  /**
   * counter >= 0 and counter <= max(MAX_COUNTER, 2 * NICE_TO_TICKS(nice)), except that a task
   * whose nice was raised keeps the allowance of its old nice until its counter drops to the
   * new bound (nice acts through the next recalculations, not at once).
   */
  private void checkCounters(List<Action> story) {
    for (Task t : live) {
      int counter = GoodnessEntity.of(t).counter();
      int nominal = GoodnessTunables.counterBound(t.nice(), HZ);
      int allowed = Math.max(nominal, allowance.getOrDefault(t, nominal));
      assertThat(counter).as("counter of %s after %s", t, story).isBetween(0, allowed);
      allowance.put(t, counter <= nominal ? nominal : allowed);
    }
  }
}
