package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.Vectors;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.preempt.PreemptKernelPatch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What long SMP runs exercise and short ones rarely do, each set up on purpose on a small
 * machine with both schedulers: a preempted task's suspended work moving to another CPU, a CPU
 * spinning with interrupts off while the lock is released elsewhere, a timer waking a task
 * whose CPU is idle and halted, a reschedule IPI arriving after the switch it asked for already
 * happened, and children exiting on one CPU while their parent is queued or running on another.
 * Every case runs with all debug checks on and checks the kernel's invariants as it goes.
 */
class SmpEdgeCaseTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  private static KernelBuilder machine(String scheduler, int cpus, CostTable costs) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus).withCosts(costs), 1)
        .scheduler(SchedulerProvider.create(scheduler));
  }

  /** Records the instants of switches, wake-ups and interrupt entries, with their CPU. */
  static final class Log implements Tracer {
    final List<String> lines = new ArrayList<>();

    @Override
    public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      lines.add(now + " cpu" + cpu + " " + prev.comm() + "->" + next.comm());
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      lines.add(now + " cpu" + cpu + " irq " + vector);
    }

    long first(String suffix) {
      for (String l : lines) {
        if (l.endsWith(suffix)) {
          return Long.parseLong(l.substring(0, l.indexOf(' ')));
        }
      }
      throw new AssertionError("no '" + suffix + "' in " + lines);
    }

    String firstLine(String contains) {
      for (String l : lines) {
        if (l.contains(contains)) {
          return l;
        }
      }
      throw new AssertionError("no '" + contains + "' in " + lines);
    }
  }

  /**
   * B enters a 5 ms kernel computation on CPU 0 and is preempted there at 1 ms (preempt patch)
   * by P, which then hogs CPU 0 in user mode. CPU 1 is idle, so B moves there (2.4: the
   * {@code reschedule_idle(prev)} of {@code __schedule_tail}; O(1): the idle rebalance) and
   * finishes what was left of its computation, exactly 4 ms of it, before returning to user.
   */
  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void aPreemptedTaskFinishesItsSuspendedSegmentOnAnotherCpu(String scheduler) {
    RtcProbeRig rig = new RtcProbeRig();
    long[] backInUser = {0};
    int[] backOn = {-1};
    KernelPath hog =
        KernelPath.userProgram("P")
            .syscall(rig.rtcRead)
            .loop("burn", Long.MAX_VALUE, l -> l.compute(MS))
            .build();
    KernelPath b =
        KernelPath.userProgram("B")
            .syscall(KernelPath.path("test/smp.c", "long_syscall").compute(5 * MS).build())
            .probe((c, t, now) -> {
              backInUser[0] = now;
              backOn[0] = c.id();
            })
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS))
            .build();
    Log log = new Log();
    KernelBuilder kb =
        machine(scheduler, 2, CostTable.zero())
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .tracer(log)
            .task(TaskSpec.user("P", hog).fifo(99).onCpu(0).allowedOn(0b01))
            .task(TaskSpec.user("B", b).onCpu(0))
            .patch(new PreemptKernelPatch());
    Kernel k = kb.build();
    RtcProbeRig.assertRtcAt(k, MS);
    for (long t = MS / 2; t <= 60 * MS; t += MS / 2) {
      k.run(t);
      k.checkInvariants();
    }
    long preempted = log.first("cpu0 B->P");
    long resumed = log.first("cpu1 swapper/1->B");
    assertThat(preempted).isEqualTo(MS);
    assertThat(resumed).isGreaterThanOrEqualTo(preempted);
    assertThat(backOn[0]).isEqualTo(1);
    assertThat(backInUser[0] - resumed).isEqualTo(4 * MS);
  }

  /**
   * CPU 1 holds L for 3 ms; at 1 ms CPU 0 calls {@code spin_lock_irq(L)}, spins with
   * interrupts off, takes L at 3 ms, holds it 100 us and unlocks with {@code spin_unlock_irq}.
   * The RTC interrupt routed to CPU 0 and asserted at 2 ms is taken at exactly 3.1 ms.
   */
  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void aCpuSpinningWithInterruptsOffTakesThemWhenItUnlocks(String scheduler) {
    SpinLock l = SpinLock.spin("L");
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath holder =
        KernelPath.userProgram("holder")
            .syscall(KernelPath.path("test/smp.c", "hold").spinLock(l).compute(3 * MS).spinUnlock(l).build())
            .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
            .build();
    KernelPath waiter =
        KernelPath.userProgram("waiter")
            .compute(MS)
            .syscall(KernelPath.path("test/smp.c", "take_irq")
                .spinLockIrq(l).compute(100 * US).spinUnlockIrq(l).build())
            .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
            .build();
    Log log = new Log();
    Kernel k =
        machine(scheduler, 2, CostTable.zero())
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .tracer(log)
            .task(TaskSpec.user("waiter", waiter).onCpu(0).allowedOn(0b01))
            .task(TaskSpec.user("holder", holder).onCpu(1).allowedOn(0b10))
            .build();
    RtcProbeRig.assertRtcAt(k, 2 * MS);
    k.run(5 * MS);
    k.checkInvariants();
    int rtcVector = k.machine().ioApic().vectorOf(Rtc.IRQ);
    assertThat(log.first("cpu0 irq " + rtcVector)).isEqualTo(3 * MS + 100 * US);
    assertThat(l.contentions()).isEqualTo(1);
    assertThat(k.machine().cpu(0).spinNs()).isEqualTo(2 * MS);
  }

  /**
   * A task pinned to CPU 1 sleeps 20 ms in {@code nanosleep}; CPU 1 halts in its idle loop. The
   * PIT interrupt and the timer bottom half run on CPU 0, whose {@code run_timer_list} wakes
   * the sleeper: the wake-up must reach the halted CPU (an IPI, or the idle task's
   * need_resched) and the task runs there at the tick its timer expires (2.4.17
   * {@code sys_nanosleep}: ceil(20 ms / 10 ms) + 1 = 3 ticks after the call).
   */
  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void aTimerWakesATaskWhoseCpuIsHalted(String scheduler) {
    long[] woke = {0};
    int[] on = {-1};
    KernelPath sleeper =
        KernelPath.userProgram("sleeper")
            .compute(2 * MS)
            .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
                .nanosleep(Distribution.fixed(20 * MS)).build())
            .probe((c, t, now) -> {
              woke[0] = now;
              on[0] = c.id();
            })
            .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
            .build();
    Log log = new Log();
    Kernel k =
        machine(scheduler, 2, CostTable.zero())
            .tracer(log)
            .task(TaskSpec.user("sleeper", sleeper).onCpu(1).allowedOn(0b10))
            .build();
    k.run(25 * MS);
    assertThat(k.machine().cpu(1).segment()).isEqualTo(dev.kernellab.hw.Cpu.Segment.HALT);
    k.run(60 * MS);
    k.checkInvariants();
    assertThat(on[0]).isEqualTo(1);
    // Called at 2 ms (jiffies 1, before the first PIT tick): expires at jiffies 4, the third
    // PIT interrupt (LATCH = 11932 periods of 1.19318 MHz: 10.000168 ms apart).
    int pit = k.machine().ioApic().vectorOf(dev.kernellab.hw.Pit.IRQ);
    List<String> ticks = log.lines.stream().filter(x -> x.endsWith("cpu0 irq " + pit)).toList();
    long thirdTick = Long.parseLong(ticks.get(2).substring(0, ticks.get(2).indexOf(' ')));
    assertThat(thirdTick).isEqualTo(3 * Kernel.latch(100) * 1_000_000_000L / dev.kernellab.hw.Pit.CLOCK_TICK_RATE);
    assertThat(woke[0]).isEqualTo(thirdTick);
  }

  /**
   * P (SCHED_FIFO, last ran on CPU 1) is woken from CPU 0 at 1 ms while B runs on CPU 1: the
   * wake-up flags B and sends CPU 1 a reschedule IPI that takes 50 us to arrive. B blocks after
   * 10 us on its own, CPU 1 switches to P, and the IPI lands on P already running in user
   * mode: it must change nothing (no second switch, P keeps the CPU), and be taken once.
   */
  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void aRescheduleIpiArrivingAfterTheSwitchItAskedForChangesNothing(String scheduler) {
    CostTable slowIpi = new CostTable(0, 0, 0, 50 * US, 0, 0, 0, 0, 0, 0, 0);
    KernelPath p =
        KernelPath.userProgram("P")
            .syscall(KernelPath.path("test/smp.c", "wait")
                .setState(TaskState.INTERRUPTIBLE).schedule().build())
            .loop("burn", Long.MAX_VALUE, x -> x.compute(MS))
            .build();
    KernelPath b =
        KernelPath.userProgram("B")
            .compute(MS + 10 * US)
            .syscall(KernelPath.path("test/smp.c", "block")
                .setState(TaskState.INTERRUPTIBLE).schedule().build())
            .build();
    Log log = new Log();
    Kernel k =
        machine(scheduler, 2, slowIpi)
            .tracer(log)
            .task(TaskSpec.user("P", p).fifo(99).onCpu(1).allowedOn(0b10))
            .task(TaskSpec.user("B", b).onCpu(1).allowedOn(0b10))
            .task(TaskSpec.user("C", KernelPath.userProgram("C")
                .loop("burn", Long.MAX_VALUE, x -> x.compute(MS)).build()).onCpu(0).allowedOn(0b01))
            .build();
    k.machine().simulation().schedule(new Event("wake P", now -> k.cpu(0).wakeUpProcess(k.task("P").orElseThrow())), MS);
    k.run(3 * MS);
    k.checkInvariants();
    assertThat(log.first("cpu1 B->P")).isEqualTo(MS + 10 * US);
    assertThat(log.first("cpu1 irq " + Vectors.RESCHEDULE_VECTOR)).isEqualTo(MS + 50 * US);
    assertThat(log.lines.stream().filter(s -> s.contains("cpu1 irq " + Vectors.RESCHEDULE_VECTOR)))
        .hasSize(1);
    assertThat(log.lines.stream().filter(s -> s.contains("cpu1 P->"))).containsExactly("0 cpu1 P->B");
  }

  /**
   * Parents on two CPUs fork children without pause; the children compute a little and exit,
   * wherever the scheduler put them, while their parent is queued or running on the other
   * CPU. Reaping hands the child's slice back to a parent on another runqueue. Nothing may be
   * lost, duplicated or left queued, at any of the thousand checks of the run.
   */
  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void childrenExitingOnOneCpuWhileTheirParentIsOnAnotherLoseNothing(String scheduler) {
    KernelPath child = KernelPath.userProgram("child").compute(Distribution.uniform(10 * US, 400 * US)).build();
    KernelPath parent =
        KernelPath.userProgram("parent")
            .loop("main", Long.MAX_VALUE, l -> l
                .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("child", child).build())
                .compute(Distribution.uniform(10 * US, 200 * US)))
            .build();
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(2), 7)
            .scheduler(SchedulerProvider.create(scheduler))
            .task(TaskSpec.user("parent0", parent).onCpu(0))
            .task(TaskSpec.user("parent1", parent).onCpu(1))
            .build();
    for (long t = MS; t <= 1_000 * MS; t += MS) {
      k.run(t);
      k.checkInvariants();
    }
    assertThat(k.task("parent0").orElseThrow().voluntarySwitches() + k.task("parent0").orElseThrow().involuntarySwitches()).isPositive();
    assertThat(k.allTasks().size()).isLessThan(2_000);
  }
}
