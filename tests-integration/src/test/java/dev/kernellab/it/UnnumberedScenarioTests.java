package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.Cpu;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.it.GoldenScenarios.Config;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.preempt.PreemptKernelPatch;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scenarios of docs/golden-scenarios.md that pin behaviour without a single number: softirqs on
 * interrupt exit, and spinning on SMP (PREEMPT_ACTIVE and SMP wake-up placement have classes of
 * their own), on every registered scheduler.
 */
class UnnumberedScenarioTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  static Stream<Arguments> schedulersAndConfigs() {
    List<Arguments> out = new ArrayList<>();
    SchedulerProvider.all().forEach(p -> {
      for (Config c : Config.values()) {
        out.add(Arguments.of(p.name(), c));
      }
    });
    return out.stream();
  }

  static Stream<String> schedulers() {
    return SchedulerProvider.all().stream().map(p -> p.name());
  }

  /** The RTC handler raises a softirq of 300 us: P's latency includes it in every kernel. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("schedulersAndConfigs")
  void softirqsRaisedByTheHandlerRunBeforeTheReturnPath(String scheduler, Config config) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath handler =
        KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
            .call(rig.rtcInterrupt)
            .raiseSoftirq(Softirq.TASKLET)
            .build();
    KernelPath tasklet = KernelPath.path("kernel/softirq.c", "tasklet_action").compute(300 * US).build();
    KernelPath k = KernelPath.path("scenario/k.c", "K").compute(5 * MS).build();
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create(scheduler))
            .requestIrq(Rtc.IRQ, "rtc", handler, true)
            .openSoftirq(Softirq.TASKLET, tasklet)
            .task(TaskSpec.user("P", rig.probe).fifo(99))
            .task(TaskSpec.user("B", RtcProbeRig.busyTask(k)));
    if (config.preempt) {
      b.patch(new PreemptKernelPatch());
    }
    long expected = config.preempt ? 300 * US : 4 * MS + 300 * US;
    assertThat(rig.firstLatency(b, MS, 9 * MS)).isEqualTo(expected);
  }

  /**
   * B on CPU 1 holds L for 3 ms; a task on CPU 0 calls spin_lock(L) at 1 ms: CPU 0 spins with
   * preemption off until 3 ms, and an interrupt arriving meanwhile (interrupts on) is taken.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("schedulers")
  void aSpinningCpuIsBusyUntilTheReleaseAndStillTakesInterrupts(String scheduler) {
    SpinLock l = SpinLock.spin("L");
    int[] countWhileSpinning = {-1};
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath holder =
        KernelPath.userProgram("B")
            .syscall(KernelPath.path("scenario/smp.c", "hold").spinLock(l).compute(3 * MS).spinUnlock(l).build())
            .loop("spin", Long.MAX_VALUE, body -> body.compute(MS))
            .build();
    KernelPath taker =
        KernelPath.userProgram("A")
            .compute(MS)
            .syscall(KernelPath.path("scenario/smp.c", "take").spinLock(l).compute(10 * US).spinUnlock(l).build())
            .loop("spin", Long.MAX_VALUE, body -> body.compute(MS))
            .build();
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(2).withCosts(CostTable.zero()), 1)
            .scheduler(SchedulerProvider.create(scheduler))
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("A", taker).onCpu(0).allowedOn(0b01))
            .task(TaskSpec.user("B", holder).onCpu(1).allowedOn(0b10))
            .build();
    k.machine().simulation().schedule(new Event("rtc", now -> {
      countWhileSpinning[0] = k.cpu(0).preemptCount();
      k.machine().ioApic().assertLine(Rtc.IRQ);
    }), 2 * MS);
    k.run(2 * MS + 1);
    assertThat(k.machine().cpu(0).interruptsAccepted()).as("interrupt taken while spinning").isPositive();
    assertThat(countWhileSpinning[0]).as("preemption off while spinning").isEqualTo(1);
    k.run(3 * MS - 1);
    assertThat(k.machine().cpu(0).segment()).isEqualTo(Cpu.Segment.SPIN);
    k.run(4 * MS);
    assertThat(k.machine().cpu(0).spinNs()).isEqualTo(2 * MS);
    assertThat(l.contentions()).isEqualTo(1);
  }
}
