package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loads: dbench's arithmetic, latencytest's phase order, reproducibility. */
class LoadTests {

  private static final long MS = 1_000_000;

  private static Kernel kernel(Kernel24Paths paths, long seed, java.util.function.Consumer<KernelBuilder> add) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), seed)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(b);
    paths.installDaemons(b);
    add.accept(b);
    return b.build();
  }

  @Test
  void dbenchReportsTheBytesItsClientsMovedPerSecond() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run[] run = {null};
    Kernel k = kernel(paths, 1, b -> run[0] = Workloads.dbench(4).install(paths, b));
    run[0].start(k);
    k.run(3_000 * MS);
    WorkloadResult r = run[0].result(k);
    long bytes = r.counters().get("bytes_moved");
    assertThat(bytes).isPositive();
    assertThat(r.throughputMbPerS()).isEqualTo(bytes / 1e6 / 3.0);
    assertThat(r.counters().get("clients")).isEqualTo(4);
  }

  @Test
  void dbenchMovesAboutTheTracesDataPerOperation() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run[] run = {null};
    Kernel k = kernel(paths, 2, b -> run[0] = Workloads.dbench(4).install(paths, b));
    run[0].start(k);
    k.run(5_000 * MS);
    WorkloadResult r = run[0].result(k);
    double perCall = (double) r.counters().get("bytes_moved") / r.counters().get("syscalls");
    // client.txt: 132 MB over about 90,000 operations, 1,466 bytes each on average.
    assertThat(r.counters().get("syscalls")).isGreaterThan(10_000);
    assertThat(perCall).isBetween(Dbench.TRACE_BYTES_PER_OP * 0.75, Dbench.TRACE_BYTES_PER_OP * 1.25);
  }

  @Test
  void latencytestRunsItsPhasesInDoTestsOrder() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Latencytest[] lt = {null};
    Kernel k = kernel(paths, 1, b -> {
      lt[0] = new Latencytest(paths, 8L << 20, 500 * MS);
      lt[0].tasks().forEach(b::task);
    });
    lt[0].start(k, paths.pageCache());
    List<String> seen = new ArrayList<>();
    for (long t = 50; t <= 20_000; t += 50) {
      k.run(t * MS);
      String phase = lt[0].phaseName();
      if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(phase)) {
        seen.add(phase);
      }
    }
    assertThat(seen).containsSubsequence("x11", "proc", "disk write", "disk copy", "disk read", "done");
    ProbeResult r = lt[0].result();
    assertThat(r.phases()).extracting(ProbeResult.PhaseResult::phase).containsExactlyElementsOf(Latencytest.PHASES);
    assertThat(r.phases()).allSatisfy(p -> assertThat(p.latency().samples()).isPositive());
  }

  @Test
  void theSameSeedGivesTheSameOperationsInTheSameOrder() {
    assertThat(stressRun(3)).isEqualTo(stressRun(3));
    assertThat(stressRun(3)).isNotEqualTo(stressRun(4));
  }

  private static String stressRun(long seed) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Workload.Run[] run = {null};
    Kernel k = kernel(paths, seed, b -> run[0] = Workloads.create("stress").install(paths, b));
    run[0].start(k);
    k.run(2_000 * MS);
    WorkloadResult r = run[0].result(k);
    return r.counters() + " " + r.probes().get(0).latency() + " " + r.probes().get(0).worst()
        + " " + k.eventsFired();
  }
}
