package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskState;
import org.junit.jupiter.api.Test;

/**
 * The calls of the 2.4.17 scheduler one at a time, each against kernel/sched.c, kernel/fork.c
 * or kernel/exit.c of 2.4.17: the counter split of do_fork, try_to_wake_up's refusals and its
 * sync variant, sys_sched_yield with nobody waiting, release_task's reclaimed counter, a
 * changed cpus_allowed, and the price of schedule() and of a wake-up.
 */
class GoodnessSchedulerCallsTests {

  private static StandaloneSchedulerHost host(int cpus) {
    return new StandaloneSchedulerHost(new GoodnessScheduler(), cpus, 100);
  }

  private static GoodnessScheduler s(StandaloneSchedulerHost h) {
    return (GoodnessScheduler) h.scheduler();
  }

  private static GoodnessEntity e(Task t) {
    return GoodnessEntity.of(t);
  }

  private static Task spawn(StandaloneSchedulerHost h, int pid, int cpu) {
    return h.spawn(TestTasks.other(pid), cpu);
  }

  @Test
  void oneSchedulerServesOneKernel() {
    GoodnessScheduler s = new GoodnessScheduler();
    new StandaloneSchedulerHost(s, 1, 100);
    assertThatIllegalStateException()
        .isThrownBy(() -> new StandaloneSchedulerHost(s, 1, 100))
        .withMessageContaining("already schedules a kernel");
  }

  @Test
  void supportsOneToThirtyTwoCpusOneBitEachInAnUnsignedLong() {
    GoodnessScheduler s = new GoodnessScheduler();
    assertThat(s.supportsCpuCount(1)).isTrue();
    assertThat(s.supportsCpuCount(32)).isTrue();
    assertThat(s.supportsCpuCount(0)).isFalse();
    assertThat(s.supportsCpuCount(33)).isFalse();
    assertThat(s.name()).isEqualTo("goodness");
    assertThat(new GoodnessSchedulerProvider().description()).contains("2.4");
  }

  /** PROC_CHANGE_PENALTY (15 on i386) exists only in an SMP kernel. */
  @Test
  void aUniprocessorKernelGivesNoCpuAffinityBonus() {
    StandaloneSchedulerHost up = host(1);
    Task t = spawn(up, 1, 0);
    e(t).counter = 3;
    assertThat(s(up).goodness(t, 0)).as("counter 3 + 20 - nice 0").isEqualTo(23);
    StandaloneSchedulerHost smp = host(2);
    Task u = spawn(smp, 1, 0);
    e(u).counter = 3;
    assertThat(s(smp).goodness(u, 0)).isEqualTo(23 + 15);
    assertThat(s(smp).goodness(u, 1)).isEqualTo(23);
  }

  /** do_fork: {@code p->counter = (current->counter + 1) >> 1; current->counter >>= 1}. */
  @Test
  void forkSplitsTheParentsCounterAndAnEmptiedParentMustReschedule() {
    StandaloneSchedulerHost h = host(1);
    Task parent = spawn(h, 1, 0);
    h.schedule(0);
    e(parent).counter = 7;
    Task child = h.fork(0, TestTasks.other(2));
    assertThat(e(child).counter).isEqualTo(4);
    assertThat(e(parent).counter).isEqualTo(3);
    assertThat(parent.needResched()).isFalse();

    e(parent).counter = 1;
    Task second = h.fork(0, TestTasks.other(3));
    assertThat(e(second).counter).isEqualTo(1);
    assertThat(e(parent).counter).isZero();
    assertThat(parent.needResched()).as("counter 0: current->need_resched = 1").isTrue();
  }

  @Test
  void aTaskForkedByTheIdleTaskStartsWithDefCounter() {
    StandaloneSchedulerHost h = host(1);
    Task child = h.fork(0, TestTasks.other(1));
    assertThat(e(child).counter).isEqualTo(GoodnessTunables.DEF_COUNTER(100)).isEqualTo(10);
  }

  @Test
  void aZombieOrAReapedTaskIsNeverWoken() {
    StandaloneSchedulerHost h = host(1);
    Task z = spawn(h, 1, 0);
    h.schedule(0);
    h.block(0);
    h.setState(z, TaskState.ZOMBIE);
    assertThat(h.wake(z, 0)).isFalse();
    h.setState(z, TaskState.DEAD);
    assertThat(h.wake(z, 0)).isFalse();
    assertThat(s(h).queuedTasks()).doesNotContain(z);
  }

  /** A task still on the list is only marked TASK_RUNNING: it keeps its place. */
  @Test
  void wakingAQueuedTaskReportsNoWakeUpAndKeepsItsPlace() {
    StandaloneSchedulerHost h = host(1);
    Task a = spawn(h, 1, 0);
    Task b = spawn(h, 2, 0);
    assertThat(s(h).queuedTasks()).containsExactly(b, a);
    h.setState(a, TaskState.INTERRUPTIBLE); // set_current_state, not yet in schedule()
    assertThat(h.wake(a, 0)).isFalse();
    assertThat(a.state()).isEqualTo(TaskState.RUNNING);
    assertThat(s(h).queuedTasks()).containsExactly(b, a);
  }

  /**
   * __wake_up_sync: the waker is about to sleep, so a woken task that may run on this CPU does
   * not go through reschedule_idle(): nobody's need_resched is set.
   */
  @Test
  void aSyncWakeUpOnTheWakersCpuDisturbsNobody() {
    for (boolean sync : new boolean[] {false, true}) {
      StandaloneSchedulerHost h = host(1);
      Task waker = spawn(h, 1, 0);
      Task sleeper = spawn(h, 2, 0);
      h.schedule(0);
      Task running = h.current(0);
      Task other = running == waker ? sleeper : waker;
      // the other one sleeps; the running one has used most of its slice
      h.setState(other, TaskState.INTERRUPTIBLE);
      s(h).deactivate(other, 0);
      e(running).counter = 1;
      h.setNeedResched(running, false);
      h.setThisCpu(0);
      assertThat(s(h).tryToWakeUp(other, sync)).isTrue();
      assertThat(running.needResched()).as("sync=%s", sync).isEqualTo(!sync);
    }
  }

  @Test
  void yieldingWithNobodyWaitingIsANoOp() {
    StandaloneSchedulerHost h = host(1);
    Task only = spawn(h, 1, 0);
    h.schedule(0);
    h.setThisCpu(0);
    assertThat(s(h).yield(only, 0)).isFalse();
    assertThat(e(only).schedYield).isFalse();
    assertThat(s(h).yield(h.idle(0), 0)).as("the idle task").isFalse();
    Task waiting = spawn(h, 2, 0);
    assertThat(s(h).yield(only, 0)).isTrue();
    assertThat(e(only).schedYield).isTrue();
    assertThat(only.needResched()).isTrue();
    h.setState(only, TaskState.INTERRUPTIBLE);
    h.schedule(0);
    assertThat(h.current(0)).isSameAs(waiting);
    assertThat(s(h).yield(only, 0)).as("off the runqueue").isFalse();
  }

  @Test
  void aReaperGetsTheChildsCounterBackUpToMaxCounter() {
    StandaloneSchedulerHost h = host(1);
    Task parent = spawn(h, 1, 0);
    Task child = spawn(h, 2, 0);
    e(parent).counter = 5;
    e(child).counter = 4;
    s(h).reap(parent, child);
    assertThat(e(parent).counter).isEqualTo(9);
    e(child).counter = 20;
    s(h).reap(parent, child);
    assertThat(e(parent).counter).isEqualTo(GoodnessTunables.MAX_COUNTER(100)).isEqualTo(20);
    int idleCounter = e(h.idle(0)).counter;
    s(h).reap(h.idle(0), child);
    assertThat(e(h.idle(0)).counter).as("the idle task keeps cpu_idle()'s counter").isEqualTo(idleCounter);
  }

  @Test
  void narrowingTheAffinityOfATaskRunningHereReschedulesIt() {
    StandaloneSchedulerHost h = host(2);
    Task t = spawn(h, 1, 0);
    h.schedule(0);
    assertThat(h.current(0)).isSameAs(t);
    h.setThisCpu(0);
    assertThat(s(h).setCpusAllowed(t, 0b11)).as("still allowed").isFalse();
    assertThat(t.needResched()).isFalse();
    assertThat(s(h).setCpusAllowed(t, 0b10)).isTrue();
    assertThat(t.cpusAllowed()).isEqualTo(0b10);
    assertThat(t.needResched()).isTrue();
  }

  @Test
  void narrowingTheAffinityOfATaskRunningElsewhereSendsThatCpuAReschedule() {
    StandaloneSchedulerHost h = host(2);
    Task t = spawn(h, 1, 1);
    h.schedule(1);
    assertThat(h.current(1)).isSameAs(t);
    h.setThisCpu(0);
    h.clearIpis();
    assertThat(s(h).setCpusAllowed(t, 0b01)).isFalse();
    assertThat(t.needResched()).isTrue();
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
  }

  @Test
  void narrowingTheAffinityOfAQueuedTaskChangesOnlyTheMask() {
    StandaloneSchedulerHost h = host(2);
    Task t = spawn(h, 1, 0);
    h.setThisCpu(0);
    h.clearIpis();
    assertThat(s(h).setCpusAllowed(t, 0b10)).isFalse();
    assertThat(t.cpusAllowed()).isEqualTo(0b10);
    assertThat(t.needResched()).isFalse();
    assertThat(h.ipis()).isEmpty();
  }

  @Test
  void twoFourSeventeenClearsNeedReschedBeforeTheGoodnessLoop() {
    assertThat(new GoodnessScheduler().clearsNeedReschedBeforeSelection()).isTrue();
  }

  /** 2.4.17 unlocks runqueue_lock with spin_unlock_irq before prepare_to_switch(). */
  @Test
  void twoFourSeventeenSwitchesWithTheRunqueueLockDropped() {
    assertThat(new GoodnessScheduler().switchesUnderRunqueueLock()).isFalse();
  }

  /** The list insert plus one schedule_data read per CPU, each an L2 hit. */
  @Test
  void aWakeUpCostsTheListInsertAndOneReadPerCpu() {
    StandaloneSchedulerHost h = host(4);
    long l2 = h.costs().l2HitNs();
    assertThat(s(h).wakeUpCostNs()).isEqualTo((4 + 4) * l2);
  }

  /**
   * schedule() walks the list once (two L2 loads a task) when some candidate has a positive
   * goodness; when none has, it walks again after recalculating every task's counter (one
   * memory load a task) with the lock dropped. A blocked current task is no longer counted.
   */
  @Test
  void scheduleCostsOneWalkOrTwoWalksAndARecalculation() {
    StandaloneSchedulerHost h = host(1);
    Task a = spawn(h, 1, 0);
    Task b = spawn(h, 2, 0);
    Task c = spawn(h, 3, 0);
    h.schedule(0);
    long l2 = h.costs().l2HitNs();
    long mem = h.costs().memoryNs();
    assertThat(s(h).scheduleCostNs(0)).isEqualTo(3 * 2 * l2);
    assertThat(s(h).unlockedScheduleCostNs(0)).isZero();
    for (Task t : new Task[] {a, b, c}) {
      e(t).counter = 0;
    }
    assertThat(s(h).scheduleCostNs(0)).isEqualTo(2 * (3 * 2 * l2));
    assertThat(s(h).unlockedScheduleCostNs(0)).isEqualTo(3 * mem);
    Task cur = h.current(0);
    e(a).counter = 5;
    e(b).counter = 5;
    e(c).counter = 5;
    h.setState(cur, TaskState.INTERRUPTIBLE);
    assertThat(s(h).scheduleCostNs(0)).as("the blocked current leaves").isEqualTo(2 * 2 * l2);
    h.setSignalPending(cur, true);
    assertThat(s(h).scheduleCostNs(0)).as("a signal keeps it runnable").isEqualTo(3 * 2 * l2);
  }

  /**
   * The unlocked half, asked right after the locked one, answers from that call's walk: the
   * same as a walk of its own (asked again, it walks), whether a recalculation is coming or not.
   */
  @Test
  void theUnlockedHalfAskedRightAfterTheLockedOneAnswersAsAWalkOfItsOwn() {
    StandaloneSchedulerHost h = host(1);
    Task[] tasks = {spawn(h, 1, 0), spawn(h, 2, 0), spawn(h, 3, 0)};
    h.schedule(0);
    for (int counter : new int[] {5, 0, 3, 0}) {
      for (Task t : tasks) {
        e(t).counter = counter;
      }
      s(h).scheduleCostNs(0);
      long afterLocked = s(h).unlockedScheduleCostNs(0);
      long ownWalk = s(h).unlockedScheduleCostNs(0);
      assertThat(afterLocked).as("counters %d", counter).isEqualTo(ownWalk);
      assertThat(afterLocked > 0).as("counters %d: a recalculation is coming", counter).isEqualTo(counter == 0);
    }
  }

  @Test
  void theInvariantCheckCatchesANegativeCounter() {
    StandaloneSchedulerHost h = host(1);
    Task t = spawn(h, 1, 0);
    s(h).checkInvariants();
    e(t).counter = -1;
    assertThatIllegalStateException().isThrownBy(() -> s(h).checkInvariants()).withMessageContaining("negative counter");
  }

  @Test
  void theInvariantCheckCatchesACpuCurrThatIsNotTheHostsCurrent() {
    StandaloneSchedulerHost h = host(2);
    Task t = spawn(h, 1, 0);
    h.schedule(0);
    s(h).checkInvariants();
    e(t).releaseCpu();
    assertThatIllegalStateException().isThrownBy(() -> s(h).checkInvariants()).withMessageContaining("cpus_runnable");
    e(t).setCpu(h, 1);
    assertThatIllegalStateException().isThrownBy(() -> s(h).checkInvariants()).withMessageContaining("cpus_runnable");
  }

  @Test
  void anEntityPrintsItsCounterAndFlags() {
    StandaloneSchedulerHost h = host(1);
    Task t = spawn(h, 1, 0);
    e(t).counter = 4;
    assertThat(e(t).toString()).isEqualTo(t + "{counter=4, queued}");
    h.schedule(0);
    e(t).schedYield = true;
    assertThat(e(t).toString()).isEqualTo(t + "{counter=4, SCHED_YIELD, queued, running}");
    assertThat(e(t).hasCpu()).isTrue();
    assertThat(e(t).onRunqueue()).isTrue();
    assertThat(t.cpu()).isZero();
  }

  @Test
  void tunablesNeedAPositiveHz() {
    assertThatIllegalArgumentException().isThrownBy(() -> GoodnessTunables.DEF_COUNTER(0));
    assertThatIllegalArgumentException().isThrownBy(() -> GoodnessTunables.MAX_COUNTER(0));
    assertThatIllegalArgumentException().isThrownBy(() -> GoodnessTunables.TICK_SCALE(20, 0));
    assertThat(GoodnessTunables.DEF_COUNTER(1)).isZero();
    assertThat(GoodnessTunables.TICK_SCALE(20, 1)).isEqualTo(5);
  }

  @Test
  void aRealTimeTaskAtTheHeadRunsFirstAfterSetscheduler() {
    StandaloneSchedulerHost h = host(1);
    Task a = spawn(h, 1, 0);
    Task b = spawn(h, 2, 0);
    h.setThisCpu(0);
    h.setPolicy(a, SchedPolicy.FIFO, 10);
    s(h).setScheduler(a, SchedPolicy.FIFO, 10);
    assertThat(s(h).queuedTasks()).containsExactly(a, b);
    assertThat(h.current(0).needResched()).isTrue();
    assertThat(h.schedule(0)).isSameAs(a);
  }

  /** reschedule_idle(): of two CPUs idle since the same instant, the lower-numbered one. */
  @Test
  void ofIdleCpusWithEqualLastScheduleTheLowerNumberedIsKicked() {
    StandaloneSchedulerHost h = host(3);
    Task busy = h.spawn(TestTasks.other(1), 0);
    h.setCpusAllowed(busy, 0b001);
    h.schedule(0);
    h.clearIpis();
    h.spawn(TestTasks.other(2), 0);
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
  }

  /** reschedule_idle(): equal positive preemption_goodness on two busy CPUs: the lower one. */
  @Test
  void ofBusyCpusWithEqualPreemptionGoodnessTheLowerNumberedIsPreempted() {
    StandaloneSchedulerHost h = host(3);
    Task[] weak = new Task[3];
    for (int cpu = 0; cpu < 3; cpu++) {
      weak[cpu] = h.spawn(TestTasks.user(cpu + 1, "weak" + cpu, SchedPolicy.OTHER, 0, 19), cpu);
      h.setCpusAllowed(weak[cpu], 1L << cpu);
      h.schedule(cpu);
    }
    h.clearIpis();
    Task p = TestTasks.other(9);
    h.setCpusAllowed(p, 0b110);
    h.spawn(p, 0);
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
    assertThat(weak[1].needResched()).isTrue();
    assertThat(weak[2].needResched()).isFalse();
  }

  /**
   * On SMP the child of an emptied parent goes to an idle CPU (reschedule_idle), so only
   * do_fork's own {@code if (!current->counter) current->need_resched = 1} reschedules the parent.
   */
  @Test
  void onSmpAParentLeftWithNoCounterReschedulesEvenWhenItsChildRunsElsewhere() {
    StandaloneSchedulerHost h = host(2);
    Task parent = spawn(h, 1, 0);
    h.schedule(0);
    e(parent).counter = 1;
    h.setNeedResched(parent, false);
    h.clearIpis();
    h.fork(0, TestTasks.other(2));
    assertThat(h.ipis()).as("the child goes to idle cpu1").containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
    assertThat(parent.needResched()).isTrue();
  }

  /** __wake_up_sync only skips reschedule_idle() for a task that may run on the waker's CPU. */
  @Test
  void aSyncWakeUpOfATaskPinnedElsewhereStillKicksItsCpu() {
    StandaloneSchedulerHost h = host(2);
    Task p = spawn(h, 1, 1);
    h.setCpusAllowed(p, 0b10);
    h.schedule(1);
    h.block(1);
    h.clearIpis();
    h.setThisCpu(0);
    assertThat(s(h).tryToWakeUp(p, true)).isTrue();
    assertThat(h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
  }
}
