package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.it.GoldenScenarios.Config;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.MixedLoadRig;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole composition at once: the 2.4.17 path catalog with its daemons and drivers, a
 * realfeel-style probe on the RTC at 2048 Hz, and a mixed load (file I/O, pipes, loopback TCP,
 * fork and exit, /proc, console, truncate, nanosleep), on each scheduler, in each of the four
 * configurations, on UP and on a 2-CPU SMP machine. The kernel's debug checks are all on: a
 * half-second run must raise no kernel bug, keep the scheduler's invariants, deliver every RTC
 * period to the probe, and repeat itself exactly from the same seed.
 *
 * <p>These pin that the parts compose; what the latencies are is the lab's question, not a
 * test's.
 */
class ComposedKernelTests {

  private static final long MS = 1_000_000;

  static Stream<Arguments> everyComposition() {
    List<Arguments> out = new ArrayList<>();
    SchedulerProvider.all().forEach(p -> {
      for (Config c : Config.values()) {
        out.add(Arguments.of(p.name(), c, 1));
        out.add(Arguments.of(p.name(), c, 2));
      }
    });
    return out.stream();
  }

  /** What a run leaves behind, compared for determinism. */
  record Outcome(List<Long> periods, long switches, long rtcInterrupts) {}

  static Outcome run(String scheduler, Config config, int cpus, long seed, long endNs) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), seed)
            .scheduler(SchedulerProvider.create(scheduler));
    p.install(b);
    p.installDaemons(b);
    if (config.preempt) {
      b.patch("preempt");
    }
    if (config.lowlat) {
      b.patch("lowlat");
    }
    MixedLoadRig rig = new MixedLoadRig(p);
    b.task(TaskSpec.user("realfeel", rig.realfeel).fifo(99))
        .task(TaskSpec.user("load", rig.load))
        .task(TaskSpec.user("load2", rig.load).onCpu(cpus - 1))
        .task(TaskSpec.user("reader", rig.reader));
    Kernel k = b.build();
    MixedLoadRig.startRtc(k);
    k.run(endNs);
    k.scheduler().checkInvariants();
    long switches = 0;
    for (var t : k.allTasks()) {
      switches += t.voluntarySwitches() + t.involuntarySwitches();
    }
    return new Outcome(rig.periods, switches, p.rtc().interrupts());
  }

  @ParameterizedTest(name = "{0} {1} on {2} cpus")
  @MethodSource("everyComposition")
  void theWholeKernelRunsWithoutBugsAndTheProbeSeesEveryPeriod(String scheduler, Config config, int cpus) {
    Outcome o = run(scheduler, config, cpus, 20020320, 500 * MS);
    // 2048 Hz for half a second; the probe can miss a period only by merging two interrupts.
    assertThat(o.rtcInterrupts()).isGreaterThan(1_000);
    assertThat(o.periods()).hasSizeGreaterThan(900);
    assertThat(o.switches()).isPositive();
  }

  @ParameterizedTest(name = "{0} {1} on {2} cpus")
  @MethodSource("everyComposition")
  void theSameSeedGivesTheSameRun(String scheduler, Config config, int cpus) {
    assertThat(run(scheduler, config, cpus, 7, 100 * MS))
        .isEqualTo(run(scheduler, config, cpus, 7, 100 * MS));
  }
}
