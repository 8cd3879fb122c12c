package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalog's paths run in a real kernel (the test scheduler, vanilla, the default machine):
 * no kernel bug is raised, drivers and daemons work, and a run is a function of its seed.
 */
class CatalogRunTests {

  private static final long MS = 1_000_000;

  private record Run(List<Long> latencies, long rtcInterrupts, long pipeMessages) {}

  private static Run run(long seed, long endNs) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), seed)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    p.installDaemons(b);
    MixedLoadRig rig = new MixedLoadRig(p);
    b.task(TaskSpec.user("realfeel", rig.realfeel).fifo(99))
        .task(TaskSpec.user("load", rig.load))
        .task(TaskSpec.user("reader", rig.reader));
    Kernel k = b.build();
    MixedLoadRig.startRtc(k);
    k.run(endNs);
    return new Run(rig.periods, p.rtc().interrupts(), rig.pipe.messages());
  }

  @Test
  void aMixedLoadRunsWithoutKernelBugsAndTheProbeSeesEveryPeriod() {
    Run r = run(7, 300 * MS);
    assertThat(r.rtcInterrupts()).isGreaterThan(500);
    assertThat(r.latencies()).hasSizeGreaterThan(500);
    assertThat(r.latencies().stream().mapToLong(Long::longValue).min().orElseThrow()).isPositive();
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    assertThat(run(11, 100 * MS)).isEqualTo(run(11, 100 * MS));
  }

  @Test
  void umountAndSyncRunInAKernelThread() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 3)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    KernelPath admin = KernelPath.userProgram("admin")
        .syscall(p.buffer().sysSync)
        .syscall(p.superBlock().umount)
        .syscall(p.proc().meminfo)
        .syscall(p.buffer().sysFsync)
        .loop("idle", Long.MAX_VALUE, l -> l.compute(MS))
        .build();
    b.task(TaskSpec.user("admin", admin));
    Kernel k = b.build();
    k.run(2_000 * MS);
    assertThat(p.locks().dcacheLock.acquisitions()).isPositive();
    assertThat(p.locks().lruListLock.maxHoldNs()).isPositive();
    assertThat(p.locks().swapLock.acquisitions()).isEqualTo(1);
  }
}
