package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

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

  /** include/asm-i386/softirq.h local_bh_enable() ends in preempt_check_resched(): 2 ms. */
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
}
