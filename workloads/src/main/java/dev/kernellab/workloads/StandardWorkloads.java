package dev.kernellab.workloads;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The compositions the registry names: probes and loads with their defaults. */
final class StandardWorkloads {

  private StandardWorkloads() {}

  static final String STRESS_DESCRIPTION =
      "Red Hat stress-kernel (NFS compile over loopback, ttcp, FIFOs and mmap, FPU, fs churn,"
          + " crashme) with realfeel at 2048 Hz";
  static final String LATENCYTEST_DESCRIPTION =
      "latencytest's phases (x11, /proc, 350 MB disk write, copy, read) with its 2048 Hz RTC loop";
  static final String DBENCH_DESCRIPTION = "dbench clients replaying a NetBench-style trace, with realfeel";
  static final String KBUILD_DESCRIPTION = "make -jN of a kernel tree from the local disk, with realfeel";
  static final String IDLE_DESCRIPTION = "realfeel alone on an otherwise idle machine";
  static final String CYCLICTEST_DESCRIPTION =
      "cyclictest (1 thread, 10 ms, nanosleep as 2.4.17 has it: whole jiffies plus one) under the"
          + " stress mix";

  /**
   * The interval of the {@code cyclictest} workload: 10 ms, not cyclictest's own 1000 us,
   * because 2.4.17's sys_nanosleep busy-waits (udelay) for a SCHED_FIFO sleep of 2 ms or less:
   * at 1000 us the probe would take the whole CPU and starve the load it is meant to run under.
   * At 10 ms the sleep goes through the timer wheel and wakes on a jiffy, which is what the
   * probe shows of a 2.4 kernel.
   */
  static final long CYCLICTEST_INTERVAL_NS = 10_000_000;

  /** A workload made of parts; {@code build} adds them to a kernel and returns their handle. */
  private record Composed(String name, String description, Builder build) implements Workload {
    @Override
    public Run install(Kernel24Paths paths, KernelBuilder b) {
      return build.install(paths, b);
    }
  }

  @FunctionalInterface
  private interface Builder {
    Workload.Run install(Kernel24Paths paths, KernelBuilder b);
  }

  private static void addAll(KernelBuilder b, List<TaskSpec> tasks) {
    tasks.forEach(b::task);
  }

  static Workload stress() {
    return new Composed("stress", STRESS_DESCRIPTION, (paths, b) -> {
      Realfeel rf = new Realfeel(paths, Realfeel.DEFAULT_HZ);
      StressMix mix = new StressMix(paths);
      b.task(rf.task());
      addAll(b, mix.tasks());
      List<String> must = new ArrayList<>(mix.mustRun());
      must.add(0, "realfeel");
      return new Workload.Run() {
        @Override
        public void start(Kernel k) {
          mix.createFiles();
          rf.start(k);
        }

        @Override
        public WorkloadResult result(Kernel k) {
          Map<String, Long> counters = new LinkedHashMap<>();
          counters.put("compiles", mix.compiles());
          counters.put("nfs_rpcs", mix.nfsRpcs());
          counters.put("ttcp_segments", mix.ttcpSegments());
          counters.put("fs_rounds", mix.fsRounds());
          return new WorkloadResult("stress", List.of(rf.result()), null, null, counters);
        }

        @Override
        public long progress() {
          return rf.samples();
        }

        @Override
        public List<String> mustRun() {
          return must;
        }

        @Override
        public void listen(SampleListener l) {
          rf.listen(l);
        }

        @Override
        public int probeIrq() {
          return dev.kernellab.hw.Rtc.IRQ;
        }
      };
    });
  }

  static Workload latencytest() {
    return new Composed("latencytest", LATENCYTEST_DESCRIPTION, (paths, b) -> {
      Latencytest lt = new Latencytest(paths, 350_000_000L);
      addAll(b, lt.tasks());
      return new Workload.Run() {
        @Override
        public void start(Kernel k) {
          lt.start(k, paths.pageCache());
        }

        @Override
        public WorkloadResult result(Kernel k) {
          Map<String, Long> counters = new LinkedHashMap<>();
          counters.put("file_bytes", lt.fileBytes());
          return new WorkloadResult("latencytest", List.of(lt.result()), null, null, counters);
        }

        @Override
        public long progress() {
          return lt.samples();
        }

        @Override
        public List<String> mustRun() {
          return List.of("latencytest", "do_tests");
        }

        @Override
        public void listen(SampleListener l) {
          lt.listen(l);
        }

        @Override
        public int probeIrq() {
          return dev.kernellab.hw.Rtc.IRQ;
        }
      };
    });
  }

  static Workload dbench(int clients) {
    return new Composed("dbench", DBENCH_DESCRIPTION, (paths, b) -> {
      Realfeel rf = new Realfeel(paths, Realfeel.DEFAULT_HZ);
      Dbench db = new Dbench(paths, clients);
      b.task(rf.task());
      addAll(b, db.tasks());
      List<String> must = new ArrayList<>(List.of("realfeel"));
      db.tasks().forEach(t -> must.add(t.comm()));
      return new Workload.Run() {
        @Override
        public void start(Kernel k) {
          rf.start(k);
        }

        @Override
        public WorkloadResult result(Kernel k) {
          Map<String, Long> counters = new LinkedHashMap<>();
          counters.put("clients", (long) clients);
          counters.put("bytes_moved", db.bytesMoved());
          counters.put("files", db.operations());
          return new WorkloadResult("dbench", List.of(rf.result()), db.throughputMbPerS(k.now()),
              "dbench: 10^-6 x bytes read and written by all clients / elapsed seconds", counters);
        }

        @Override
        public long progress() {
          return rf.samples();
        }

        @Override
        public List<String> mustRun() {
          return must;
        }

        @Override
        public void listen(SampleListener l) {
          rf.listen(l);
        }

        @Override
        public int probeIrq() {
          return dev.kernellab.hw.Rtc.IRQ;
        }
      };
    });
  }

  static Workload kbuild(int jobs) {
    return new Composed("kbuild", KBUILD_DESCRIPTION, (paths, b) -> {
      Realfeel rf = new Realfeel(paths, Realfeel.DEFAULT_HZ);
      KernelBuild kb = new KernelBuild(paths, jobs);
      b.task(rf.task());
      addAll(b, kb.tasks());
      // make sleeps in wait4 for as long as a compile takes: only the probe must keep running.
      List<String> must = List.of("realfeel");
      return new Workload.Run() {
        @Override
        public void start(Kernel k) {
          kb.createFiles(paths.pageCache());
          rf.start(k);
        }

        @Override
        public WorkloadResult result(Kernel k) {
          Map<String, Long> counters = new LinkedHashMap<>();
          counters.put("compiles", kb.compiles());
          return new WorkloadResult("kbuild", List.of(rf.result()), null, null, counters);
        }

        @Override
        public long progress() {
          return rf.samples();
        }

        @Override
        public List<String> mustRun() {
          return must;
        }

        @Override
        public void listen(SampleListener l) {
          rf.listen(l);
        }

        @Override
        public int probeIrq() {
          return dev.kernellab.hw.Rtc.IRQ;
        }
      };
    });
  }

  static Workload idle() {
    return new Composed("idle", IDLE_DESCRIPTION, (paths, b) -> {
      Realfeel rf = new Realfeel(paths, Realfeel.DEFAULT_HZ);
      b.task(rf.task());
      return new Workload.Run() {
        @Override
        public void start(Kernel k) {
          rf.start(k);
        }

        @Override
        public WorkloadResult result(Kernel k) {
          return new WorkloadResult("idle", List.of(rf.result()), null, null, Map.of());
        }

        @Override
        public long progress() {
          return rf.samples();
        }

        @Override
        public List<String> mustRun() {
          return List.of("realfeel");
        }

        @Override
        public void listen(SampleListener l) {
          rf.listen(l);
        }

        @Override
        public int probeIrq() {
          return dev.kernellab.hw.Rtc.IRQ;
        }
      };
    });
  }

  static Workload cyclictest(int threads, long intervalNs) {
    return new Composed("cyclictest", CYCLICTEST_DESCRIPTION, (paths, b) -> {
      Cyclictest ct = new Cyclictest(threads, intervalNs);
      StressMix mix = new StressMix(paths);
      addAll(b, ct.tasks());
      addAll(b, mix.tasks());
      List<String> must = new ArrayList<>();
      ct.tasks().forEach(t -> must.add(t.comm()));
      return new Workload.Run() {
        @Override
        public void start(Kernel k) {
          mix.createFiles();
        }

        @Override
        public WorkloadResult result(Kernel k) {
          Map<String, Long> counters = new LinkedHashMap<>();
          counters.put("interval_ns", ct.intervalNs());
          counters.put("compiles", mix.compiles());
          return new WorkloadResult("cyclictest", List.of(ct.result()), null, null, counters);
        }

        @Override
        public long progress() {
          return ct.samples();
        }

        @Override
        public List<String> mustRun() {
          return must;
        }

        @Override
        public void listen(SampleListener l) {
          ct.listen(l);
        }

        @Override
        public int probeIrq() {
          return dev.kernellab.hw.Pit.IRQ;
        }
      };
    });
  }
}
