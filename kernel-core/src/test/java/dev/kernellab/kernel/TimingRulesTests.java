package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where time goes in the generic kernel, worked out by hand from the 2.4.17 sources: timed
 * sleeps in whole jiffies (kernel/timer.c sys_nanosleep, kernel/sched.c schedule_timeout; HZ
 * 100, jiffies 1 at boot, ticks at 10, 20 ... ms, a timer expiring at jiffy j runs at the
 * tick that makes jiffies j), the system call entry and exit (arch/i386/kernel/entry.S), and
 * schedule()'s epoch recalculation with the runqueue lock dropped.
 */
class TimingRulesTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  private static Kernel run(CostTable costs, Scheduler s, long until, TaskSpec... tasks) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(costs), 1)
        .scheduler(s).ksoftirqd(false);
    for (TaskSpec t : tasks) {
      b.task(t);
    }
    Kernel k = b.build();
    k.run(until);
    return k;
  }

  /**
   * sys_nanosleep: a real-time task asking for at most 2 ms busy-waits exactly that long
   * (udelay); 2 ms + 1 ns sleeps ceil(2000001 / 10^7) + 1 = 2 jiffies from jiffy 1, so it is
   * back at jiffy 3, the 20 ms tick. A SCHED_OTHER task's 1 ms nanosleep from t = 0 also takes
   * 1 + 1 = 2 jiffies (20 ms); schedule_timeout(15 ms) takes ceil(1.5) = 2 jiffies without the
   * extra one: 20 ms as well, and schedule_timeout(25 ms) 3 jiffies: 30 ms.
   */
  @Test
  void timedSleepsLastWholeJiffiesAndARealTimeTasksShortNanosleepBusyWaits() {
    List<String> seen = new ArrayList<>();
    KernelPath rt = KernelPath.userProgram("rt")
        .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
            .nanosleep(Distribution.fixed(2 * MS))
            .effect("t", c -> seen.add("rt busy-waited to " + c.now() / US))
            .nanosleep(Distribution.fixed(2 * MS + 1))
            .effect("t", c -> seen.add("rt slept to " + c.now() / US))
            .build())
        .build();
    KernelPath other = KernelPath.userProgram("other")
        .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
            .nanosleep(c -> MS)
            .effect("t", c -> seen.add("other slept to " + c.now() / US))
            .build())
        .build();
    KernelPath timeout = KernelPath.userProgram("timeout")
        .syscall(KernelPath.path("kernel/sched.c", "schedule_timeout")
            .sleepFor(15 * MS)
            .effect("t", c -> seen.add("15 ms timeout to " + c.now() / US))
            .build())
        .build();
    KernelPath timeout25 = KernelPath.userProgram("timeout25")
        .syscall(KernelPath.path("kernel/sched.c", "schedule_timeout")
            .sleepFor(25 * MS)
            .effect("t", c -> seen.add("25 ms timeout to " + c.now() / US))
            .build())
        .build();
    Kernel k = run(CostTable.zero(), new SimpleRoundRobinScheduler(), 40 * MS,
        TaskSpec.user("rt", rt).fifo(50),
        TaskSpec.user("other", other),
        TaskSpec.user("timeout", timeout),
        TaskSpec.user("timeout25", timeout25));
    assertThat(seen).containsExactly(
        "rt busy-waited to 2000", "rt slept to 20000", "other slept to 20000", "15 ms timeout to 20000",
        "25 ms timeout to 30000");
    assertThat(k.allTasks()).isEmpty();
  }

  /** system_call costs the entry (3 us here), ret_from_sys_call the exit (5 us). */
  @Test
  void aSystemCallPaysItsEntryBeforeTheBodyAndItsExitAfter() {
    CostTable entryExit = new CostTable(0, 0, 0, 0, 3 * US, 5 * US, 0, 0, 0, 0, 0);
    List<Long> at = new ArrayList<>();
    KernelPath p = KernelPath.userProgram("P")
        .effect("t0", c -> at.add(c.now()))
        .syscall(KernelPath.path("kernel/test.c", "sys_nop").effect("t1", c -> at.add(c.now())).build())
        .effect("t2", c -> at.add(c.now()))
        .build();
    run(entryExit, new SimpleRoundRobinScheduler(), MS, TaskSpec.user("P", p));
    assertThat(at).hasSize(3);
    assertThat(at.get(1) - at.get(0)).isEqualTo(3 * US);
    assertThat(at.get(2) - at.get(1)).isEqualTo(5 * US);
  }

  /**
   * 2.4.17 schedule(): the pick runs under spin_lock_irq(&runqueue_lock) (20 us here); the
   * epoch recalculation drops it with spin_unlock_irq (30 us with interrupts on) and retakes
   * it. A's first run begins after the boot schedule() from the idle task, itself 50 us, so
   * A's own schedule() (which picks A again) runs 50..100 us: an interrupt asserted at 60 us,
   * in the locked pick, waits for the unlock at 70 us; one asserted at 85 us, in the
   * recalculation, is taken at once.
   */
  @Test
  void scheduleTakesInterruptsOnlyWhileTheRecalculationHasTheRunqueueLockDropped() {
    Scheduler recalculating = new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public long scheduleCostNs(int cpu) {
        return 20 * US;
      }

      @Override
      public long unlockedScheduleCostNs(int cpu) {
        return 30 * US;
      }
    };
    List<Long> at = new ArrayList<>();
    List<Long> irq = new ArrayList<>();
    KernelPath body = KernelPath.path("kernel/test.c", "sys_sched_yield")
        .effect("t0", c -> at.add(c.now()))
        .schedule()
        .effect("t1", c -> at.add(c.now()))
        .build();
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("irq", c -> irq.add(c.now()))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(recalculating).ksoftirqd(false)
        .requestIrq(Rtc.IRQ, "rtc", handler, true)
        .task(TaskSpec.user("A", RtcProbeRig.busyTask(body)))
        .build();
    for (long t : new long[] {60 * US, 85 * US}) {
      k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), t);
    }
    k.run(MS);
    assertThat(at).containsExactly(50 * US, 100 * US);
    assertThat(irq).containsExactly(70 * US, 85 * US);
  }
}
