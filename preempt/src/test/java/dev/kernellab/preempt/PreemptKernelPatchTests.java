package dev.kernellab.preempt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskState;
import org.junit.jupiter.api.Test;

/**
 * One test per rule of the patch, on the scenario machine (zero costs, one CPU, probe P at
 * SCHED_FIFO 99 woken by the RTC at t_irq while B runs kernel path K), each with and without
 * the patch. The same rules on both real schedulers and on SMP are checked in
 * tests-integration.
 */
class PreemptKernelPatchTests {

  private static final long MS = 1_000_000;
  private static final Site SHORT = new Site("test/k.c", "K", "short");

  private static long latency(KernelPath k, long tIrq, boolean patched) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    if (patched) {
      b.patch(new PreemptKernelPatch());
    }
    return rig.firstLatency(b, tIrq, 20 * MS);
  }

  private static KernelPath.Builder k() {
    return KernelPath.path("test/k.c", "K");
  }

  @Test
  void isRegisteredAsPreempt() {
    assertThat(KernelPatchProvider.create("preempt")).isInstanceOf(PreemptKernelPatch.class);
  }

  @Test
  void preemptsOnIrqReturnWhenCountIsZero() {
    KernelPath k = k().compute(5 * MS).build();
    assertThat(latency(k, MS, true)).isZero();
    assertThat(latency(k, MS, false)).as("vanilla waits for the return to user").isEqualTo(4 * MS);
  }

  @Test
  void doesNotPreemptWithASpinlockHeldButAtTheExactInstantOfItsUnlock() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k = k().spinLock(l).compute(5 * MS).spinUnlock(l).compute(3 * MS).build();
    assertThat(latency(k, MS, true)).isEqualTo(4 * MS);
    assertThat(latency(k, MS, false)).isEqualTo(7 * MS);
  }

  @Test
  void doesNotPreemptWithInterruptsOff() {
    KernelPath k = k().localIrqDisable().compute(2 * MS).localIrqEnable().compute(MS).build();
    assertThat(latency(k, MS / 2, true)).isEqualTo(3 * MS / 2);
    assertThat(latency(k, MS / 2, false)).isEqualTo(5 * MS / 2);
  }

  /**
   * A count that reaches zero inside a {@code cli} region preempts there: {@code spin_unlock()}
   * ends in {@code preempt_enable()}, which tests no interrupt flag (preempt-kernel-rml-2.4.17-1
   * and the O(1) 2.4.18-2 patch, include/linux/spinlock.h). B wakes P with interrupts off and a
   * lock held; P runs the instant the lock is dropped, 1 ms later, not at B's sti or its
   * return to user; and B resumes with interrupts on, because schedule() ended in
   * spin_unlock_irq.
   */
  @Test
  void aCountReachingZeroWithInterruptsOffPreemptsThere() {
    assertThat(wakeUnderCli(true)).isEqualTo(MS);
    assertThat(wakeUnderCli(false)).as("vanilla waits for the return to user").isEqualTo(4 * MS);
  }

  /**
   * Return from an exception into kernel code is a preemption point of both patches
   * (entry.S: {@code error_code} ... {@code cli; jmp ret_from_exception}, the saved IF not
   * looked at), and {@code iret} gives the faulting code back its own flags. B wakes P with
   * preemption disabled, re-enables it without a check, and takes a page fault 1 ms later
   * inside a cli region: P runs at the fault's return, and B resumes with interrupts off.
   */
  @Test
  void returnFromAPageFaultIntoKernelCodePreempts() {
    assertThat(faultUnderCli(true)).isEqualTo(MS + 50_000);
    assertThat(faultUnderCli(false)).as("vanilla waits for the return to user").isEqualTo(3 * MS + 50_000);
  }

  private static long faultUnderCli(boolean patched) {
    RtcProbeRig rig = new RtcProbeRig();
    boolean[] ifAfterFault = {true};
    KernelPath fault = KernelPath.path("arch/i386/mm/fault.c", "do_page_fault").compute(50_000).build();
    KernelPath k =
        k().localIrqDisable()
            .preemptDisable()
            .call(rig.rtcInterrupt)
            .preemptEnableNoResched()
            .compute(MS)
            .pageFault(fault)
            .effect("IF", c -> ifAfterFault[0] = c.interruptsEnabled())
            .compute(MS)
            .localIrqEnable()
            .compute(MS)
            .build();
    long pRan = runUntilP(rig, k, patched);
    assertThat(ifAfterFault[0]).as("iret restores the faulting code's flags").isFalse();
    return pRan;
  }

  /** When P runs after B woke it under cli with a lock held; checks B's flag on the way. */
  private static long wakeUnderCli(boolean patched) {
    RtcProbeRig rig = new RtcProbeRig();
    SpinLock l = SpinLock.spin("L");
    boolean[] ifAfterUnlock = {false};
    KernelPath k =
        k().localIrqDisable()
            .spinLock(l)
            .call(rig.rtcInterrupt) // rtc_irq_data++ and wake_up(&rtc_wait), from process context
            .compute(MS)
            .spinUnlock(l)
            .effect("IF", c -> ifAfterUnlock[0] = c.interruptsEnabled())
            .compute(2 * MS)
            .localIrqEnable()
            .compute(MS)
            .build();
    long pRan = runUntilP(rig, k, patched);
    assertThat(ifAfterUnlock[0]).as("interrupts after the unlock").isEqualTo(patched);
    return pRan;
  }

  /**
   * Zero costs, one CPU: P (SCHED_FIFO 99) asleep on the RTC and B in kernel path {@code k},
   * which wakes P itself; returns when P first ran.
   */
  private static long runUntilP(RtcProbeRig rig, KernelPath k, boolean patched) {
    long[] pRan = {-1};
    KernelPath p =
        KernelPath.userProgram("P")
            .syscall(rig.rtcRead)
            .probe((c, t, now) -> pRan[0] = now)
            .loop("sleep", Long.MAX_VALUE, x -> x.syscall(rig.rtcRead))
            .build();
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .task(TaskSpec.user("P", p).fifo(99))
            .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)));
    if (patched) {
      b.patch(new PreemptKernelPatch());
    }
    b.build().run(10 * MS);
    return pRan[0];
  }

  @Test
  void doesNotPreemptWithBottomHalvesOffButAtLocalBhEnable() {
    KernelPath k = k().localBhDisable().compute(2 * MS).localBhEnable().compute(2 * MS).build();
    assertThat(latency(k, MS / 2, true)).isEqualTo(3 * MS / 2);
    assertThat(latency(k, MS / 2, false)).isEqualTo(7 * MS / 2);
  }

  @Test
  void preemptEnableIsAPreemptionPointOnlyWhenTheCountReachesZero() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        k().spinLock(l).compute(2 * MS).preemptDisable().spinUnlock(l).compute(MS)
            .preemptEnable().compute(2 * MS).build();
    assertThat(latency(k, MS, true)).isEqualTo(2 * MS);
    assertThat(latency(k, MS, false)).isEqualTo(4 * MS);
  }

  /** A wake-up from process context ends in spin_unlock_irqrestore: a preemption point. */
  @Test
  void aWakeUpInProcessContextPreemptsAtOnce() {
    for (boolean patched : new boolean[] {false, true}) {
      dev.kernellab.kernel.WaitQueue wq = new dev.kernellab.kernel.WaitQueue("pipe_wait");
      boolean[] ready = {false};
      java.util.List<Long> ran = new java.util.ArrayList<>();
      KernelPath waiter =
          KernelPath.userProgram("P")
              .syscall(KernelPath.path("fs/pipe.c", "pipe_read").waitEvent(wq, () -> ready[0]).build())
              .probe((c, t, now) -> ran.add(now))
              .build();
      KernelPath writer =
          KernelPath.userProgram("B")
              .syscall(KernelPath.path("fs/pipe.c", "pipe_write")
                  .compute(MS)
                  .effect("data in the pipe", c -> ready[0] = true)
                  .wakeUp(wq)
                  .compute(5 * MS)
                  .build())
              .build();
      KernelBuilder b =
          new KernelBuilder(dev.kernellab.hw.MachineSpec.uniprocessor()
                  .withCosts(dev.kernellab.hw.CostTable.zero()), 1)
              .scheduler(new SimpleRoundRobinScheduler())
              .task(dev.kernellab.kernel.TaskSpec.user("P", waiter).fifo(50))
              .task(dev.kernellab.kernel.TaskSpec.user("B", writer));
      if (patched) {
        b.patch(new PreemptKernelPatch());
      }
      b.build().run(10 * MS);
      assertThat(ran).as("patched=%s", patched).containsExactly(patched ? MS : 6 * MS);
    }
  }

  @Test
  void preemptActiveKeepsAHalfAsleepTaskOnTheRunqueue() {
    KernelPath k =
        k().setState(TaskState.INTERRUPTIBLE).compute(MS).schedule().compute(MS).build();
    RtcProbeRig rig = new RtcProbeRig();
    Kernel kernel =
        rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k))
            .patch(new PreemptKernelPatch())
            .build();
    RtcProbeRig.assertRtcAt(kernel, MS / 2);
    kernel.run(MS / 2 + 1);
    var b = kernel.task("B").orElseThrow();
    assertThat(rig.latencies).containsExactly(0L);
    assertThat(b.state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(kernel.scheduler().queuedTasks()).as("preempted, not dequeued").contains(b);
    kernel.run(3 * MS);
    assertThat(kernel.scheduler().queuedTasks()).as("then it slept for real").doesNotContain(b);
    assertThat(b.state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(b.involuntarySwitches()).isEqualTo(1);
  }

  @Test
  void preemptStatsKeepsTheLongestPreemptOffIntervalsWithTheirPaths() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        k().loop(SHORT, 30, b -> b.spinLock(l).compute(100_000).spinUnlock(l))
            .spinLock(l).compute(3 * MS).spinUnlock(l)
            .build();
    RtcProbeRig rig = new RtcProbeRig();
    PreemptStats stats = new PreemptStats();
    Kernel kernel =
        rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k))
            .patch(new PreemptKernelPatch())
            .tracer(stats)
            .build();
    kernel.run(20 * MS);
    assertThat(stats.worst()).hasSize(PreemptStats.KEPT);
    assertThat(stats.worst().get(0).lengthNs()).isEqualTo(3 * MS);
    assertThat(stats.worst().get(0).disabledBy().function()).isEqualTo("K");
    assertThat(stats.worst().get(1).lengthNs()).isEqualTo(100_000);
    assertThat(stats.worst().get(1).disabledBy().site().label()).isEqualTo("short");
  }
}
