package dev.kernellab.anatomy;

import java.util.List;
import java.util.Objects;

/**
 * One latency sample split into its parts, in time order, whose lengths add up to the sample,
 * and the culprit: the cause of the part that dominates.
 *
 * <p>A holder that a real-time waiter could not preempt by priority comes wrapped in a
 * {@link Cause.PriorityNotLower} around what it ran, so a test of what held the CPU looks
 * through the wrapper with {@link Cause#unwrapped}:
 *
 * <pre>{@code
 * SampleAnatomy worst = anatomy.worst().get(0);
 * if (Cause.unwrapped(worst.culprit()) instanceof Cause.LentPriority l) {
 *   System.out.println(l.task() + " on a loan of " + l.priority() + " for " + l.ns() + " ns");
 * }
 * if (worst.culprit() instanceof Cause.PriorityNotLower p) {
 *   System.out.println(p.holder() + " outranks or equals " + p.waiter());
 * }
 * }</pre>
 *
 * @param latencyNs the sample
 * @param atNs when it ended (the probe back in user mode)
 * @param cpu the CPU the probe ran on
 * @param probe the probe task
 * @param segments the parts, in time order
 */
public record SampleAnatomy(long latencyNs, long atNs, int cpu, TaskId probe, List<Segment> segments) {

  /** Checks that the parts add up to the sample. */
  public SampleAnatomy {
    Objects.requireNonNull(probe, "probe");
    segments = List.copyOf(segments);
    if (segments.isEmpty()) {
      throw new IllegalArgumentException("a sample has at least one part");
    }
    long sum = 0;
    for (Segment s : segments) {
      sum += s.ns();
    }
    if (sum != latencyNs) {
      throw new IllegalArgumentException("the parts add up to " + sum + " ns, the sample is " + latencyNs + " ns");
    }
  }

  /**
   * The part that took longest (the earliest of equals) of those the kernel's state made: the
   * timer's granularity is what a 2.4 timer promises (a jiffy's rounding), not a latency any
   * patch could remove, so it dominates only a sample that has nothing else.
   */
  public Segment dominant() {
    Segment best = null;
    for (Segment s : segments) {
      if (s.part() != Part.TIMER_GRANULARITY && (best == null || s.ns() > best.ns())) {
        best = s;
      }
    }
    Segment timer = segment(Part.TIMER_GRANULARITY).orElse(null);
    if (best == null || (best.ns() == 0 && timer != null)) {
      return timer != null ? timer : segments.get(0);
    }
    return best;
  }

  /** The cause of the dominant part: what made this sample as long as it was. */
  public Cause culprit() {
    return dominant().cause();
  }

  /** The part {@code part}, if the sample has it. */
  public java.util.Optional<Segment> segment(Part part) {
    return segments.stream().filter(s -> s.part() == part).findFirst();
  }
}
