package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Pit;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.VfsFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What each named workload puts on the machine, before anything runs: its processes and kernel
 * threads, which of them must keep getting CPU time, the interrupt line its probe measures
 * from, and the knobs it refuses. The process lists are those of the programs the workloads
 * stand for (realfeel and latencytest SCHED_FIFO 99, cyclictest at -p 80, dbench's N clients,
 * make -jN, Red Hat's 8 nfsd threads and the stress-kernel components).
 */
class WorkloadCompositionTests {

  private static KernelBuilder builder(Kernel24Paths paths) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(SchedulerProvider.create("goodness"));
    paths.install(b);
    paths.installDaemons(b);
    return b;
  }

  @Test
  void theRegistryNamesSixWorkloadsInItsOrderAndRefusesOthers() {
    assertThat(Workloads.names()).containsExactly("stress", "latencytest", "dbench", "kbuild", "idle", "cyclictest");
    assertThat(Workloads.descriptions()).hasSize(6);
    assertThat(Workloads.descriptions().get(0)).isEqualTo("stress: " + StandardWorkloads.STRESS_DESCRIPTION);
    assertThat(Workloads.descriptions().get(5)).isEqualTo("cyclictest: " + StandardWorkloads.CYCLICTEST_DESCRIPTION);
    for (String name : Workloads.names()) {
      Workload w = Workloads.create(name);
      assertThat(w.name()).isEqualTo(name);
      assertThat(Workloads.descriptions()).contains(name + ": " + w.description());
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Workloads.create("lmbench"))
        .withMessage("unknown workload 'lmbench'; known: stress, latencytest, dbench, kbuild, idle, cyclictest");
  }

  @Test
  void theRealfeelWorkloadsMeasureFromTheRtcAssertionAndCyclictestFromItsTimersExpiry() {
    for (String name : Workloads.names()) {
      Kernel24Paths paths = Kernel24Paths.withDefaults();
      Workload.Run run = Workloads.create(name).install(paths, builder(paths));
      boolean timer = name.equals("cyclictest");
      assertThat(run.probe().irq()).as(name).isEqualTo(timer ? Pit.IRQ : Rtc.IRQ);
      assertThat(run.probe().start()).as(name)
          .isEqualTo(timer ? ProbeSpec.Start.TIMER_EXPIRY : ProbeSpec.Start.INTERRUPT_ASSERTION);
      assertThat(run.probe().tasks()).as(name)
          .containsExactly(timer ? "cyclictest0" : name.equals("latencytest") ? "latencytest" : "realfeel");
      assertThat(run.progress()).as("%s before boot", name).isZero();
    }
  }

  @Test
  void stressRunsTheStressKernelComponentsWithRealfeelAndEightNfsdThreads() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = builder(paths);
    Workload.Run run = Workloads.create("stress").install(paths, b);
    // make sleeps in wait4 while its cc1 runs: every component but make must keep running.
    assertThat(run.mustRun()).containsExactly(
        "realfeel", "ttcp-t", "ttcp-r", "fifo-w", "fifo-r", "mmap", "p3_fpu", "fs-churn", "crashme");
    StressMix mix = new StressMix(paths);
    assertThat(mix.tasks()).extracting(TaskSpec::comm).containsExactly(
        "nfsd0", "nfsd1", "nfsd2", "nfsd3", "nfsd4", "nfsd5", "nfsd6", "nfsd7", "make0", "make1",
        "ttcp-t", "ttcp-r", "fifo-w", "fifo-r", "mmap", "p3_fpu", "fs-churn", "crashme");
    assertThat(mix.tasks().subList(0, 8)).allMatch(t -> !t.isUser());
    assertThat(mix.tasks().subList(8, mix.tasks().size())).allMatch(TaskSpec::isUser);
    assertThat(mix.compiles()).isZero();
    assertThat(mix.nfsRpcs()).isZero();
  }

  @Test
  void dbenchRunsItsClientsUnderRealfeelAndNeedsAtLeastOne() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run run = Workloads.create("dbench").install(paths, builder(paths));
    assertThat(run.mustRun()).hasSize(1 + Dbench.DEFAULT_CLIENTS).startsWith("realfeel", "dbench0").endsWith("dbench15");
    Dbench one = new Dbench(paths, 1);
    assertThat(one.tasks()).extracting(TaskSpec::comm).containsExactly("dbench0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new Dbench(paths, 0))
        .withMessage("dbench needs at least one client, got 0");
    // dbench's figure before any time has passed is 0 MB/s, not a division by zero.
    assertThat(one.throughputMbPerS(0)).isZero();
    assertThat(one.throughputMbPerS(-1)).isZero();
  }

  @Test
  void kbuildRunsMakeJobsOfWhichNoneMustRunAndNeedsAtLeastOne() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run run = Workloads.kbuild(3).install(paths, builder(paths));
    assertThat(run.mustRun()).containsExactly("realfeel");
    KernelBuild kb = new KernelBuild(paths, 3);
    assertThat(kb.tasks()).extracting(TaskSpec::comm).containsExactly("make0", "make1", "make2");
    // make starts as the forked copy of the shell that ran it, then execs make (Programs)
    assertThat(kb.tasks()).allMatch(t -> t.residentPages() == Programs.SH.residentPages());
    assertThat(kb.compiles()).isZero();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new KernelBuild(paths, 0))
        .withMessage("make needs at least one job, got 0");
  }

  /** The tree's files: 160 KiB of source and headers a file, 40 pages on disk; objects empty. */
  @Test
  void kbuildsTreeIsFourHundredSourcesOfFortyPagesAndEmptyObjects() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuild kb = new KernelBuild(paths, 1);
    kb.createFiles(paths.pageCache());
    List<VfsFile> files = paths.pageCache().files();
    assertThat(files).filteredOn(f -> f.name().endsWith(".c")).hasSize(400).allMatch(f -> f.sizePages() == 40);
    assertThat(files).filteredOn(f -> f.name().endsWith(".o")).hasSize(400).allMatch(f -> f.sizePages() == 0);
    assertThat(files).extracting(VfsFile::name).contains("linux/src0.c", "linux/src399.o");
  }

  /** A file on the NFS export takes whole pages: ceil(bytes / 4096). */
  @Test
  void nfsExportedFilesTakeWholePages() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    LoopbackNfs nfs = new LoopbackNfs(paths, 2);
    assertThat(nfs.create("a", 0).sizePages()).isZero();
    assertThat(nfs.create("b", 1).sizePages()).isEqualTo(1);
    assertThat(nfs.create("c", 4_096).sizePages()).isEqualTo(1);
    assertThat(nfs.create("d", 4_097).sizePages()).isEqualTo(2);
    assertThat(nfs.create("e", 160 * 1024).sizePages()).isEqualTo(40);
    assertThat(nfs.daemons()).hasSize(LoopbackNfs.NFSD_THREADS).extracting(TaskSpec::comm).startsWith("nfsd0");
    assertThat(nfs.rpcs()).isZero();
  }

  @Test
  void latencytestMustKeepItsLoopAndDoTestsRunningAndSpellsItsPhases() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run run = Workloads.create("latencytest").install(paths, builder(paths));
    assertThat(run.mustRun()).containsExactly("latencytest", "do_tests");
    Latencytest lt = new Latencytest(paths, 8L << 20, 1_000_000_000L);
    assertThat(lt.phaseName()).isEqualTo("starting");
    assertThat(lt.fileBytes()).isEqualTo(8L << 20);
    assertThat(lt.tasks()).extracting(TaskSpec::comm).containsExactly("latencytest", "X", "do_tests");
    assertThat(lt.tasks().get(0).policy()).isEqualTo(SchedPolicy.FIFO);
    assertThat(lt.tasks().get(0).rtPriority()).isEqualTo(99);
  }

  /** rt-tests' cyclictest: thread i at -p 80 - i (never below 1), interval + i * 500 us. */
  @Test
  void cyclictestThreadsStepDownInPriorityAndNeedAThreadAndAnInterval() {
    Cyclictest ct = new Cyclictest(3, 1_000_000);
    assertThat(ct.tasks()).extracting(TaskSpec::comm).containsExactly("cyclictest0", "cyclictest1", "cyclictest2");
    assertThat(ct.tasks()).extracting(TaskSpec::rtPriority).containsExactly(80, 79, 78);
    assertThat(ct.tasks()).allMatch(t -> t.policy() == SchedPolicy.FIFO);
    assertThat(ct.intervalNs()).isEqualTo(1_000_000);
    assertThat(new Cyclictest(90, 1).tasks().get(89).rtPriority()).as("80 - 89 floored at 1").isEqualTo(1);
    for (int[] bad : new int[][] {{0, 1}, {1, 0}}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new Cyclictest(bad[0], bad[1]))
          .withMessage("cyclictest needs >= 1 thread and an interval > 0");
    }
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run run = Workloads.cyclictest(2, 10_000_000).install(paths, builder(paths));
    assertThat(run.mustRun()).containsExactly("cyclictest0", "cyclictest1");
  }

  @Test
  void realfeelTakesOnlyTheRatesTheRtcDriverAccepts() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    for (int bad : new int[] {1, 3, 16_384}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> new Realfeel(paths, bad))
          .withMessage("the RTC rate must be a power of two, 2..8192 Hz, got " + bad);
    }
    assertThat(new Realfeel(paths, 2).task().rtPriority()).isEqualTo(99);
    assertThat(new Realfeel(paths, 8_192).samples()).isZero();
  }
}
