package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The interrupt, bottom-half and wait-queue primitives as include/linux/spinlock.h,
 * include/asm-i386/softirq.h, kernel/softirq.c and kernel/sched.c of 2.4.17 define them, on a
 * zero-cost uniprocessor (HZ 100: the first timer tick is at 10 ms, after every instant these
 * scenarios look at). Every expected instant is worked out by hand from the scenario.
 */
class KernelPrimitiveSemanticsTests {

  private static final long MS = 1_000_000;

  /** What the scenario saw: when the device handler and the softirq handlers ran. */
  private static final class Seen {
    final List<Long> handler = new ArrayList<>();
    final List<String> softirqs = new ArrayList<>();
    final List<Boolean> interruptFlag = new ArrayList<>();
  }

  private static KernelPath.Builder k() {
    return KernelPath.path("test/k.c", "K");
  }

  /**
   * One CPU, task B entering kernel path {@code k} at t = 0, and the RTC line asserted at each
   * of {@code irqAt}; its handler records the instant it runs, then runs {@code alsoInHandler}.
   */
  private static Kernel boot(KernelPath k, Seen seen, KernelPath alsoInHandler, boolean ksoftirqd,
      KernelBuilder extra, long... irqAt) {
    KernelPath.Builder h = KernelPath.path("drivers/test/dev.c", "dev_interrupt")
        .effect("record", c -> seen.handler.add(c.now()));
    if (alsoInHandler != null) {
      h.call(alsoInHandler);
    }
    KernelBuilder b = extra != null ? extra
        : new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler());
    b.requestIrq(Rtc.IRQ, "dev", h.build(), true)
        .ksoftirqd(ksoftirqd)
        .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)));
    Kernel kernel = b.build();
    for (long t : irqAt) {
      kernel.machine().simulation().schedule(
          new Event("dev.assert", now -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), t);
    }
    return kernel;
  }

  private static Action flag(Seen seen) {
    return c -> seen.interruptFlag.add(c.interruptsEnabled());
  }

  @Test
  void spinLockIrqHoldsOffAnInterruptUntilSpinUnlockIrq() {
    Seen seen = new Seen();
    SpinLock l = SpinLock.spin("L");
    KernelPath path = k().spinLockIrq(l).effect("IF", flag(seen)).compute(2 * MS)
        .spinUnlockIrq(l).effect("IF", flag(seen)).compute(MS).build();
    boot(path, seen, null, true, null, MS / 2).run(5 * MS);
    assertThat(seen.handler).as("taken at the unlock, not when asserted").containsExactly(2 * MS);
    assertThat(seen.interruptFlag).containsExactly(false, true);
  }

  @Test
  void spinLockIrqSaveHoldsOffAnInterruptUntilTheRestore() {
    Seen seen = new Seen();
    SpinLock l = SpinLock.spin("L");
    KernelPath path = k().spinLockIrqSave(l).effect("IF", flag(seen)).compute(MS)
        .spinUnlockIrqRestore(l).effect("IF", flag(seen)).compute(MS).build();
    boot(path, seen, null, true, null, MS / 2).run(5 * MS);
    assertThat(seen.handler).containsExactly(MS);
    assertThat(seen.interruptFlag).containsExactly(false, true);
  }

  /** spin_unlock_irqrestore puts back the flag it saved: off, inside a cli region. */
  @Test
  void spinUnlockIrqRestoreInsideACliRegionLeavesInterruptsOff() {
    Seen seen = new Seen();
    SpinLock l = SpinLock.spin("L");
    KernelPath path = k().localIrqDisable().spinLockIrqSave(l).compute(MS)
        .spinUnlockIrqRestore(l).effect("IF", flag(seen)).compute(MS)
        .localIrqEnable().compute(MS).build();
    boot(path, seen, null, true, null, MS / 2).run(5 * MS);
    assertThat(seen.interruptFlag).containsExactly(false);
    assertThat(seen.handler).as("taken at the sti, 2 ms").containsExactly(2 * MS);
  }

  /** spin_unlock_irq turns interrupts on whatever they were before the lock. */
  @Test
  void spinUnlockIrqEnablesInterruptsEvenInsideACliRegion() {
    Seen seen = new Seen();
    SpinLock l = SpinLock.spin("L");
    KernelPath path = k().localIrqDisable().spinLockIrq(l).compute(MS)
        .spinUnlockIrq(l).effect("IF", flag(seen)).compute(MS)
        .localIrqEnable().compute(MS).build();
    boot(path, seen, null, true, null, MS / 2).run(5 * MS);
    assertThat(seen.interruptFlag).containsExactly(true);
    assertThat(seen.handler).containsExactly(MS);
  }

  private static KernelBuilder withSoftirqs(Softirq a, KernelPath aHandler, Softirq b,
      KernelPath bHandler) {
    KernelBuilder builder = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    builder.openSoftirq(a, aHandler);
    if (b != null) {
      builder.openSoftirq(b, bHandler);
    }
    return builder;
  }

  private static KernelPath softirqHandler(Seen seen, String name, Softirq... raises) {
    KernelPath.Builder b = KernelPath.path("net/core/dev.c", name)
        .effect("record", c -> seen.softirqs.add(name + "@" + c.now() / 1_000 + "us"));
    for (Softirq s : raises) {
      b.raiseSoftirq(s);
    }
    return b.build();
  }

  private static KernelPath raising(Softirq s) {
    return KernelPath.path("drivers/test/dev.c", "raise").raiseSoftirq(s).build();
  }

  /**
   * include/asm-i386/softirq.h local_bh_enable(): when the count drops to zero and a softirq
   * is pending, do_softirq() runs there. An interrupt inside the region raises NET_RX; its
   * exit sees in_interrupt() (bottom halves off) and leaves it pending.
   */
  @Test
  void localBhEnableRunsTheSoftirqsRaisedWhileBottomHalvesWereOff() {
    Seen seen = new Seen();
    KernelBuilder b = withSoftirqs(Softirq.NET_RX, softirqHandler(seen, "net_rx_action"), null, null);
    KernelPath path = k().localBhDisable().compute(MS).localBhEnable().compute(2 * MS).build();
    boot(path, seen, raising(Softirq.NET_RX), false, b, MS / 4).run(5 * MS);
    assertThat(seen.handler).containsExactly(MS / 4);
    assertThat(seen.softirqs).containsExactly("net_rx_action@1000us");
  }

  @Test
  void spinUnlockBhRunsTheSoftirqsRaisedUnderTheLock() {
    Seen seen = new Seen();
    SpinLock l = SpinLock.spin("L");
    KernelBuilder b = withSoftirqs(Softirq.NET_RX, softirqHandler(seen, "net_rx_action"), null, null);
    KernelPath path = k().spinLockBh(l).compute(2 * MS).spinUnlockBh(l).compute(2 * MS).build();
    boot(path, seen, raising(Softirq.NET_RX), false, b, MS / 2).run(5 * MS);
    assertThat(seen.softirqs).containsExactly("net_rx_action@2000us");
  }

  @Test
  void theOutermostInterruptExitRunsPendingSoftirqsAtOnce() {
    Seen seen = new Seen();
    KernelBuilder b = withSoftirqs(Softirq.NET_RX, softirqHandler(seen, "net_rx_action"), null, null);
    boot(k().compute(3 * MS).build(), seen, raising(Softirq.NET_RX), false, b, MS).run(5 * MS);
    assertThat(seen.softirqs).containsExactly("net_rx_action@1000us");
  }

  /**
   * kernel/softirq.c do_softirq() (2.4.17): {@code mask = ~pending}; after a pass it restarts
   * only for softirqs raised meanwhile that it has not run yet ({@code pending & mask}), and
   * drops each from the mask as it restarts for it; the rest wait (for ksoftirqd, absent
   * here, or the next interrupt exit). NET_TX raises NET_RX, which raises itself: each
   * interrupt runs NET_TX and NET_RX once, and leaves NET_RX pending; the second interrupt's
   * do_softirq starts with both pending.
   */
  @Test
  void doSoftirqRestartsOnlyForSoftirqsItHasNotRunYet() {
    Seen seen = new Seen();
    KernelBuilder b = withSoftirqs(
        Softirq.NET_TX, softirqHandler(seen, "net_tx_action", Softirq.NET_RX),
        Softirq.NET_RX, softirqHandler(seen, "net_rx_action", Softirq.NET_RX));
    Kernel kernel = boot(k().compute(4 * MS).build(), seen, raising(Softirq.NET_TX), false, b, MS, 3 * MS);
    kernel.run(2 * MS);
    assertThat(kernel.cpu(0).softirqPending).isEqualTo(Softirq.NET_RX.bit());
    kernel.run(5 * MS);
    assertThat(seen.softirqs)
        .containsExactly("net_tx_action@1000us", "net_rx_action@1000us", "net_tx_action@3000us",
            "net_rx_action@3000us");
    assertThat(kernel.cpu(0).softirqPending).isEqualTo(Softirq.NET_RX.bit());
  }

  /**
   * kernel/sched.c __wake_up_common (2.4.17): non-exclusive waiters sit at the head of the
   * queue and all wake; the walk stops after the first exclusive waiter it wakes
   * (nr_exclusive = 1 for wake_up). Readers A and B wait (non-exclusive) on the queue of
   * semaphore S, whose down() sleeps exclusively (arch/i386/kernel/semaphore.c __down): C
   * and D. W's wake_up on that queue wakes A, B and C, not D.
   */
  @Test
  void wakeUpWakesEveryNonExclusiveWaiterAndOneExclusive() {
    Semaphore s = new Semaphore("S", 0);
    WaitQueue q = s.waitQueue();
    List<String> woken = new ArrayList<>();
    Scheduler recording = new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public boolean tryToWakeUp(TaskView p, boolean sync) {
        boolean w = super.tryToWakeUp(p, sync);
        if (w && "ABCD".contains(p.comm())) {
          woken.add(p.comm());
        }
        return w;
      }
    };
    KernelPath reader = KernelPath.userProgram("reader")
        .syscall(KernelPath.path("test/q.c", "read").waitEvent(q, () -> false).build()).build();
    KernelPath downer = KernelPath.userProgram("downer")
        .syscall(KernelPath.path("test/q.c", "lock").down(s).build()).build();
    KernelPath waker = KernelPath.userProgram("waker")
        .syscall(KernelPath.path("test/q.c", "poke").sleepFor(MS).wakeUp(q).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    Kernel kernel = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(recording)
        .task(TaskSpec.user("A", reader))
        .task(TaskSpec.user("C", downer))
        .task(TaskSpec.user("B", reader))
        .task(TaskSpec.user("D", downer))
        .task(TaskSpec.user("W", waker))
        .build();
    kernel.run(30 * MS);
    assertThat(woken).containsExactlyInAnyOrder("A", "B", "C");
    assertThat(kernel.task("D").orElseThrow().state()).isEqualTo(TaskState.UNINTERRUPTIBLE);
  }

  /**
   * kernel/fork.c do_fork: the child copies the parent's policy, priority, nice and affinity,
   * starts on the parent's CPU, and the scheduler is told of the fork (the time-slice split of
   * 2.4 and 2.5 alike) before wake_up_forked_process makes the child runnable.
   */
  @Test
  void forkTellsTheSchedulerOfParentAndChildBeforeTheChildIsWoken() {
    List<String> calls = new ArrayList<>();
    Scheduler recording = new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public void fork(TaskView parent, TaskView child) {
        calls.add("fork " + parent.comm() + " -> " + child.comm() + " " + child.state());
        super.fork(parent, child);
      }

      @Override
      public void wakeUpNewTask(TaskView child, TaskView parent) {
        if (parent != null) {
          calls.add("wake " + child.comm() + " from " + parent.comm());
        }
        super.wakeUpNewTask(child, parent);
      }
    };
    KernelPath child = KernelPath.userProgram("child").loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build();
    KernelPath parent = KernelPath.userProgram("parent")
        .syscall(KernelPath.path("kernel/fork.c", "sys_fork").fork("kid", child).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    Kernel kernel = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(recording)
        .task(TaskSpec.user("P", parent).rr(7).allowedOn(1))
        .build();
    kernel.run(MS);
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0)).startsWith("fork P -> kid");
    assertThat(calls.get(1)).isEqualTo("wake kid from P");
    Task kid = kernel.task("kid").orElseThrow();
    assertThat(kid.parent()).isSameAs(kernel.task("P").orElseThrow());
    assertThat(kid.policy()).isEqualTo(SchedPolicy.RR);
    assertThat(kid.rtPriority()).isEqualTo(7);
    assertThat(kid.cpusAllowed()).isEqualTo(1L);
    assertThat(kid.cpu()).isZero();
    assertThat(kid.mm()).isNotNull().isNotSameAs(kernel.task("P").orElseThrow().mm());
  }

  private static final class TickCounter extends ForwardingScheduler {
    final int[] ticks;
    final int[] userTicks;

    TickCounter(int cpus) {
      super(new SimpleRoundRobinScheduler());
      ticks = new int[cpus];
      userTicks = new int[cpus];
    }

    @Override
    public void tick(int cpu, boolean userTick) {
      ticks[cpu]++;
      if (userTick) {
        userTicks[cpu]++;
      }
      super.tick(cpu, userTick);
    }
  }

  /**
   * arch/i386/kernel/apic.c smp_apic_timer_interrupt (2.4.17): on SMP every CPU's local APIC
   * timer calls update_process_times() for that CPU, and the PIT's timer_interrupt only
   * advances jiffies. In 95 ms at HZ 100 each CPU has 9 ticks (10, 20, ... 90 ms).
   */
  @Test
  void onSmpEveryCpuGetsItsOwnSchedulerTickAndJiffiesCountOnce() {
    TickCounter s = new TickCounter(2);
    Kernel kernel = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(2), 1)
        .scheduler(s)
        .task(TaskSpec.user("U0", RtcProbeRig.userHog()).onCpu(0).allowedOn(1))
        .task(TaskSpec.user("U1", RtcProbeRig.userHog()).onCpu(1).allowedOn(2))
        .build();
    long jiffiesAtBoot = kernel.jiffies();
    kernel.run(95 * MS);
    assertThat(s.ticks).containsExactly(9, 9);
    assertThat(s.userTicks).as("both hogs were in user mode").containsExactly(9, 9);
    assertThat(kernel.jiffies() - jiffiesAtBoot).isEqualTo(9);
  }

  /** kernel/timer.c do_timer (2.4.17, UP): the PIT tick is the scheduler tick too. */
  @Test
  void onAUniprocessorThePitTickIsTheSchedulerTickAndSaysWhetherUserModeWasInterrupted() {
    TickCounter user = new TickCounter(1);
    Kernel k1 = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(user)
        .task(TaskSpec.user("U", RtcProbeRig.userHog()))
        .build();
    long jiffiesAtBoot = k1.jiffies();
    k1.run(95 * MS);
    assertThat(user.ticks).containsExactly(9);
    assertThat(user.userTicks).containsExactly(9);
    assertThat(k1.jiffies() - jiffiesAtBoot).isEqualTo(9);

    TickCounter kernelMode = new TickCounter(1);
    Kernel k2 = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(kernelMode)
        .task(TaskSpec.user("K", RtcProbeRig.busyTask(k().compute(200 * MS).build())))
        .build();
    k2.run(95 * MS);
    assertThat(kernelMode.ticks).containsExactly(9);
    assertThat(kernelMode.userTicks).as("a tick in a system call is a system tick").containsExactly(0);
  }
}
