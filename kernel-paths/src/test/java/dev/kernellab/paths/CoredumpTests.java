package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.CountZeroPreemption;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.fs.Coredump;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.paths.kernel.Timer;
import org.junit.jupiter.api.Test;

/**
 * fs/exec.c do_coredump (2.4.17) as the catalog runs it: the dump's size is the dying task's
 * resident pages cut at its RLIMIT_CORE, the file is "core" (each dump truncates the last one's
 * through do_truncate and vmtruncate), and the BKL is dropped at the end.
 */
class CoredumpTests {

  private static final long MS = 1_000_000;

  @Test
  void aDumpIsTheHeadersPageAndTheResidentPagesCutAtTheCoreLimit() {
    assertThat(Coredump.dumpPages(320, 0)).isZero();
    assertThat(Coredump.dumpPages(320, Coredump.MIN_COREDUMP - 1)).isZero();
    assertThat(Coredump.dumpPages(320, Coredump.RLIM_INFINITY)).isEqualTo(321);
    // ulimit -c 64 (KiB): the headers' page and 15 of the process's pages
    assertThat(Coredump.dumpPages(320, 64 * 1024)).isEqualTo(16);
  }

  /** Two children die one after the other, each of a fatal signal, on a preemptible UP kernel. */
  private static Kernel24Paths twoDeaths(long coreLimit, long firstPages, long secondPages) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.all());
    p.install(b);
    b.patch(CountZeroPreemption.patch());
    KernelPath dies = p.coredump().fatalSignal(coreLimit);
    b.task(TaskSpec.user("first", KernelPath.userProgram("first").pageFault(dies).build()).residentPages(firstPages));
    b.task(TaskSpec.user("second", KernelPath.userProgram("second")
        .syscall(Timer.sysNanosleep(50 * MS))
        .pageFault(dies)
        .build()).residentPages(secondPages));
    Kernel k = b.build();
    k.run(200 * MS);
    k.checkInvariants();
    assertThat(k.allTasks()).noneMatch(t -> t.comm().equals("first") || t.comm().equals("second"));
    assertThat(p.locks().kernelFlag.isHeldExclusive()).isFalse();
    return p;
  }

  @Test
  void underUlimitUnlimitedTheCoreHoldsTheLastDumpersPagesAfterTheTruncateOfTheFirstsCore() {
    Kernel24Paths p = twoDeaths(Coredump.RLIM_INFINITY, 300, 100);
    VfsFile core = p.coredump().core();
    assertThat(core.name()).isEqualTo("core");
    assertThat(core.sizePages()).isEqualTo(101);
    assertThat(core.cachedPages()).isEqualTo(101);
  }

  @Test
  void underTheKernelsDefaultCoreLimitOfZeroNothingIsWritten() {
    Kernel24Paths p = twoDeaths(0, 300, 100);
    assertThat(p.coredump().core()).isNull();
  }

  @Test
  void aTruncateToZeroDropsTheCachedPagesAndShrinksTheFile() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.all());
    p.install(b);
    VfsFile f = p.pageCache().create("log", 0);
    FileIo io = new FileIo();
    b.task(TaskSpec.user("sh", KernelPath.userProgram("sh")
        .syscall(p.filemap().sysWrite, c -> io.on(f, 0, 64 * 4096))
        .syscall(p.filemap().sysTruncate, c -> io.on(f, 0, 0))
        .build()));
    Kernel k = b.build();
    k.run(100 * MS);
    k.checkInvariants();
    assertThat(f.sizePages()).isZero();
    assertThat(f.cachedPages()).isZero();
    assertThat(p.locks().kernelFlag.isHeldExclusive()).isFalse();
  }
}
