package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.anatomy.LatencyAnatomy;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
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
 * The simulator's shortcuts change nothing: every workload, under both schedulers, vanilla and
 * preempt+lowlat, on one and two CPUs, gives the same trace event for event, the same results,
 * the same event count and the same anatomy of its worst samples (what {@code kernel-lab
 * explain} prints) with the shortcuts on and off. Three runs a cell:
 *
 * <ul>
 *   <li>all off: every event through the queue ({@code Simulation.setInlineEvents(false)}) and
 *       a tracer of every event ({@link TraceDigest}), so every detail event is fired;
 *   <li>the engine's shortcuts on (a segment that nothing can precede ends in the handler that
 *       started it, a loop's bare compute body runs the iterations that fit before the next
 *       event as one segment, the window they fit in kept between segments), the same tracers:
 *       the full digest must match;
 *   <li>everything on: only the anatomy asks for detail events, and only while a probe waits
 *       for a CPU ({@link TraceInterest}), so the kernel skips the rest: the digest of the
 *       events every tracer gets, the anatomy, the results and the event count must match.
 * </ul>
 *
 * Fast-forward (a loop's iterations that end before anything outside the CPU can act, run in
 * one interpreter step, {@code Kernel.setFastForward}) runs in the third run and in none of the
 * first two, since a tracer of every event turns it off; the second test runs the whole matrix
 * of configurations and CPU counts with everything on, fast-forward on and off.
 *
 * <p>The shortcuts with no switch (a site's hook remembered per kernel, the lock breaks' counted
 * test without a division) run in all three and are checked by the results against the
 * README's {@code compare} output (and docs/patches.md's) and by {@code EveryNthProperties}.
 */
class InlineEventEquivalenceTests {

  static final long RUN_NS = 2_000_000_000L;

  record Outcome(long hash, long traced, long coarseHash, long coarseTraced, long events, long inline,
      List<Object> result, long cpu0ComputeNs, String anatomy, String locks, long ops, long fastForwarded) {}

  /**
   * A digest of the events the kernel fires whatever tracers ask (switches, wake-ups,
   * interrupts, softirqs, the interrupt flag, samples); asks for no detail event itself.
   */
  static final class CoarseDigest implements Tracer {
    final TraceDigest digest = new TraceDigest();

    @Override
    public void interest(TraceInterest mine) {
      for (TraceInterest.Detail d : TraceInterest.Detail.values()) {
        mine.dropEverywhere(d);
      }
    }

    @Override
    public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      digest.schedSwitch(now, cpu, prev, next);
    }

    @Override
    public void schedWakeup(long now, int cpu, TaskView task) {
      digest.schedWakeup(now, cpu, task);
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      digest.irqEntry(now, cpu, vector);
    }

    @Override
    public void irqExit(long now, int cpu, int vector) {
      digest.irqExit(now, cpu, vector);
    }

    @Override
    public void softirqEntry(long now, int cpu, int pending) {
      digest.softirqEntry(now, cpu, pending);
    }

    @Override
    public void softirqExit(long now, int cpu) {
      digest.softirqExit(now, cpu);
    }

    @Override
    public void irqsOff(long now, int cpu, PathView path) {
      digest.irqsOff(now, cpu, path);
    }

    @Override
    public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
      digest.irqsOn(now, cpu, path, lengthNs);
    }

    @Override
    public void latencySample(long now, int cpu, TaskView task, long latencyNs) {
      digest.latencySample(now, cpu, task, latencyNs);
    }
  }

  /** Which shortcuts a run takes. */
  enum Shortcuts {
    NONE,
    ENGINE,
    ALL,
    /** ALL but fast-forward ({@code Kernel.setFastForward(false)}): every operation dispatched. */
    ALL_BUT_FAST_FORWARD
  }

  /** Every lock's statistics: acquisitions, contentions, longest and total hold, the hold histogram. */
  static String lockStatistics(Kernel24Paths paths) {
    StringBuilder out = new StringBuilder();
    for (SpinLock l : paths.locks().all()) {
      out.append(l.name()).append(' ').append(l.acquisitions()).append(' ').append(l.contentions()).append(' ')
          .append(l.maxHoldNs()).append(' ').append(l.totalHoldNs()).append(' ')
          .append(Arrays.toString(l.holdHistogram())).append('\n');
    }
    return out.toString();
  }

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

  static Outcome run(String workload, String scheduler, String config, int cpus, Shortcuts shortcuts) {
    return run(workload, scheduler, config, cpus, shortcuts, RUN_NS);
  }

  static Outcome run(String workload, String scheduler, String config, int cpus, Shortcuts shortcuts, long runNs) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), 3)
        .scheduler(SchedulerProvider.create(scheduler))
        // every check, but no event ring: the ring takes every event, so no detail is ever skipped
        .debugChecks(new DebugChecks(true, true, true, true, false, true, true));
    paths.install(b);
    paths.installDaemons(b);
    if (!config.equals("vanilla")) {
      for (String p : config.split("\\+", -1)) {
        b.patch(p);
      }
    }
    Workload.Run run = Workloads.create(workload).install(paths, b);
    LatencyAnatomy anatomy = LatencyAnatomy.attach(b, run);
    CoarseDigest coarse = new CoarseDigest();
    b.tracer(coarse);
    TraceDigest trace = new TraceDigest();
    if (shortcuts == Shortcuts.NONE || shortcuts == Shortcuts.ENGINE) {
      b.tracer(trace); // takes every event: every detail is fired
    }
    Kernel k = b.build();
    k.machine().simulation().setInlineEvents(shortcuts != Shortcuts.NONE);
    k.setFastForward(shortcuts != Shortcuts.ALL_BUT_FAST_FORWARD);
    run.start(k);
    // In slices, as the lab and the soak run it: a slice's end is a horizon the shortcut must respect.
    for (long t = 500_000_000L; t <= runNs; t += 500_000_000L) {
      k.run(t);
    }
    return new Outcome(trace.digest(), trace.events(), coarse.digest.digest(), coarse.digest.events(), k.eventsFired(),
        k.eventsFiredInline(), figures(run.result(k)), k.machine().cpu(0).computeNs(), anatomy.worst().toString(),
        lockStatistics(paths), k.opsExecuted(), k.opsFastForwarded());
  }

  @Test
  void everyWorkloadGivesTheSameTraceResultsAndAnatomyWithAndWithoutTheShortcuts() {
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
    long[] anatomies = {0};
    cells.parallelStream().forEach(cell -> {
      String[] x = cell.split(" ");
      Outcome off = run(x[0], x[1], x[2], Integer.parseInt(x[3]), Shortcuts.NONE);
      Outcome on = run(x[0], x[1], x[2], Integer.parseInt(x[3]), Shortcuts.ENGINE);
      Outcome all = run(x[0], x[1], x[2], Integer.parseInt(x[3]), Shortcuts.ALL);
      assertThat(off.inline()).as(cell).isZero();
      assertThat(on.traced()).as(cell).isEqualTo(off.traced()).isPositive();
      assertThat(on.hash()).as(cell).isEqualTo(off.hash());
      assertThat(all.traced()).as(cell + ": no tracer of everything").isZero();
      assertThat(off.coarseTraced()).as(cell).isPositive().isLessThan(off.traced());
      for (Outcome o : List.of(on, all)) {
        assertThat(o.coarseTraced()).as(cell).isEqualTo(off.coarseTraced());
        assertThat(o.coarseHash()).as(cell).isEqualTo(off.coarseHash());
        assertThat(o.events()).as(cell).isEqualTo(off.events());
        assertThat(o.result()).as(cell).isEqualTo(off.result());
        assertThat(o.cpu0ComputeNs()).as(cell).isEqualTo(off.cpu0ComputeNs());
        assertThat(o.anatomy()).as(cell).isEqualTo(off.anatomy());
      }
      synchronized (inlineSeen) {
        inlineSeen[0] += all.inline();
        anatomies[0] += off.anatomy().contains("WAIT_FOR_CPU") ? 1 : 0;
      }
    });
    assertThat(inlineSeen[0]).as("the shortcut is taken").isPositive();
    assertThat(anatomies[0]).as("samples with a wait for the CPU are explained").isPositive();
  }

  /** Simulated time of each fast-forward cell: short, since the matrix has 72 cells of two runs. */
  static final long FAST_FORWARD_RUN_NS = 1_000_000_000L;

  /**
   * Fast-forward changes nothing: every workload under vanilla, preempt, lowlat and
   * preempt+lowlat on 1, 2 and 4 CPUs, under the plug-ins whose hooks it runs (lockbreak's
   * breaks, voluntary's might_sleep points) and rt's threaded handlers on 1 and 2 CPUs, and
   * under the O(1) scheduler on 1 and 2, gives, with it on and off (the engine's other shortcuts
   * on both times, no tracer of every event so that nothing turns it off), the same digest of
   * the events every tracer gets, the same results, event count, compute time, lock
   * statistics and anatomy; and the operations it runs are the ones the interpreter no longer
   * dispatches, one for one.
   */
  @Test
  void fastForwardGivesTheSameTraceResultsLocksAndAnatomyOnEveryConfigurationAndCpuCount() {
    List<String> cells = new ArrayList<>();
    for (String w : Workloads.names()) {
      for (String c : List.of("vanilla", "preempt", "lowlat", "preempt+lowlat")) {
        for (int cpus : List.of(1, 2, 4)) {
          cells.add(w + " goodness " + c + " " + cpus);
        }
      }
      for (int cpus : List.of(1, 2)) {
        for (String c : List.of("preempt+lockbreak", "voluntary+lowlat", "preempt+rt")) {
          cells.add(w + " goodness " + c + " " + cpus);
        }
        cells.add(w + " o1 preempt+lowlat " + cpus);
      }
    }
    long[] fastForwarded = {0};
    cells.parallelStream().forEach(cell -> {
      String[] x = cell.split(" ");
      int cpus = Integer.parseInt(x[3]);
      Outcome off = run(x[0], x[1], x[2], cpus, Shortcuts.ALL_BUT_FAST_FORWARD, FAST_FORWARD_RUN_NS);
      Outcome on = run(x[0], x[1], x[2], cpus, Shortcuts.ALL, FAST_FORWARD_RUN_NS);
      assertThat(off.fastForwarded()).as(cell).isZero();
      assertThat(on.coarseTraced()).as(cell).isEqualTo(off.coarseTraced()).isPositive();
      assertThat(on.coarseHash()).as(cell).isEqualTo(off.coarseHash());
      assertThat(on.events()).as(cell).isEqualTo(off.events());
      assertThat(on.inline()).as(cell).isEqualTo(off.inline());
      assertThat(on.result()).as(cell).isEqualTo(off.result());
      assertThat(on.cpu0ComputeNs()).as(cell).isEqualTo(off.cpu0ComputeNs());
      assertThat(on.locks()).as(cell).isEqualTo(off.locks());
      assertThat(on.anatomy()).as(cell).isEqualTo(off.anatomy());
      assertThat(on.ops() + on.fastForwarded()).as(cell + ": every operation run once").isEqualTo(off.ops());
      synchronized (fastForwarded) {
        fastForwarded[0] += on.fastForwarded();
      }
    });
    assertThat(fastForwarded[0]).as("fast-forward is taken").isPositive();
  }
}
