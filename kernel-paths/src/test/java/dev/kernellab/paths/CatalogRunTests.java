package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.fs.Pipe;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.net.Net;
import java.util.ArrayList;
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
    List<Long> latencies = new ArrayList<>();
    long[] last = {0};
    KernelPath probe = KernelPath.userProgram("realfeel")
        .loop("main", Long.MAX_VALUE, l -> l
            .syscall(p.rtc().read)
            .probe((c, t, now) -> {
              if (last[0] != 0) {
                latencies.add(now - last[0]);
              }
              last[0] = now;
            }))
        .build();
    Pipe pipe = p.syscalls().newPipe("ping");
    Net.Connection conn = p.net().newConnection("ttcp");
    KernelPath child = KernelPath.userProgram("child").compute(200_000).syscall(p.exit().sysExit).build();
    KernelPath load = KernelPath.userProgram("load")
        .loop("main", Long.MAX_VALUE, l -> l
            .syscall(p.filemap().sysRead)
            .syscall(p.filemap().sysWrite)
            .syscall(p.syscalls().open)
            .syscall(p.syscalls().close)
            .syscall(p.memory().sysMunmap)
            .syscall(pipe.write)
            .syscall(conn.send)
            .syscall(p.proc().statm)
            .syscall(p.console().ttyWrite)
            .syscall(p.fork().sysFork("child", child))
            .syscall(p.filemap().truncateInodePages)
            .syscall(Timer.sysNanosleep(MS))
            .compute(500_000))
        .build();
    KernelPath reader = KernelPath.userProgram("reader")
        .loop("main", Long.MAX_VALUE, l -> l.syscall(pipe.read).syscall(conn.recv))
        .build();
    b.task(TaskSpec.user("realfeel", probe).fifo(99))
        .task(TaskSpec.user("load", load))
        .task(TaskSpec.user("reader", reader));
    Kernel k = b.build();
    k.machine().rtc().setPeriodicRate(2048);
    k.machine().rtc().setPeriodicInterrupt(true);
    k.run(endNs);
    return new Run(latencies, p.rtc().interrupts(), pipe.messages());
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
