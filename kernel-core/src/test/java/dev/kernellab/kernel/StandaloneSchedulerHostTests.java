package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scheduler-test host stands in for the generic half of kernel/sched.c schedule(),
 * kernel/fork.c do_fork, kernel/exit.c do_exit/release_task and kernel/timer.c
 * update_process_times (2.4.17) without a kernel. What a scheduler is told, in which order and
 * from which CPU, is what these tests read, through a recording scheduler over the test
 * scheduler.
 */
class StandaloneSchedulerHostTests {

  /** Every call the host makes, as "call args @thisCpu". */
  private static final class Recording extends ForwardingScheduler {
    final List<String> calls = new ArrayList<>();
    SchedulerHost host;
    final boolean clearsBefore;

    Recording(boolean clearsBefore) {
      super(new SimpleRoundRobinScheduler());
      this.clearsBefore = clearsBefore;
    }

    @Override
    public void attach(SchedulerHost h) {
      host = h;
      super.attach(h);
    }

    @Override
    public void initIdle(TaskView idle, int cpu) {
      calls.add("initIdle " + idle.comm() + " cpu" + cpu + " allowed=" + idle.cpusAllowed()
          + " task.cpu=" + idle.cpu() + " entity=" + (idle.schedEntity() != null));
      super.initIdle(idle, cpu);
    }

    @Override
    public void wakeUpNewTask(TaskView child, TaskView parent) {
      calls.add("wakeUpNewTask " + child.comm() + " from " + (parent == null ? "-" : parent.comm())
          + " task.cpu=" + child.cpu() + " @" + host.thisCpu());
      super.wakeUpNewTask(child, parent);
    }

    @Override
    public void fork(TaskView parent, TaskView child) {
      calls.add("fork " + parent.comm() + " -> " + child.comm() + " task.cpu=" + child.cpu()
          + " parent=" + (child.parent() == null ? "-" : child.parent().comm()) + " @" + host.thisCpu());
      super.fork(parent, child);
    }

    @Override
    public void deactivate(TaskView prev, int cpu) {
      calls.add("deactivate " + prev.comm() + " cpu" + cpu);
      super.deactivate(prev, cpu);
    }

    @Override
    public TaskView pickNext(int cpu, TaskView prev) {
      calls.add("pickNext cpu" + cpu + " prev=" + prev.comm() + " need_resched=" + prev.needResched());
      return super.pickNext(cpu, prev);
    }

    @Override
    public boolean clearsNeedReschedBeforeSelection() {
      return clearsBefore;
    }

    @Override
    public void tick(int cpu, boolean userTick) {
      calls.add("tick cpu" + cpu + " user=" + userTick + " @" + host.thisCpu());
      super.tick(cpu, userTick);
    }

    @Override
    public boolean tryToWakeUp(TaskView p, boolean sync) {
      calls.add("tryToWakeUp " + p.comm() + " @" + host.thisCpu());
      return super.tryToWakeUp(p, sync);
    }

    @Override
    public void reap(TaskView reaper, TaskView child) {
      calls.add("reap " + child.comm() + " by " + reaper.comm());
      super.reap(reaper, child);
    }
  }

  /** A plug-in cannot make a task: the host writes only the kernel's own. */
  @Test
  void aHostRefusesATaskViewAPluginMadeItself() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new SimpleRoundRobinScheduler(), 1, 100);
    TaskView made = (TaskView) Proxy.newProxyInstance(TaskView.class.getClassLoader(),
        new Class<?>[] {TaskView.class}, (p, m, a) -> m.getName().equals("toString") ? "made[7]" : null);
    assertThatThrownBy(() -> h.setNeedResched(made, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("made[7] is not a task of a kernel");
    assertThatThrownBy(() -> h.setRunning(null)).hasMessage("a scheduler handed back no task");
  }

  @Test
  void bootGivesEveryCpuItsOwnIdleTaskPinnedToIt() {
    Recording s = new Recording(true);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 3, 100);
    assertThat(s.calls).containsExactly(
        "initIdle swapper/0 cpu0 allowed=1 task.cpu=0 entity=true",
        "initIdle swapper/1 cpu1 allowed=2 task.cpu=1 entity=true",
        "initIdle swapper/2 cpu2 allowed=4 task.cpu=2 entity=true");
    for (int c = 0; c < 3; c++) {
      assertThat(h.current(c)).isSameAs(h.idle(c)).isSameAs(h.currentTask(c));
      assertThat(h.idle(c).isIdle()).isTrue();
    }
    assertThat(h.cpuCount()).isEqualTo(3);
    assertThat(h.hz()).isEqualTo(100);
    assertThat(h.jiffies()).isEqualTo(1);
    assertThat(h.now()).isZero();
    assertThat(h.costs()).isEqualTo(CostTable.pentium3At800MHz());
    assertThat(h.scheduler()).isSameAs(s);
    assertThat(h.allTasks()).as("idle tasks are not in the task list").isEmpty();
  }

  @Test
  void newTaskCarriesItsPolicyPriorityAndNiceAndSpawnWakesItFromItsOwnCpu() {
    Recording s = new Recording(true);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 2, 100);
    Task rt = h.newTask(7, "rt", SchedPolicy.FIFO, 50, 0);
    Task nice = h.newTask(3, "nice", SchedPolicy.OTHER, 0, 5);
    assertThat(rt.policy()).isEqualTo(SchedPolicy.FIFO);
    assertThat(rt.rtPriority()).isEqualTo(50);
    assertThat(nice.nice()).isEqualTo(5);
    assertThat(nice.mm()).isNotNull();
    h.setThisCpu(0);
    assertThat(h.spawn(rt, 1)).isSameAs(rt);
    h.spawn(nice, 0);
    assertThat(s.calls).containsSubsequence(
        "wakeUpNewTask rt from - task.cpu=1 @1", "wakeUpNewTask nice from - task.cpu=0 @0");
    assertThat(h.thisCpu()).as("restored after the spawn").isZero();
    assertThat(h.allTasks()).as("pid order").containsExactly(nice, rt);
  }

  /** do_fork: the scheduler's fork hook (the slice split) first, then the child is woken. */
  @Test
  void forkTellsTheSchedulerOfTheForkBeforeWakingTheChildOnTheParentsCpu() {
    Recording s = new Recording(true);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 2, 100);
    Task p = h.spawn(h.newTask(1, "p", SchedPolicy.OTHER, 0, 0), 1);
    assertThat(h.schedule(1)).isSameAs(p);
    s.calls.clear();
    Task child = h.fork(1, h.newTask(2, "c", SchedPolicy.OTHER, 0, 0));
    assertThat(s.calls).containsExactly(
        "fork p -> c task.cpu=1 parent=p @1", "wakeUpNewTask c from p task.cpu=1 @1");
    assertThat(child.parent()).isSameAs(p);
    assertThat(child.schedEntity()).isNotNull();
    assertThat(h.allTasks()).containsExactly(p, child);
  }

  /**
   * schedule() (2.4.17): a prev that is not RUNNING leaves the runqueue before the pick, one
   * that is RUNNING does not; the idle task never does. 2.4.17 clears need_resched before the
   * selection; the pick then switches to next on this CPU.
   */
  @Test
  void scheduleDeactivatesABlockedPrevOnlyAndClearsNeedReschedBeforeThePick() {
    Recording s = new Recording(true);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 1, 100);
    Task a = h.spawn(h.newTask(1, "a", SchedPolicy.OTHER, 0, 0), 0);
    Task b = h.spawn(h.newTask(2, "b", SchedPolicy.OTHER, 0, 0), 0);
    assertThat(h.idle(0).needResched()).as("a's wake-up asked the idle CPU to reschedule").isTrue();
    s.calls.clear();
    assertThat(h.schedule(0)).isSameAs(a);
    assertThat(s.calls).containsExactly("pickNext cpu0 prev=swapper/0 need_resched=false");
    assertThat(a.cpu()).isZero();
    s.calls.clear();
    assertThat(h.block(0)).isSameAs(b);
    assertThat(a.state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(s.calls).containsExactly("deactivate a cpu0", "pickNext cpu0 prev=a need_resched=false");
    s.calls.clear();
    assertThat(h.wake(a, 0)).isTrue();
    assertThat(h.wake(a, 0)).as("already runnable").isFalse();
    assertThat(s.calls).containsExactly("tryToWakeUp a @0", "tryToWakeUp a @0");
    s.calls.clear();
    h.schedule(0);
    assertThat(s.calls).as("b is RUNNING: it stays queued").containsExactly("pickNext cpu0 prev=b need_resched=false");
  }

  /** 2.5.5 clear_tsk_need_resched(prev) after the pick: the policy sees the flag still set. */
  @Test
  void aSchedulerThatClearsNeedReschedAfterThePickSeesItSetAndFindsItCleared() {
    Recording s = new Recording(false);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 1, 100);
    Task a = h.spawn(h.newTask(1, "a", SchedPolicy.OTHER, 0, 0), 0);
    h.schedule(0);
    for (int i = 0; i < SimpleRoundRobinScheduler.SLICE_TICKS; i++) {
      h.tick(); // the slice runs out: the policy sets need_resched
    }
    assertThat(a.needResched()).isTrue();
    s.calls.clear();
    h.schedule(0);
    assertThat(s.calls).containsExactly("pickNext cpu0 prev=a need_resched=true");
    assertThat(a.needResched()).isFalse();
  }

  /** do_exit then release_task: the parent reaps the child (sched_exit), which is gone. */
  @Test
  void exitSchedulesAwayAndTheLiveParentReapsTheDeadChild() {
    Recording s = new Recording(true);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 1, 100);
    Task p = h.spawn(h.newTask(1, "p", SchedPolicy.OTHER, 0, 0), 0);
    h.schedule(0);
    Task c = h.fork(0, h.newTask(2, "c", SchedPolicy.OTHER, 0, 0));
    h.block(0); // p sleeps, c runs
    assertThat(h.currentTask(0)).isSameAs(c);
    s.calls.clear();
    assertThat(h.exit(0)).as("nothing else runnable").isSameAs(h.idle(0));
    assertThat(s.calls).containsExactly(
        "deactivate c cpu0", "pickNext cpu0 prev=c need_resched=false", "reap c by p");
    assertThat(c.state()).isEqualTo(TaskState.DEAD);
    assertThat(h.allTasks()).containsExactly(p);
    // an orphan (no parent) exits without a reap
    h.wake(p, 0);
    h.schedule(0);
    s.calls.clear();
    h.exit(0);
    assertThat(s.calls).doesNotContain("reap p by -").noneMatch(x -> x.startsWith("reap"));
    assertThat(h.allTasks()).isEmpty();
  }

  /** update_process_times on every CPU from that CPU, then jiffies++ and one tick of time. */
  @Test
  void aTickRunsTheSchedulerTickOnEveryCpuFromThatCpuAndAdvancesTimeByOneJiffy() {
    Recording s = new Recording(true);
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(s, 2, 250);
    s.calls.clear();
    h.tick();
    h.tick();
    assertThat(s.calls).containsExactly(
        "tick cpu0 user=true @0", "tick cpu1 user=true @1", "tick cpu0 user=true @0", "tick cpu1 user=true @1");
    assertThat(h.jiffies()).isEqualTo(3);
    assertThat(h.now()).as("2 ticks of 1e9 / 250 = 4 ms").isEqualTo(8_000_000);
    h.setJiffies(1000);
    assertThat(h.jiffies()).isEqualTo(1000);
  }

  /** reschedule_idle's busy path: need_resched set on the target whether or not it was set. */
  @Test
  void rescheduleAndInterruptSetsNeedReschedOnTheTargetsCurrentTask() {
    StandaloneSchedulerHost h = new StandaloneSchedulerHost(new SimpleRoundRobinScheduler(), 2, 100);
    Task a = h.spawn(h.newTask(1, "a", SchedPolicy.OTHER, 0, 0), 1);
    h.schedule(1);
    assertThat(a.needResched()).isFalse();
    h.setThisCpu(0);
    h.rescheduleAndInterrupt(1);
    assertThat(a.needResched()).isTrue();
    h.schedule(0);
    assertThat(h.idle(0).needResched()).isFalse();
    h.reschedule(0);
    assertThat(h.idle(0).needResched()).isTrue();
  }

  /** A task of another host, or one not spawned yet or exited, cannot be driven through this one. */
  @Test
  void onlyTheHostsLiveTasksCanBeDriven() {
    StandaloneSchedulerHost a = new StandaloneSchedulerHost(new SimpleRoundRobinScheduler(), 1, 100);
    StandaloneSchedulerHost b = new StandaloneSchedulerHost(new SimpleRoundRobinScheduler(), 1, 100);
    Task t = b.newTask(7, "T", SchedPolicy.OTHER, 0, 0);
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> b.setState(t, TaskState.INTERRUPTIBLE))
        .withMessage("T[7] is not a live task of this host: spawn or fork it here first");
    b.spawn(t, 0);
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> a.setState(t, TaskState.INTERRUPTIBLE));
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> a.setSignalPending(t, true));
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> b.spawn(t, 0)).withMessage("T[7] is a task of this host already");
    b.setState(t, TaskState.INTERRUPTIBLE);
    assertThat(t.state()).isEqualTo(TaskState.INTERRUPTIBLE);
  }
}
