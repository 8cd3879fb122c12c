package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tasks from boot to reaping, and what the generic half of schedule() accounts, on zero-cost
 * machines (HZ 100: timer ticks at 10, 20, ... ms): the idle task of each CPU (init/main.c
 * and arch/i386/kernel/smpboot.c, 2.4.17: one per CPU, bound to it), a boot task's affinity
 * cut to the CPUs that exist, do_fork's copy of the parent's scheduling parameters
 * (kernel/fork.c 2.4.17), release_task's sched_exit for a live parent (kernel/exit.c), and
 * schedule()'s per-task run time and switch counts (kernel/sched.c: nvcsw / nivcsw).
 */
class KernelLifecycleTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final Site F_LOOP = new Site("fs/test.c", "f", "l");

  private static KernelBuilder machine(int cpus, Scheduler s) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
        .scheduler(s);
  }

  private static Task named(Kernel k, String comm) {
    return k.allTasks().stream().filter(t -> t.comm().equals(comm)).findFirst().orElseThrow();
  }

  private static final class Recording extends ForwardingScheduler {
    final List<String> calls = new ArrayList<>();

    Recording() {
      super(new SimpleRoundRobinScheduler());
    }

    @Override
    public void initIdle(TaskView idle, int cpu) {
      calls.add("initIdle " + idle.comm() + " cpu" + cpu + " task.cpu=" + idle.cpu()
          + " allowed=" + idle.cpusAllowed() + " entity=" + (idle.schedEntity() != null));
      super.initIdle(idle, cpu);
    }

    @Override
    public void reap(TaskView reaper, TaskView child) {
      calls.add("reap " + child.comm() + " by " + reaper.comm());
      super.reap(reaper, child);
    }
  }

  @Test
  void everyCpuBootsWithItsOwnIdleTaskBoundToIt() {
    Recording s = new Recording();
    Kernel k = machine(2, s).ksoftirqd(false).build();
    assertThat(s.calls).containsExactly(
        "initIdle swapper/0 cpu0 task.cpu=0 allowed=1 entity=true",
        "initIdle swapper/1 cpu1 task.cpu=1 allowed=2 entity=true");
    assertThat(k.cpu(1).idleTask()).isSameAs(k.idle(1)).isSameAs(k.current(1));
    assertThat(k.allTasks()).as("no task but the idle ones").isEmpty();
    assertThat(k.cpuCount()).isEqualTo(2);
    assertThat(k.hz()).isEqualTo(100);
    assertThat(k.machine().cpu(0).interruptsEnabled()).as("boot ends in sti on every CPU").isTrue();
    assertThat(k.machine().cpu(1).interruptsEnabled()).isTrue();
  }

  /**
   * A boot task's cpus_allowed keeps only CPUs that exist; it starts on its CPU if allowed
   * there, else on the lowest allowed one. Spawned by hand, a CPU that does not exist, or a
   * mask naming none that do, is refused.
   */
  @Test
  void aBootTaskKeepsOnlyAllowedCpusThatExistAndStartsOnTheFirstOfThem() {
    Kernel k = machine(2, new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .task(TaskSpec.user("T", RtcProbeRig.userHog()).nice(5).allowedOn(0b110))
        .build();
    Task t = named(k, "T");
    assertThat(t.cpusAllowed()).isEqualTo(0b10);
    assertThat(t.cpu()).isEqualTo(1);
    assertThat(t.nice()).isEqualTo(5);
    assertThat(k.spawn(TaskSpec.user("U", RtcProbeRig.userHog()).rr(3).onCpu(1)).cpu()).isEqualTo(1);
    assertThat(named(k, "U").rtPriority()).isEqualTo(3);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> k.spawn(TaskSpec.user("X", RtcProbeRig.userHog()).onCpu(2)))
        .withMessage("X: no cpu2 on a 2-CPU machine");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> k.spawn(TaskSpec.user("Y", RtcProbeRig.userHog()).allowedOn(0b100)))
        .withMessage("Y: cpus_allowed names no CPU of this machine");
  }

  /**
   * do_fork: the child gets the next pid, the parent's nice and CPU; a user child of a user
   * parent gets a copy of its mm. The parent on cpu1 (pid 1, the only task: no ksoftirqd) forks
   * twice. (A kernel path is not a child's program: kernel threads are boot tasks.)
   */
  @Test
  void aForkedChildGetsTheNextPidAndItsParentsNiceCpuAndAddressSpace() {
    KernelPath childProg = KernelPath.userProgram("child").compute(MS).build();
    KernelPath parent = KernelPath.userProgram("parent")
        .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("kid", childProg).fork("kid2", childProg).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    Kernel k = machine(2, new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .task(TaskSpec.user("P", parent).nice(-3).onCpu(1).allowedOn(0b10))
        .build();
    k.run(MS / 2);
    Task p = named(k, "P");
    Task kid = named(k, "kid");
    Task kid2 = named(k, "kid2");
    assertThat(p.pid()).isEqualTo(1);
    assertThat(kid.pid()).isEqualTo(2);
    assertThat(kid2.pid()).isEqualTo(3);
    assertThat(kid.nice()).isEqualTo(-3);
    assertThat(kid.cpu()).isEqualTo(1);
    assertThat(kid.mm()).isNotNull().isNotSameAs(p.mm());
    assertThat(kid2.mm()).isNotNull().isNotSameAs(p.mm()).isNotSameAs(kid.mm());
    assertThat(kid.isKernelThread()).isFalse();
    assertThat(kid2.parent()).isSameAs(p);
  }

  /**
   * vfork (kernel/fork.c do_fork with CLONE_VM | CLONE_VFORK, copy_mm, mm_release, 2.4.17;
   * fs/exec.c exec_mmap): the child runs in its parent's very mm, one more user of it, while
   * the parent sleeps uninterruptibly; the child's exec moves it to a new, empty mm, drops its
   * reference without touching the parent's vmas, and wakes the parent. The child computes 2
   * ms in user mode before it execs, 1 ms after.
   */
  /**
   * A uniprocessor running P (40 resident pages), which vforks {@code kid}, notes in
   * {@code parentBack} when it is back in user mode, and computes for ever.
   */
  private static Kernel vforkingParent(KernelPath kid, long[] parentBack) {
    KernelPath parent = KernelPath.userProgram("parent")
        .syscall(KernelPath.path("kernel/fork.c", "sys_vfork").vfork("kid", kid).build())
        .probe((c, t, now) -> parentBack[0] = now)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    return machine(1, new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .task(TaskSpec.user("P", parent).residentPages(40))
        .build();
  }

  @Test
  void aVforkedChildBorrowsItsParentsMmAndTheParentSleepsUntilTheChildsExecGivesItBack() {
    long[] parentBack = {-1};
    KernelPath kid = KernelPath.userProgram("kid")
        .compute(2 * MS)
        .syscall(KernelPath.path("fs/exec.c", "do_execve").replaceSharedMm().mmRelease().build())
        .compute(MS)
        .syscall(KernelPath.path("kernel/exit.c", "do_exit").exit().build())
        .build();
    Kernel k = vforkingParent(kid, parentBack);
    Task p = named(k, "P");
    Mm parentsMm = p.mm();
    k.run(MS);
    Task child = named(k, "kid");
    assertThat(child.mm()).as("copy_mm with CLONE_VM: no copy").isSameAs(parentsMm);
    assertThat(parentsMm.users()).isEqualTo(2);
    assertThat(p.state()).isEqualTo(TaskState.UNINTERRUPTIBLE);
    assertThat(parentBack[0]).as("the parent has not returned from vfork").isEqualTo(-1);
    k.run(2 * MS + MS / 2);
    assertThat(child.mm()).as("exec_mmap: a new mm for the child").isNotSameAs(parentsMm);
    assertThat(child.mm().residentPages()).isZero();
    assertThat(p.mm()).isSameAs(parentsMm);
    assertThat(parentsMm.users()).isEqualTo(1);
    assertThat(parentsMm.residentPages()).as("mmput unmaps nothing the parent still uses").isEqualTo(40);
    assertThat(p.state()).as("woken at the child's exec, at 2 ms, not at its exit").isEqualTo(TaskState.RUNNING);
    k.run(4 * MS);
    assertThat(parentBack[0]).as("back from vfork once the CPU is its own (round robin: the child's exit)")
        .isBetween(2 * MS, 3 * MS + MS / 2);
  }

  /**
   * A vforked child that exits without exec gives the mm back in do_exit (__exit_mm's
   * mm_release and mmput): the parent wakes, the only user of its mm again.
   */
  @Test
  void aVforkedChildThatExitsWithoutExecWakesItsParentFromDoExit() {
    long[] parentBack = {-1};
    KernelPath kid = KernelPath.userProgram("kid")
        .compute(MS)
        .syscall(KernelPath.path("kernel/exit.c", "do_exit").exit().build())
        .build();
    Kernel k = vforkingParent(kid, parentBack);
    Task p = named(k, "P");
    k.run(3 * MS);
    assertThat(parentBack[0]).isBetween(MS, 2 * MS);
    assertThat(p.mm().users()).isEqualTo(1);
    assertThat(p.mm().residentPages()).isEqualTo(40);
  }

  /** A plain fork's child exec: the child is its copy's only user, and exec_mmap reuses it. */
  @Test
  void execOfAForkedChildKeepsItsOwnMm() {
    KernelPath kid = KernelPath.userProgram("kid")
        .syscall(KernelPath.path("fs/exec.c", "do_execve").replaceSharedMm().mmRelease().build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    KernelPath parent = KernelPath.userProgram("parent")
        .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("kid", kid).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    Kernel k = machine(1, new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .task(TaskSpec.user("P", parent).residentPages(40))
        .build();
    k.run(30 * MS);
    Task child = named(k, "kid");
    assertThat(child.mm()).isNotSameAs(named(k, "P").mm());
    assertThat(child.mm().id()).as("the copy dup_mmap made, kept").isEqualTo(child.pid());
    assertThat(child.mm().residentPages()).isEqualTo(40);
    assertThat(child.mm().users()).isEqualTo(1);
  }

  /**
   * release_task (kernel/exit.c 2.4.17) calls sched_exit for the live parent; a child whose
   * parent died first is reaped without. P forks "quick" and sleeps 20 ms; O forks "late" and
   * exits at once; quick runs 0..1 ms and exits while P sleeps; late runs 1..6 ms, an orphan.
   */
  @Test
  void aLiveParentReapsItsExitedChildAndTheChildLeavesTheTaskList() {
    Recording s = new Recording();
    KernelPath quick = KernelPath.userProgram("quick").compute(MS).build();
    KernelPath late = KernelPath.userProgram("late").compute(5 * MS).build();
    KernelPath parent = KernelPath.userProgram("parent")
        .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("quick", quick).sleepFor(20 * MS).build())
        .build();
    KernelPath orphaner = KernelPath.userProgram("orphaner")
        .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("late", late).build())
        .build();
    Kernel k = machine(1, s).ksoftirqd(false)
        .task(TaskSpec.user("P", parent))
        .task(TaskSpec.user("O", orphaner))
        .build();
    k.run(30 * MS);
    assertThat(s.calls.stream().filter(c -> c.startsWith("reap"))).containsExactly("reap quick by P");
    assertThat(k.allTasks()).isEmpty();
  }

  /**
   * schedule() charges each task the time from its switch-in to its switch-out; a task that
   * sleeps switches out voluntarily, one preempted while RUNNING involuntarily. A (pid 1)
   * computes 3 ms and sleeps 40 ms; B then hogs the CPU; at 25 ms the RTC wakes P (SCHED_FIFO),
   * which preempts B at the interrupt's return to user mode and sleeps again at once.
   */
  @Test
  void scheduleChargesRunTimeAndCountsVoluntaryAndInvoluntarySwitches() {
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath a = KernelPath.userProgram("A")
        .compute(3 * MS)
        .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep").sleepFor(40 * MS).build())
        .build();
    Kernel k = machine(1, new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
        .task(TaskSpec.user("A", a))
        .task(TaskSpec.user("P", rig.probe).fifo(99))
        .task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .build();
    RtcProbeRig.assertRtcAt(k, 25 * MS);
    k.run(30 * MS);
    Task ta = named(k, "A");
    Task tb = named(k, "B");
    Task tp = named(k, "P");
    assertThat(ta.runtimeNs()).isEqualTo(3 * MS);
    assertThat(k.cpuTimeNs(ta)).isEqualTo(3 * MS);
    assertThat(ta.voluntarySwitches()).isEqualTo(1);
    assertThat(ta.involuntarySwitches()).isZero();
    assertThat(tb.involuntarySwitches()).as("preempted by P at 25 ms").isEqualTo(1);
    assertThat(tb.voluntarySwitches()).isZero();
    assertThat(k.cpuTimeNs(tb)).as("3..30 ms, B running now").isEqualTo(27 * MS);
    assertThat(tp.voluntarySwitches()).as("P slept at boot and after the wake-up").isEqualTo(2);
    assertThat(rig.latencies).containsExactly(0L);
  }

  /**
   * A schedule() that picks the task that called it switches nothing: no context-switch cost
   * (10 us here, the only non-zero cost) and no switch counted.
   */
  @Test
  void aScheduleThatPicksTheCallerAgainPaysNoSwitch() {
    CostTable switchOnly = new CostTable(0, 0, 10 * US, 0, 0, 0, 0, 0, 0, 0, 0);
    List<Long> at = new ArrayList<>();
    KernelPath body = KernelPath.path("kernel/test.c", "yield_nothing")
        .effect("t0", c -> at.add(c.now()))
        .schedule()
        .effect("t1", c -> at.add(c.now()))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(switchOnly), 1)
        .scheduler(new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .task(TaskSpec.user("A", RtcProbeRig.busyTask(body)))
        .build();
    k.run(5 * MS);
    assertThat(at).hasSize(2);
    assertThat(at.get(1) - at.get(0)).isZero();
    Task a = named(k, "A");
    assertThat(a.voluntarySwitches() + a.involuntarySwitches()).isZero();
  }

  /** kernel/sched.c 2.5.5 schedule(): "Scheduling in interrupt" is a BUG, from a handler too. */
  @Test
  void scheduleFromAnInterruptHandlerIsABug() {
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").schedule().build();
    Kernel k = machine(1, new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.none())
        .requestIrq(Rtc.IRQ, "rtc", handler, true)
        .task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .build();
    RtcProbeRig.assertRtcAt(k, MS);
    assertThatThrownBy(() -> k.run(2 * MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: Scheduling in interrupt: schedule() called from HARDIRQ context in drivers/char/rtc.c:rtc_interrupt");
  }

  /** Path entry and exit as a function tracer sees them: at the first operation, after the last. */
  @Test
  void aTracerSeesEachPathEnterAtItsFirstOperationAndExitAfterItsLast() {
    List<String> seen = new ArrayList<>();
    Tracer t = new Tracer() {
      @Override
      public void pathEnter(long now, int cpu, PathView path) {
        if (path.file().equals("fs/test.c")) {
          seen.add("enter " + path + " @" + now / US);
        }
      }

      @Override
      public void pathExit(long now, int cpu, PathView path) {
        if (path.file().equals("fs/test.c")) {
          seen.add("exit " + path + " @" + now / US);
        }
      }
    };
    KernelPath g = KernelPath.path("fs/test.c", "g").compute(MS).build();
    KernelPath body = KernelPath.path("fs/test.c", "f").compute(MS).call(g)
        .loop(F_LOOP, 2, b -> b.compute(MS)).build();
    machine(1, new SimpleRoundRobinScheduler()).tracer(t)
        .task(TaskSpec.user("A", KernelPath.userProgram("A").syscall(body).compute(MS).build()))
        .build().run(9 * MS);
    assertThat(seen).containsExactly(
        "enter fs/test.c:f @0", "enter fs/test.c:g @1000", "exit fs/test.c:g @2000",
        "enter fs/test.c:f#l @2000", "exit fs/test.c:f#l @4000", "exit fs/test.c:f @4000");
  }

  /**
   * kernel/softirq.c do_softirq (2.4.17) ends in local_irq_restore(flags): run from
   * local_bh_enable with interrupts on, it leaves them on. An interrupt at 0.25 ms raises
   * NET_RX inside the bh-off region; local_bh_enable at 1 ms runs it; a second interrupt at
   * 1.5 ms is taken at once.
   */
  @Test
  void aSoftirqRunFromLocalBhEnableLeavesInterruptsAsItFoundThem() {
    List<Long> handler = new ArrayList<>();
    KernelPath h = KernelPath.path("drivers/test/dev.c", "dev_interrupt")
        .effect("record", c -> handler.add(c.now()))
        .raiseSoftirq(Softirq.NET_RX)
        .build();
    KernelPath k = KernelPath.path("net/test.c", "k")
        .localBhDisable().compute(MS).localBhEnable().compute(2 * MS).build();
    Kernel kernel = machine(1, new SimpleRoundRobinScheduler())
        .openSoftirq(Softirq.NET_RX, KernelPath.path("net/core/dev.c", "net_rx_action").compute(10 * US).build())
        .requestIrq(Rtc.IRQ, "dev", h, true)
        .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)))
        .build();
    for (long t : new long[] {MS / 4, 3 * MS / 2}) {
      kernel.machine().simulation().schedule(new Event("dev", now -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), t);
    }
    kernel.run(5 * MS);
    assertThat(handler).containsExactly(MS / 4, 3 * MS / 2);
  }

  /**
   * A softirq handler that saves the interrupt flag and never restores it leaves do_softirq
   * unbalanced: a BUG, not a silent leak into the interrupted code.
   */
  @Test
  void aSoftirqHandlerThatLeaksASavedFlagIsABug() {
    KernelPath leak = KernelPath.path("net/core/dev.c", "net_rx_action").localIrqSave().localIrqEnable().build();
    KernelPath h = KernelPath.path("drivers/test/dev.c", "dev_interrupt").raiseSoftirq(Softirq.NET_RX).build();
    Kernel kernel = machine(1, new SimpleRoundRobinScheduler())
        .openSoftirq(Softirq.NET_RX, leak)
        .requestIrq(Rtc.IRQ, "dev", h, true)
        .task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .build();
    RtcProbeRig.assertRtcAt(kernel, MS);
    assertThatThrownBy(() -> kernel.run(2 * MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: softirq context unbalanced: do_softirq ended with 2 saved irq flags instead of 1");
  }

  /**
   * kernel/timer.c update_process_times(user_tick): a tick that interrupts an interrupt
   * handler is a system tick even if that handler interrupted user code. The RTC handler
   * (not SA_INTERRUPT: it runs with interrupts on) runs 8..13 ms over a user hog; the 10 ms
   * tick lands inside it, the 20 and 30 ms ticks in user mode.
   */
  @Test
  void aTickInsideAHandlerThatInterruptedUserModeIsASystemTick() {
    int[] ticks = new int[2];
    Scheduler counting = new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public void tick(int cpu, boolean userTick) {
        ticks[userTick ? 1 : 0]++;
        super.tick(cpu, userTick);
      }
    };
    KernelPath h = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").compute(5 * MS).build();
    Kernel k = machine(1, counting)
        .requestIrq(Rtc.IRQ, "rtc", h, false)
        .task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .build();
    RtcProbeRig.assertRtcAt(k, 8 * MS);
    k.run(35 * MS);
    assertThat(ticks).containsExactly(1, 2);
  }
}
