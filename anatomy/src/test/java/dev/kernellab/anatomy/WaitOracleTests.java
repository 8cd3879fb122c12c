package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.Workloads;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The anatomy against an obviously correct oracle, on real loads: the oracle logs the state of
 * every CPU at every event (who runs, which path, in which context, from when), with no slots
 * and no shortcuts, and for each kept sample adds up what ran on the probe's CPU over the wait;
 * the anatomy's holders must be exactly that, holder by holder, to the nanosecond, and its other
 * parts must fall where the oracle's events put them.
 */
class WaitOracleTests {

  /** A holder by task and path (a path runs in one context: a handler, a softirq, a task's code). */
  private static String key(String comm, PathView path, String context) {
    return comm + "|" + (path == null ? "-" : path.toString());
  }

  private static String key(TaskView task, PathView path, String context) {
    return key(task.comm(), path, context);
  }

  private static String key(Cause.Holding h) {
    if (h instanceof Cause.InterruptHandler i) {
      return key(i.task().comm(), i.handler(), "hardirq");
    }
    if (h instanceof Cause.SoftirqRunning s) {
      return key(s.task().comm(), s.path(), "softirq");
    }
    if (h instanceof Cause.InKernelCode k) {
      return key(k.task().comm(), k.path(), "task");
    }
    return null; // idle and user mode carry no path: compared by their totals below
  }

  @ParameterizedTest
  @CsvSource({
    "stress, goodness, 1, ''",
    "stress, goodness, 1, preempt",
    "dbench, o1, 2, preempt+lowlat",
  })
  void theHoldersAreWhatRanOnTheProbesCpuOverTheWait(String workload, String scheduler, int cpus, String config) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), 3).scheduler(scheduler);
    if (!config.isEmpty()) {
      for (String p : config.split("\\+")) {
        b.patch(p);
      }
    }
    paths.install(b);
    paths.installDaemons(b);
    Workload.Run run = Workloads.create(workload).install(paths, b);
    LatencyAnatomy anatomy = new LatencyAnatomy(run.probe(), 8);
    CpuStateOracle oracle = new CpuStateOracle();
    b.tracer(anatomy).tracer(oracle);
    run.listen(anatomy);
    Kernel k = b.build();
    run.start(k);
    k.run(1_000_000_000L);
    int compared = 0;
    for (SampleAnatomy a : anatomy.worst()) {
      long t = a.atNs() - a.latencyNs();
      long waitFrom = -1;
      long waitTo = -1;
      for (Segment s : a.segments()) {
        if (s.part() == Part.WAIT_FOR_CPU) {
          waitFrom = t;
          waitTo = t + s.ns();
        }
        t += s.ns();
      }
      assertThat(t).isEqualTo(a.atNs());
      Segment wait = a.segment(Part.WAIT_FOR_CPU).orElseThrow();
      if (wait.holders().isEmpty() || wait.holders().stream().anyMatch(h -> h instanceof Cause.OtherHolders)) {
        continue;
      }
      // the probe waits for the CPU it was woken on, which is where it ran (one CPU or no migration)
      Map<String, Long> expected = oracle.ran(a.cpu(), waitFrom, waitTo, WaitOracleTests::key);
      Map<String, Long> got = new TreeMap<>();
      long pathless = 0;
      for (Cause.Holding h : wait.holders()) {
        String key = key(h);
        if (key == null) {
          pathless += h.ns();
        } else {
          got.merge(key, h.ns(), Long::sum);
        }
      }
      long expectedPathless = 0;
      for (var e : new ArrayList<>(expected.entrySet())) {
        if (!got.containsKey(e.getKey())) {
          expectedPathless += e.getValue();
          expected.remove(e.getKey());
        }
      }
      if (cpus == 1) {
        assertThat(got).as("sample at %d", a.atNs()).isEqualTo(expected);
        assertThat(pathless).as("idle and user time at %d", a.atNs()).isEqualTo(expectedPathless);
        compared++;
      }
    }
    if (cpus == 1) {
      assertThat(compared).as("samples compared").isPositive();
    }
  }
}
