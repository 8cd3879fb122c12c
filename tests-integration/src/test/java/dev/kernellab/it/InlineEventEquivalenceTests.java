package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.testkit.TraceDigest;
import dev.kernellab.workloads.ProbeResult;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.WorkloadResult;
import dev.kernellab.workloads.Workloads;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulator's shortcut (a work segment that nothing can precede ends in the handler that
 * started it, and a loop's bare compute body runs the iterations that fit before the next
 * event as one segment) changes nothing: every workload, under both schedulers, vanilla and
 * preempt+lowlat, on one and two CPUs, gives the same trace event for event, the same results
 * and the same event count with the shortcut on and off.
 */
class InlineEventEquivalenceTests {

  static final long RUN_NS = 2_000_000_000L;

  record Outcome(long hash, long traced, long events, long inline, List<Object> result, long cpu0ComputeNs) {}

  /** Every figure of a result, the distributions as their bucket counts. */
  static List<Object> figures(WorkloadResult r) {
    List<Object> out = new ArrayList<>(List.of(r.workload(), r.counters()));
    out.add(r.throughputMbPerS() == null ? "none" : r.throughputMbPerS());
    for (ProbeResult p : r.probes()) {
      out.add(p.name());
      out.add(p.latency());
      out.add(p.worst());
      out.add(p.periodError() == null ? "none" : p.periodError());
      out.add(p.phases() == null ? "none" : p.phases());
      out.add(p.realfeelBins() == null ? "none" : p.realfeelBins().lines());
      out.add(p.distribution() == null ? "none" : Arrays.toString(p.distribution().microsecondBuckets(10_000)));
    }
    return out;
  }

  static Outcome run(String workload, String scheduler, String config, int cpus, boolean inline) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), 3)
        .scheduler(SchedulerProvider.create(scheduler));
    paths.install(b);
    paths.installDaemons(b);
    if (!config.equals("vanilla")) {
      for (String p : config.split("\\+", -1)) {
        b.patch(p);
      }
    }
    Workload.Run run = Workloads.create(workload).install(paths, b);
    TraceDigest trace = new TraceDigest();
    b.tracer(trace);
    Kernel k = b.build();
    k.machine().simulation().setInlineEvents(inline);
    run.start(k);
    // In slices, as the lab and the soak run it: a slice's end is a horizon the shortcut must respect.
    for (long t = 500_000_000L; t <= RUN_NS; t += 500_000_000L) {
      k.run(t);
    }
    return new Outcome(trace.digest(), trace.events(), k.eventsFired(), k.eventsFiredInline(),
        figures(run.result(k)), k.machine().cpu(0).computeNs());
  }

  @Test
  void everyWorkloadGivesTheSameTraceAndResultsWithAndWithoutInlineEvents() {
    List<String> cells = new ArrayList<>();
    for (String w : Workloads.names()) {
      for (String s : List.of("goodness", "o1")) {
        for (String c : List.of("vanilla", "preempt+lowlat")) {
          for (int cpus : List.of(1, 2)) {
            cells.add(w + " " + s + " " + c + " " + cpus);
          }
        }
      }
    }
    long[] inlineSeen = {0};
    cells.parallelStream().forEach(cell -> {
      String[] x = cell.split(" ");
      Outcome on = run(x[0], x[1], x[2], Integer.parseInt(x[3]), true);
      Outcome off = run(x[0], x[1], x[2], Integer.parseInt(x[3]), false);
      assertThat(off.inline()).as(cell).isZero();
      assertThat(on.traced()).as(cell).isEqualTo(off.traced()).isPositive();
      assertThat(on.hash()).as(cell).isEqualTo(off.hash());
      assertThat(on.events()).as(cell).isEqualTo(off.events());
      assertThat(on.result()).as(cell).isEqualTo(off.result());
      assertThat(on.cpu0ComputeNs()).as(cell).isEqualTo(off.cpu0ComputeNs());
      synchronized (inlineSeen) {
        inlineSeen[0] += on.inline();
      }
    });
    assertThat(inlineSeen[0]).as("the shortcut is taken").isPositive();
  }
}
