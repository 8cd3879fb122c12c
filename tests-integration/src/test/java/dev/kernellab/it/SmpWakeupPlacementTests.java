package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.preempt.PreemptKernelPatch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The SMP wake-up placement scenario of docs/golden-scenarios.md: two CPUs, the RTC routed to
 * CPU 0, P (SCHED_FIFO 99, allowed everywhere) last ran on CPU 1, CPU 1 runs B (pinned there)
 * in a 5 ms kernel path, CPU 0 is idle; the RTC interrupt comes at 1 ms. Zero costs.
 *
 * <ul>
 *   <li><b>O(1), vanilla: 4 ms.</b> {@code try_to_wake_up} never chooses a CPU: P goes back to
 *       the runqueue of the CPU it last ran on (2.5.5 kernel/sched.c), and {@code
 *       resched_task} flags CPU 1's current and sends it a reschedule IPI. The IPI's return path
 *       goes back into B's kernel code, where vanilla does not preempt; P runs when B returns
 *       to user mode at 5 ms, although CPU 0 idled all along (no idle rebalance tick falls in
 *       the window: IDLE_REBALANCE_TICK is one 10 ms tick at HZ=100).
 *   <li><b>O(1) + preempt: 0.</b> The same IPI now preempts B on its return into kernel code
 *       with preempt_count 0 (the IPI costs nothing on this machine).
 *   <li><b>2.4 goodness, either: 0.</b> {@code reschedule_idle} first tries P's last CPU (busy),
 *       then looks for an idle CPU it may run on: CPU 0, the very CPU taking the interrupt, whose
 *       idle task gets need_resched without an IPI; the idle loop schedules P on CPU 0 as the
 *       interrupt returns (2.4.17 kernel/sched.c).
 * </ul>
 */
class SmpWakeupPlacementTests {

  private static final long MS = 1_000_000;

  @ParameterizedTest(name = "{0} preempt={1}: {2} ns on cpu{3}")
  @CsvSource({
    "o1, false, 4000000, 1",
    "o1, true, 0, 1",
    "goodness, false, 0, 0",
    "goodness, true, 0, 0"
  })
  void latencyFollowsEachSchedulersPlacementRule(String scheduler, boolean preempt, long expectedNs, int expectedCpu) {
    Assumptions.assumeTrue(
        SchedulerProvider.all().stream().anyMatch(p -> p.name().equals(scheduler)),
        scheduler + " is not on the class path");
    RtcProbeRig rig = new RtcProbeRig();
    int[] ranOn = {-1};
    KernelPath probe =
        KernelPath.userProgram("probe")
            .loop("main", Long.MAX_VALUE, body -> body
                .syscall(rig.rtcRead)
                .probe((c, t, now) -> {
                  rig.latencies.add(now - c.machine().ioApic().lastAssertNs(Rtc.IRQ));
                  ranOn[0] = c.id();
                }))
            .build();
    KernelPath k = KernelPath.path("scenario/smp.c", "K").compute(5 * MS).build();
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(2).withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create(scheduler))
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("P", probe).fifo(99).onCpu(1))
            .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)).onCpu(1).allowedOn(0b10));
    if (preempt) {
      b.patch(new PreemptKernelPatch());
    }
    Kernel kernel = b.build();
    RtcProbeRig.assertRtcAt(kernel, MS);
    kernel.run(9 * MS);
    assertThat(rig.latencies).first().isEqualTo(expectedNs);
    assertThat(ranOn[0]).isEqualTo(expectedCpu);
  }
}
