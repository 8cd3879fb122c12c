package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.preempt.PreemptKernelPatch;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The preempt patch with each real scheduler, on UP and on SMP. On SMP, P and B are
 * both pinned to CPU 1 while the RTC interrupt goes to CPU 0, so the preemption request travels
 * as a reschedule IPI and is acted on at that IPI's return into B's kernel code, or at B's
 * unlock.
 */
class PreemptCompositionTests {

  private static final long MS = 1_000_000;

  static Stream<Arguments> schedulersAndCpus() {
    List<Arguments> out = new ArrayList<>();
    SchedulerProvider.all().forEach(p -> {
      out.add(Arguments.of(p.name(), 1));
      out.add(Arguments.of(p.name(), 2));
    });
    return out.stream();
  }

  private static long latency(String scheduler, int cpus, KernelPath k, boolean patched) {
    RtcProbeRig rig = new RtcProbeRig();
    int cpu = cpus - 1;
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus).withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create(scheduler))
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("P", rig.probe).fifo(99).onCpu(cpu).allowedOn(1L << cpu))
            .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)).onCpu(cpu).allowedOn(1L << cpu));
    if (patched) {
      b.patch(new PreemptKernelPatch());
    }
    return rig.firstLatency(b, MS, 9 * MS);
  }

  @ParameterizedTest(name = "{0} on {1} cpus")
  @MethodSource("schedulersAndCpus")
  void preemptedOnInterruptReturnWithCountZero(String scheduler, int cpus) {
    KernelPath k = KernelPath.path("test/k.c", "K").compute(5 * MS).build();
    assertThat(latency(scheduler, cpus, k, true)).isZero();
    assertThat(latency(scheduler, cpus, k, false)).isEqualTo(4 * MS);
  }

  @ParameterizedTest(name = "{0} on {1} cpus")
  @MethodSource("schedulersAndCpus")
  void preemptedAtTheUnlockNotBefore(String scheduler, int cpus) {
    SpinLock l = SpinLock.spin("L");
    KernelPath k =
        KernelPath.path("test/k.c", "K").spinLock(l).compute(5 * MS).spinUnlock(l).compute(3 * MS).build();
    assertThat(latency(scheduler, cpus, k, true)).isEqualTo(4 * MS);
    assertThat(latency(scheduler, cpus, k, false)).isEqualTo(7 * MS);
  }

  @ParameterizedTest(name = "{0} on {1} cpus")
  @MethodSource("schedulersAndCpus")
  void aPreemptedHalfAsleepTaskStaysQueued(String scheduler, int cpus) {
    KernelPath k =
        KernelPath.path("test/k.c", "K")
            .setState(TaskState.INTERRUPTIBLE).compute(MS).schedule().build();
    RtcProbeRig rig = new RtcProbeRig();
    int cpu = cpus - 1;
    Kernel kernel =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus).withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create(scheduler))
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("P", rig.probe).fifo(99).onCpu(cpu).allowedOn(1L << cpu))
            .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)).onCpu(cpu).allowedOn(1L << cpu))
            .patch(new PreemptKernelPatch())
            .build();
    RtcProbeRig.assertRtcAt(kernel, MS / 2);
    kernel.run(MS / 2 + 1);
    var b = kernel.task("B").orElseThrow();
    assertThat(rig.latencies).containsExactly(0L);
    assertThat(kernel.scheduler().queuedTasks()).contains(b);
    kernel.scheduler().checkInvariants();
    kernel.run(5 * MS);
    assertThat(kernel.scheduler().queuedTasks()).doesNotContain(b);
    assertThat(b.state()).isEqualTo(TaskState.INTERRUPTIBLE);
    kernel.scheduler().checkInvariants();
  }
}
