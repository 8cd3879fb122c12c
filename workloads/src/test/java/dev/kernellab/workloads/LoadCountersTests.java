package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loads' own counts after a few simulated seconds, against what their programs must do:
 * the RPCs an NFS compile makes, the system calls and bytes of dbench's trace as its shares and
 * sizes work out by hand, and which workloads define a throughput. Seeds fixed.
 */
class LoadCountersTests {

  private static final long S = 1_000_000_000L;

  private record Ran(WorkloadResult result, Kernel24Paths paths, long progress) {}

  private static Ran run(Workload w, long ns, long seed) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), seed).scheduler(SchedulerProvider.create("goodness"));
    paths.install(b);
    paths.installDaemons(b);
    Workload.Run run = w.install(paths, b);
    Kernel k = b.build();
    run.start(k);
    k.run(ns);
    return new Ran(run.result(k), paths, run.progress());
  }

  /**
   * NFS-COMPILE over an 8 KiB rsize: cpp reads its 160 KiB in 8 KiB calls, 20 RPCs, and as writes
   * its 24 KiB object, 3 more: 23 a compile. Started compiles are counted; of them at most the
   * two make jobs' current ones are unfinished, so 23 x (compiles - 2) <= RPCs <= 23 x compiles.
   */
  @Test
  void theStressMixCountsItsCompilesRpcsSegmentsAndRounds() {
    Ran r = run(Workloads.create("stress"), 5 * S, 1);
    var c = r.result().counters();
    assertThat(c.keySet()).containsExactly("compiles", "nfs_rpcs", "ttcp_segments", "fs_rounds");
    long compiles = c.get("compiles");
    assertThat(compiles).isGreaterThanOrEqualTo(3);
    assertThat(c.get("nfs_rpcs")).isBetween(23 * (compiles - StressMix.COMPILE_JOBS), 23 * compiles);
    assertThat(c.get("ttcp_segments")).isPositive();
    assertThat(c.get("fs_rounds")).isPositive();
    assertThat(r.result().throughputMbPerS()).as("stress defines no throughput").isNull();
    assertThat(r.result().throughputDefinition()).isNull();
    assertThat(r.progress()).isEqualTo(r.result().probes().get(0).latency().samples()).isPositive();
    // fs-churn's file is created, filled with 1 MB (256 pages) and unlinked, round after round.
    List<VfsFile> churn = r.paths().pageCache().files().stream().filter(f -> f.name().equals("churn")).toList();
    assertThat(churn).isNotEmpty();
    // Every compile but the two running ones has written its whole 24 KiB object, 6 pages,
    // through the nfsd threads, after reading all 40 pages of its source through them.
    objectsAreWholeForEveryFinishedCompile(r.paths(), "src", compiles, StressMix.COMPILE_JOBS);
  }

  /**
   * make -jN's bookkeeping (kernel/exit.c sys_wait4: make waits for its child before the next
   * target): of the compiles started, all but at most one per job have finished, and in a
   * finished compile cpp has read its whole source (160 KiB = 40 pages, now in the page cache)
   * and as has written the whole object (24 KiB = 6 pages). No object is ever longer.
   */
  private static void objectsAreWholeForEveryFinishedCompile(Kernel24Paths paths, String prefix, long compiles,
      int jobs) {
    List<VfsFile> files = paths.pageCache().files();
    List<VfsFile> objects = files.stream().filter(f -> f.name().startsWith(prefix) && f.name().endsWith(".o")).toList();
    List<VfsFile> whole = objects.stream().filter(f -> f.sizePages() == 6).toList();
    assertThat(objects).allMatch(f -> f.sizePages() <= 6);
    assertThat((long) whole.size()).isBetween(compiles - jobs, compiles);
    for (VfsFile o : whole) {
      String source = o.name().substring(0, o.name().length() - 2) + ".c";
      assertThat(files).filteredOn(f -> f.name().equals(source)).singleElement()
          .satisfies(f -> assertThat(f.cachedPages()).as(source).isEqualTo(40));
    }
  }

  /**
   * dbench's trace by hand. With 3 % of the calls on an existing file deleting it and every call
   * on a missing one creating it, a fraction q of the calls finds its file missing where
   * q = 0.03 (1 - q), q = 0.029. A create is an open and size / 4 KiB writes (size log-normal,
   * median 16 KiB, sigma 1.2: mean 16 KiB x e^0.72 = 33.7 KiB, about 8.7 writes); a call on an
   * existing file is one system call, two for a lookup (9 %), four for a FIND_FIRST (3 %: the
   * open, a getdents64 that lists the directory's at most 34 entries, one that finds its end,
   * the close): 0.88 + 0.18 + 0.12 = 1.18. System calls per file operation:
   * 0.029 x 9.7 + 0.971 x 1.18 = 1.43. Bytes: a create moves its size, a read (60 %)
   * or rewrite (25 %) a piece of 512 B, 1 KiB or 4 KiB at 40/40/20 %, 1,434 B on average:
   * 0.029 x 33.7 Ki + 0.971 x 0.85 x 1,434 = 2,160 bytes per operation.
   */
  @Test
  void dbenchsCallsAndBytesPerOperationAreItsTracesShares() {
    Ran r = run(Workloads.dbench(1), 3 * S, 1);
    var c = r.result().counters();
    assertThat(c.keySet()).containsExactly("clients", "bytes_moved", "files", "syscalls");
    double ops = c.get("files");
    assertThat(ops).isGreaterThan(10_000);
    // Within 3 % and 4 % of the hand figures: the shares are drawn, not exact, but 30,000
    // operations leave little room; a create's two calls less would be 1.43 - 2 x 0.029 = 1.37,
    // and FIND_FIRST as a lookup 1.43 - 0.971 x 0.06 = 1.37.
    assertThat(c.get("syscalls") / ops).isBetween(1.43 * 0.97, 1.43 * 1.03);
    assertThat(c.get("bytes_moved") / ops).isBetween(2_160 * 0.96, 2_160 * 1.04);
    assertThat(r.result().throughputMbPerS()).isEqualTo(c.get("bytes_moved") / 1e6 / 3.0);
    // The client's working set: at most 32 files, each at least the one page a create writes.
    List<VfsFile> files = r.paths().pageCache().files().stream().filter(f -> f.name().startsWith("client0/")).toList();
    assertThat(files).hasSizeBetween(1, Dbench.FILES_PER_CLIENT);
    assertThat(files).filteredOn(f -> !f.isUnlinked()).allMatch(f -> f.sizePages() >= 1);
  }

  /**
   * gcc -pipe (2.4.17 arch/i386/Makefile's CFLAGS): the driver starts cpp, cc1 and as together,
   * joined by pipes, so cc1 runs while cpp is still reading, and as while cc1 still compiles.
   * One make job, three seconds: in each compile's chain cc1 first runs before cpp last runs,
   * and as before cc1; without -pipe each would start only once the one before had exited.
   */
  @Test
  void kbuildsGccChainRunsCppCc1AndAsTogetherThroughPipes() {
    List<String> ran = new ArrayList<>();
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(SchedulerProvider.create("goodness"))
        .tracer(new Tracer() {
          @Override
          public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
            String comm = next.comm();
            if ((comm.equals("cpp") || comm.equals("cc1") || comm.equals("as"))
                && (ran.isEmpty() || !ran.get(ran.size() - 1).equals(comm))) {
              ran.add(comm);
            }
          }
        });
    paths.install(b);
    paths.installDaemons(b);
    Workload.Run run = Workloads.kbuild(1).install(paths, b);
    Kernel k = b.build();
    run.start(k);
    k.run(3 * S);
    int firstCc1 = ran.indexOf("cc1");
    int firstAs = ran.indexOf("as");
    assertThat(firstCc1).isPositive();
    assertThat(firstAs).isGreaterThan(firstCc1);
    assertThat(ran.subList(firstCc1, ran.size())).as("cpp after cc1 began").contains("cpp");
    assertThat(ran.subList(firstAs, ran.size())).as("cc1 after as began").contains("cc1");
  }

  @Test
  void kbuildCountsCompilesAndIdleCountsNothingNeitherDefinesAThroughput() {
    Ran kb = run(Workloads.create("kbuild"), 3 * S, 1);
    assertThat(kb.result().counters().keySet()).containsExactly("compiles");
    assertThat(kb.result().counters().get("compiles")).isGreaterThanOrEqualTo(KernelBuild.DEFAULT_JOBS);
    assertThat(kb.result().throughputMbPerS()).isNull();
    objectsAreWholeForEveryFinishedCompile(kb.paths(), "linux/src", kb.result().counters().get("compiles"),
        KernelBuild.DEFAULT_JOBS);
    Ran idle = run(Workloads.create("idle"), S, 1);
    assertThat(idle.result().counters()).isEmpty();
    assertThat(idle.result().throughputMbPerS()).isNull();
    // realfeel alone at 2048 Hz: a sample a period, the 2048th period ending at 1 s itself.
    assertThat(idle.progress()).isBetween(2_047L, 2_048L);
  }

  @Test
  void cyclictestRunsItsThreadUnderTheStressMix() {
    Ran ct = run(Workloads.cyclictest(1, 10_000_000), 2 * S, 1);
    assertThat(ct.result().counters()).containsEntry("interval_ns", 10_000_000L);
    // Under the stress mix: both make jobs have started a compile within the first seconds.
    assertThat(ct.result().counters().get("compiles")).isGreaterThanOrEqualTo(StressMix.COMPILE_JOBS);
    assertThat(ct.result().probes().get(0).name()).isEqualTo("cyclictest");
    assertThat(ct.progress()).isPositive();
  }

  /** A sample's latency: from the programmed expiry (cyclictest) or the RTC edge (realfeel). */
  private static void samplesAsTheListenerSeesThem(Workload w, long ns, String thread0, long interval0,
      String thread1, long interval1) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 2).scheduler(SchedulerProvider.create("goodness"));
    paths.install(b);
    paths.installDaemons(b);
    Workload.Run run = w.install(paths, b);
    java.util.Map<String, List<Long>> starts = new java.util.HashMap<>();
    long[] count = {0};
    long[] max = {0};
    run.listen((task, start, end, cpu) -> {
      count[0]++;
      max[0] = Math.max(max[0], end - start);
      starts.computeIfAbsent(task.comm(), x -> new java.util.ArrayList<>()).add(start);
    });
    Kernel k = b.build();
    run.start(k);
    k.run(ns);
    ProbeResult p = run.result(k).probes().get(0);
    assertThat(count[0]).isEqualTo(p.latency().samples()).isEqualTo(run.progress()).isPositive();
    assertThat(max[0]).isEqualTo(p.latency().maxNs());
    String[] threads = {thread0, thread1};
    long[] intervals = {interval0, interval1};
    for (int i = 0; i < 2; i++) {
      if (threads[i] == null) {
        continue;
      }
      List<Long> s = starts.get(threads[i]);
      assertThat(s).as(threads[i]).hasSizeGreaterThan(10);
      for (int j = 1; j < s.size(); j++) {
        long gap = s.get(j) - s.get(j - 1);
        assertThat(gap % intervals[i]).as("%s: %d ns between expiries", threads[i], gap).isZero();
        assertThat(gap).isPositive();
      }
    }
  }

  /** rt-tests cyclictest: thread i sleeps interval + i x distance (500 us), absolute expiries. */
  @Test
  void cyclictestThreadsExpireOnTheirOwnIntervalsAndTheListenerSeesEverySample() {
    samplesAsTheListenerSeesThem(Workloads.cyclictest(2, 10_000_000), 2 * S, "cyclictest0", 10_000_000,
        "cyclictest1", 10_500_000);
  }

  @Test
  void realfeelsListenerSeesEverySampleWithItsLatency() {
    samplesAsTheListenerSeesThem(Workloads.create("idle"), S / 2, null, 0, null, 0);
  }
}
