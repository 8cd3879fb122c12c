package dev.kernellab.preempt;

import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The preempt-stats companion patch as a tracer: keeps the {@value #KEPT} longest intervals
 * during which {@code preempt_count} was non-zero, with the path (and loop site) that made it
 * non-zero and the one that brought it back to zero.
 *
 * <p>Models CONFIG_PREEMPT_TIMES (Robert Love's and MontaVista's preempt-stats patch,
 * kernel.org people/rml/preempt-stats/v2.4/preempt-stats-rml-2.4.17-2.patch), which
 * instrumented the lock/unlock and preempt_disable/enable points and showed the 20 worst in
 * {@code /proc/latencytimes}. This is what users asked that tool for: which kernel code keeps
 * preemption off longest. This class keeps the raw 20 longest periods; {@link LatencyTimes} keeps
 * the table as the patch did (one entry per pair of places, with its cause) and prints it as
 * {@code /proc/latencytimes} did ({@code kernel-lab run --preempt-stats}).
 *
 * <pre>{@code
 * PreemptStats stats = new PreemptStats();
 * new KernelBuilder(...).patch("preempt").tracer(stats).build().run(end);
 * stats.worst().forEach(System.out::println);
 * }</pre>
 */
public final class PreemptStats implements Tracer {

  /** How many intervals /proc/latencytimes kept. */
  public static final int KEPT = 20;

  /**
   * One preempt-off interval.
   *
   * @param lengthNs how long the count stayed non-zero
   * @param startNs when it left zero
   * @param cpu the CPU
   * @param disabledBy the path (loop body: its site) running when the count left zero
   * @param enabledBy the path running when it came back to zero
   */
  public record Interval(long lengthNs, long startNs, int cpu, PathView disabledBy, PathView enabledBy) {
    @Override
    public String toString() {
      return String.format(
          "%9.3f ms  cpu%d  off at %s, on at %s (t=%.3f ms)",
          lengthNs / 1e6, cpu, disabledBy, enabledBy, startNs / 1e6);
    }
  }

  private final PathView[] offBy = new PathView[64];
  private final List<Interval> worst = new ArrayList<>(KEPT + 1);
  private long intervals;

  /** Reads the preempt count's changes only: the paths and locks events need not be built for it. */
  @Override
  public void interest(TraceInterest mine) {
    mine.dropEverywhere(TraceInterest.Detail.PATHS);
    mine.dropEverywhere(TraceInterest.Detail.LOOP_EXITS_IRQS_OFF);
    mine.dropEverywhere(TraceInterest.Detail.LOCKS);
  }

  @Override
  public void preemptOff(long now, int cpu, PathView path) {
    offBy[cpu] = path;
  }

  @Override
  public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
    intervals++;
    if (worst.size() == KEPT) {
      // Full: an interval no longer than the shortest kept one is dropped (on a tie the
      // earlier one stays); otherwise the shortest makes room.
      if (lengthNs <= worst.get(KEPT - 1).lengthNs()) {
        return;
      }
      worst.remove(KEPT - 1);
    }
    Interval i = new Interval(lengthNs, now - lengthNs, cpu, offBy[cpu], path);
    int at = 0;
    while (at < worst.size() && worst.get(at).lengthNs() >= lengthNs) {
      at++;
    }
    worst.add(at, i);
  }

  /** The longest intervals, longest first (at most {@value #KEPT}). */
  public List<Interval> worst() {
    return Collections.unmodifiableList(worst);
  }

  /** Number of preempt-off intervals seen. */
  public long intervals() {
    return intervals;
  }

  /** Forgets everything (reading /proc/latencytimes reset it). */
  public void reset() {
    worst.clear();
    intervals = 0;
  }
}
