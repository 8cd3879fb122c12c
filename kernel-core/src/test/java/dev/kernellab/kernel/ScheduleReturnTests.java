package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How {@code schedule()} and a new task's first return leave the CPU: the soak found a child
 * whose need_resched was set during its first context switch (a wake-up from another CPU) loop
 * back through {@code ret_from_fork} as if it were schedule() and pop interrupt flags it never
 * saved.
 */
class ScheduleReturnTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  /** Every cost zero but the context switch, so the switch is a window of known length. */
  private static final CostTable SWITCH_ONLY =
      new CostTable(0, 0, 10 * US, 0, 0, 0, 0, 0, 0, 0, 0);

  /**
   * ret_from_sys_call's restore_all ends in iret, which sets the privilege level and the
   * interrupt flag together: an interrupt held off by its cli and taken at that instant
   * interrupted user mode, so ret_from_intr reschedules if it set need_resched. Every system
   * call exit costs 100 us, nothing else costs time (the three boot tasks' ret_from_fork take
   * 0..0.3 ms): B's system call runs 0.3..1.3 ms and its exit, under cli, 1.3..1.4 ms; the RTC
   * asserted at 1.35 ms wakes P at 1.4 ms, and P, back through its own exit, samples at 1.5 ms:
   * 150 us. Taken as if in kernel mode, the
   * interrupt left B to return to user mode with need_resched set and compute on.
   */
  @Test
  void anInterruptHeldOffByTheSystemCallExitIsTakenInUserMode() {
    RtcProbeRig rig = new RtcProbeRig();
    CostTable exitOnly = new CostTable(0, 0, 0, 0, 0, 100 * US, 0, 0, 0, 0, 0);
    Kernel k = rig.builder(new SimpleRoundRobinScheduler(),
            RtcProbeRig.busyTask(KernelPath.path("test/k.c", "work").compute(MS).build()), exitOnly, 1)
        .debugChecks(DebugChecks.all())
        .build();
    RtcProbeRig.assertRtcAt(k, MS + 350 * US);
    k.run(5 * MS);
    k.checkInvariants();
    assertThat(rig.latencies).startsWith(150 * US);
  }

  @Test
  void aChildWokenIntoDuringItsFirstSwitchReschedulesAtRetFromSysCall() {
    KernelPath child = KernelPath.userProgram("child").compute(MS).build();
    KernelPath parent =
        KernelPath.userProgram("parent")
            .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("child", child).build())
            .syscall(KernelPath.path("test/k.c", "pause").setState(TaskState.INTERRUPTIBLE).schedule().build())
            .build();
    KernelPath sleeper =
        KernelPath.userProgram("rt")
            .loop("main", Long.MAX_VALUE, l -> l.syscall(
                KernelPath.path("test/k.c", "pause").setState(TaskState.INTERRUPTIBLE).schedule().build()))
            .build();
    List<String> switches = new ArrayList<>();
    Kernel[] kernel = new Kernel[1];
    TaskView[] firstChild = new TaskView[1];
    Tracer wakeDuringFirstSwitch =
        new Tracer() {
          @Override
          public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
            switches.add(now + " " + prev.comm() + "->" + next.comm());
            if (next.comm().equals("child") && next.voluntarySwitches() + next.involuntarySwitches() == 0
                && next.runtimeNs() == 0 && switches.stream().filter(s -> s.endsWith("->child")).count() == 1) {
              Kernel k = kernel[0];
              firstChild[0] = next;
              k.machine().simulation().schedule(
                  new Event("wake rt", t -> k.cpu(0).wakeUpProcess(k.task("rt").orElseThrow())), now + 5 * US);
            }
          }
        };
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(SWITCH_ONLY), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .tracer(wakeDuringFirstSwitch)
            .task(TaskSpec.user("rt", sleeper).fifo(50))
            .task(TaskSpec.user("parent", parent));
    Kernel k = b.build();
    kernel[0] = k;
    k.run(5 * MS);
    k.checkInvariants();

    long toChild = at(switches, "parent->child");
    // The child pays its switch in [toChild, toChild + 10 us]; rt woke at +5 us and set the
    // child's need_resched. ret_from_fork's ret_from_sys_call honours it the instant the
    // switch is paid: before the child runs one instruction of user code.
    assertThat(at(switches, "child->rt")).isEqualTo(toChild + 10 * US);
    // Its first slice was the switch alone; it later ran its millisecond and exited.
    assertThat(switches).contains((toChild + 10 * US) + " child->rt");
    assertThat(firstChild[0].state()).isEqualTo(TaskState.DEAD);
    assertThat(firstChild[0].runtimeNs()).isEqualTo(MS + 20 * US); // two switches in
  }

  /**
   * {@code interruptible_sleep_on()} of 2.4.17 (kernel/sched.c): SLEEP_ON_HEAD saves the flags
   * and leaves interrupts off, schedule() comes back with them on (it ends in
   * {@code spin_unlock_irq(&runqueue_lock)}), SLEEP_ON_TAIL restores the caller's flags. The
   * saved flag belongs to the sleeper's own stack: a wake-up 1 ms later, from the RTC
   * interrupt, finds it intact.
   */
  @Test
  void scheduleReturnsWithInterruptsOnAndTheCallerRestoresItsOwnFlags() {
    boolean[] seen = new boolean[3];
    WaitQueue wq = new WaitQueue("q");
    KernelPath sleepOn =
        KernelPath.path("kernel/sched.c", "interruptible_sleep_on")
            .localIrqDisable() // the caller's cli()
            .localIrqSave()
            .sleepOn(wq)
            .effect("IF after schedule()", c -> seen[0] = c.interruptsEnabled())
            .localIrqRestore()
            .effect("IF after restore", c -> seen[1] = c.interruptsEnabled())
            .localIrqEnable()
            .effect("IF after sti", c -> seen[2] = c.interruptsEnabled())
            .build();
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .requestIrq(Rtc.IRQ, "rtc", KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").wakeUp(wq).build(), true)
            .task(TaskSpec.user("sleeper", KernelPath.userProgram("sleeper").syscall(sleepOn)
                .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()))
            .build();
    RtcProbeRig.assertRtcAt(k, MS);
    k.run(3 * MS);
    k.checkInvariants();
    assertThat(seen).containsExactly(true, false, true);
  }

  /**
   * {@code wake_up_sync} reaches the scheduler as {@code try_to_wake_up(p, 1)} (kernel/sched.c
   * 2.4.17 {@code __wake_up_sync}), a plain {@code wake_up} as {@code try_to_wake_up(p, 0)}.
   */
  @Test
  void wakeUpSyncPassesTheSyncFlagToTheScheduler() {
    List<Boolean> syncs = new ArrayList<>();
    Scheduler recording =
        new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
          @Override
          public boolean tryToWakeUp(TaskView p, boolean sync) {
            if (p.comm().startsWith("sleeper")) {
              syncs.add(sync);
            }
            return super.tryToWakeUp(p, sync);
          }
        };
    WaitQueue a = new WaitQueue("a");
    WaitQueue b = new WaitQueue("b");
    KernelPath waker =
        KernelPath.userProgram("waker")
            .compute(MS)
            .syscall(KernelPath.path("test/k.c", "wake").wakeUp(a).wakeUpSync(b).build())
            .build();
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(recording)
            .task(TaskSpec.user("sleeperA", KernelPath.userProgram("sleeperA")
                .syscall(KernelPath.path("test/k.c", "sa").sleepOn(a).build()).build()))
            .task(TaskSpec.user("sleeperB", KernelPath.userProgram("sleeperB")
                .syscall(KernelPath.path("test/k.c", "sb").sleepOn(b).build()).build()))
            .task(TaskSpec.user("waker", waker))
            .build();
    k.run(5 * MS);
    assertThat(syncs).containsExactly(false, true);
  }

  private static long at(List<String> switches, String what) {
    for (String s : switches) {
      if (s.endsWith(" " + what)) {
        return Long.parseLong(s.substring(0, s.indexOf(' ')));
      }
    }
    throw new AssertionError("no switch " + what + " in " + switches);
  }
}
