package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Site;
import org.junit.jupiter.api.Test;

/**
 * The oops of a BUG() laid out as arch/i386/kernel/traps.c die() (2.4.17) lays one out, CPU
 * and process first, then what the model can add: preempt_count and IF, the locks held, every
 * context innermost first with each frame's operation, the other CPUs, the event ring.
 *
 * <p>The scenario: B, in a system call, walks a loop under L on cpu0 (each iteration 1 ms of
 * compute, then a zero-time effect); the RTC fires at 2.5 ms and its SA_INTERRUPT handler
 * calls schedule(), a BUG ("Scheduling in interrupt"). At that instant B is half way through
 * the third iteration's compute (iteration 2, 500 us left), do_IRQ is in handle_IRQ_event
 * (step 1: the handler pushed), and C runs in user mode on cpu1.
 */
class OopsReportTests {

  private static final long MS = 1_000_000;
  private static final Site WALK = new Site("fs/test.c", "walk", "walk");

  private static KernelBug bug(int cpus, DebugChecks debug) {
    SpinLock l = SpinLock.spin("L");
    KernelPath walk = KernelPath.path("fs/test.c", "walk")
        .spinLock(l)
        .loop(WALK, 5, b -> b.compute(MS).effect("touch", c -> {}))
        .spinUnlock(l)
        .build();
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").schedule().build();
    KernelBuilder b = new KernelBuilder(
        MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .ksoftirqd(false)
        .debugChecks(debug)
        .requestIrq(Rtc.IRQ, "rtc", handler, true)
        .task(TaskSpec.user("B", RtcProbeRig.busyTask(walk)).allowedOn(1));
    if (cpus > 1) {
      b.task(TaskSpec.user("C", RtcProbeRig.userHog()).onCpu(1).allowedOn(2));
    }
    Kernel k = b.build();
    k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), 5 * MS / 2);
    return catchThrowableOfType(KernelBug.class, () -> k.run(5 * MS));
  }

  @Test
  void theOopsShowsTheCpuTheProcessTheLocksAndEveryFrameInnermostFirst() {
    KernelBug bug = bug(2, DebugChecks.all());
    String vector = Integer.toHexString(
        new dev.kernellab.hw.Machine(MachineSpec.uniprocessor(), new dev.kernellab.hw.sim.Simulation(1))
            .ioApic().vectorOf(Rtc.IRQ));
    assertThat(bug.check()).isEqualTo("Scheduling in interrupt");
    assertThat(bug.oops().lines().toList()).containsSubsequence(
        "CPU: 0  t=2500000 ns  jiffies=1",
        "Process B (pid: 1, state RUNNING, need_resched 0)",
        "preempt_count=0x00010001 (preempt 1, softirq 0, hardirq 1)  interrupts: off  segment: NONE",
        "locks held on cpu0: L",
        "contexts, innermost first:",
        "  hardirq vector 0x" + vector,
        "    #1 drivers/char/rtc.c:rtc_interrupt  at its end",
        "    #0 arch/i386/kernel/irq.c:do_IRQ  op 3/8: handle_IRQ_event() (step 1)",
        "  task B[1]",
        "    #3 fs/test.c:walk [site fs/test.c:walk, iteration 2]  op 0/2: compute(1000000 ns),"
            + " 500000 ns of compute left",
        "    #2 fs/test.c:walk  op 2/3: spin_unlock(&L)",
        "    #1 arch/i386/kernel/entry.S:ret_from_sys_call  op 0/1: ret_from_sys_call",
        "    #0 user:B:B (user)  op 1/2: loop user:B:B#spin x Fixed[value=9223372036854775807]",
        "other CPUs: cpu1=C[2]",
        "last events, oldest first:");
  }

  @Test
  void withoutTheEventRingTheOopsSaysSoAndAUniprocessorHasNoOtherCpus() {
    KernelBug bug = bug(1, DebugChecks.none());
    assertThat(bug.oops().lines().toList()).containsSubsequence(
        "locks held on cpu0: L",
        "other CPUs: none",
        "(no event ring: debug checks recentEvents is off)");
    assertThat(bug.oops()).doesNotContain("last events");
  }
}
