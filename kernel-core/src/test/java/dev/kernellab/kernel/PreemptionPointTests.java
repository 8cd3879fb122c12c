package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the preempt-kernel patch (preempt-kernel-rml-2.4.17-1) preempts, with the kernel-core
 * stand-in for its decisions ({@link CountZeroPreemption}: preempt when preempt_count is zero
 * and need_resched is set), against vanilla 2.4.17, on the golden-scenario machine
 * (docs/golden-scenarios.md): P (SCHED_FIFO 99) asleep on the RTC, B entering kernel path K
 * at t = 0, the RTC at 0.5 ms. K holds a region 0..2 ms, then computes 1 ms and returns to
 * user mode at 3 ms, vanilla's first reschedule point: a vanilla latency of 2.5 ms.
 */
class PreemptionPointTests {

  private static final long MS = 1_000_000;
  private static final long T_IRQ = MS / 2;

  private static long latency(KernelPath k, boolean preempt) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    if (preempt) {
      b.patch(CountZeroPreemption.patch());
    }
    return rig.firstLatency(b, T_IRQ, 10 * MS);
  }

  private static KernelPath.Builder k() {
    return KernelPath.path("test/k.c", "K");
  }

  /** The patch's include/asm-i386/softirq.h local_bh_enable() ends in preempt_enable(): 2 ms. */
  @Test
  void localBhEnableIsAPreemptionPoint() {
    KernelPath k = k().localBhDisable().compute(2 * MS).localBhEnable().compute(MS).build();
    assertThat(latency(k, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, true)).isEqualTo(3 * MS / 2);
  }

  /** spin_unlock_bh(): the unlock's preempt_enable, then local_bh_enable's check: 2 ms. */
  @Test
  void spinUnlockBhIsAPreemptionPoint() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k = k().spinLockBh(l).compute(2 * MS).spinUnlockBh(l).compute(MS).build();
    assertThat(latency(k, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, true)).isEqualTo(3 * MS / 2);
  }

  /**
   * spin_lock_irq holds the interrupt off until spin_unlock_irq at 2 ms; it is taken there and
   * its return into B's kernel code, preempt_count 0, preempts: 2 ms under the patch.
   */
  @Test
  void anInterruptHeldOffBySpinLockIrqPreemptsOnItsReturnAtTheUnlock() {
    SpinLock l = SpinLock.spin("L");
    KernelPath k = k().spinLockIrq(l).compute(2 * MS).spinUnlockIrq(l).compute(MS).build();
    assertThat(latency(k, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, true)).isEqualTo(3 * MS / 2);
  }

  /** preempt_enable_no_resched() drops the count without the check: the next point is at 3 ms. */
  @Test
  void preemptEnableNoReschedIsNotAPreemptionPoint() {
    KernelPath k = k().preemptDisable().compute(2 * MS).preemptEnableNoResched().compute(MS).build();
    assertThat(latency(k, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, true)).isEqualTo(5 * MS / 2);
    KernelPath withCheck = k().preemptDisable().compute(2 * MS).preemptEnable().compute(MS).build();
    assertThat(latency(withCheck, true)).isEqualTo(3 * MS / 2);
  }

  /**
   * A page fault in kernel code (copy_from_user) whose handler runs 0..2 ms with preemption
   * off: the patched ret_from_exception into kernel code is a preemption point, at 2 ms.
   */
  @Test
  void retFromExceptionIntoKernelCodeIsAPreemptionPointUnderThePatch() {
    KernelPath fault = KernelPath.path("arch/i386/mm/fault.c", "do_page_fault")
        .preemptDisable().compute(2 * MS).preemptEnableNoResched().build();
    KernelPath k = k().pageFault(fault).compute(MS).build();
    assertThat(latency(k, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, true)).isEqualTo(3 * MS / 2);
  }

  /**
   * Kernel code with preempt_count 0 is preempted where the interrupt returns (the patched
   * ret_from_intr), at 0.5 ms; vanilla's ret_from_intr into kernel code goes straight to
   * restore_all.
   */
  @Test
  void aKernelComputeIsPreemptedAtTheInterruptReturnOnlyUnderThePatch() {
    KernelPath k = k().compute(3 * MS).build();
    assertThat(latency(k, false)).isEqualTo(5 * MS / 2);
    assertThat(latency(k, true)).isZero();
  }
  /**
   * preempt_schedule() of 2.4.17-1 adds {@code PREEMPT_ACTIVE + 1} around schedule(): B,
   * preempted in K on the interrupt's return at 0.5 ms, leaves the CPU with PREEMPT_ACTIVE, its
   * own count and schedule()'s, and is back at zero when it returns to user mode.
   */
  @Test
  void preemptScheduleHoldsPreemptActivePlusOneAcrossTheSwitch() {
    List<Integer> leaving = new ArrayList<>();
    Tracer t = new Tracer() {
      @Override
      public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
        if (prev.comm().equals("B")) {
          leaving.add(prev.preemptCount());
        }
      }
    };
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k().compute(2 * MS).build()))
        .patch(CountZeroPreemption.patch())
        .tracer(t);
    assertThat(rig.firstLatency(b, T_IRQ, 10 * MS)).isZero();
    assertThat(leaving).containsExactly(PreemptCount.PREEMPT_ACTIVE + 2);
  }

  /**
   * do_softirq()'s closing __local_bh_enable() ends in preempt_enable() with the patch: where
   * ksoftirqd runs softirqs, the end of each do_softirq() is a preemption point. A softirq
   * re-raises itself once, so its second run (0.1 ms) is left to ksoftirqd, which runs it from
   * 3.1 ms on; P (SCHED_FIFO) is woken during it. Both kernels switch at its end, 3.2 ms; with the patch
   * ksoftirqd is preempted there (PREEMPT_ACTIVE), without it ksoftirqd's own need_resched test
   * calls schedule().
   */
  @Test
  void theEndOfDoSoftirqInKsoftirqdIsAPreemptionPoint() {
    assertThat(ksoftirqdLeaving(true)).containsExactly("3200000 P " + (PreemptCount.PREEMPT_ACTIVE + 2));
    assertThat(ksoftirqdLeaving(false)).containsExactly("3200000 P 1");
  }

  private static List<String> ksoftirqdLeaving(boolean preempt) {
    List<String> leaving = new ArrayList<>();
    int[] runs = {0};
    WaitQueue wq = new WaitQueue("p_wait");
    KernelPath netRx = KernelPath.path("net/core/dev.c", "net_rx_action")
        .compute(100_000)
        .effect("raise again once", c -> {
          if (++runs[0] < 2) {
            c.raiseSoftirq(Softirq.NET_RX);
          }
        })
        .build();
    Tracer t = new Tracer() {
      @Override
      public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
        if (prev.comm().startsWith("ksoftirqd") && next.comm().equals("P")) {
          leaving.add(now + " " + next.comm() + " " + prev.preemptCount());
        }
      }
    };
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(t)
        .requestIrq(Rtc.IRQ, "dev", KernelPath.path("drivers/test/dev.c", "dev_interrupt")
            .effect("ack", c -> c.machine().rtc().readRegisterC()).raiseSoftirq(Softirq.NET_RX).build(), true)
        .openSoftirq(Softirq.NET_RX, netRx)
        .task(TaskSpec.user("P", KernelPath.userProgram("P")
            .syscall(KernelPath.path("test/p.c", "wait").sleepOn(wq).build())
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()).fifo(50))
        .task(TaskSpec.user("B", KernelPath.userProgram("B")
            .syscall(KernelPath.path("test/b.c", "work").compute(3 * MS).sleepFor(100 * MS).build())
            .build()));
    if (preempt) {
      b.patch(CountZeroPreemption.patch());
    }
    Kernel k = b.build();
    // The first run at 1 ms, in B's time on the interrupt's exit; B sleeps at 3.1 ms (3 ms of
    // its own, 0.1 ms stolen) and ksoftirqd runs the second from 3.1 ms; P is woken at 3.15 ms.
    RtcProbeRig.assertRtcAt(k, MS);
    k.machine().simulation().schedule(
        new Event("wake P", now -> k.cpu(0).wakeUpProcess(k.task("P").orElseThrow())), 3_150_000);
    k.run(10 * MS);
    k.checkInvariants();
    return leaving;
  }
}
