package dev.kernellab.anatomy;

import java.util.List;
import java.util.Objects;

/**
 * One part of a sample: its length, its cause, and, for the wait for the CPU, each thing that
 * held the CPU in turn.
 *
 * @param part which part
 * @param ns its length
 * @param cause why it took that long: for a wait, the cause of its longest holder
 * @param holders for {@link Part#WAIT_FOR_CPU} and {@link Part#WAIT_FOR_HANDLER_THREAD}: what held the CPU, in the order each first held
 *     it, adding up to {@code ns} exactly; empty for the other parts and for a wait nothing held
 */
public record Segment(Part part, long ns, Cause cause, List<Cause.Holding> holders) {

  /** Checks that the holders add up to the part. */
  public Segment {
    Objects.requireNonNull(part, "part");
    Objects.requireNonNull(cause, "cause");
    holders = List.copyOf(holders);
    if (ns < 0) {
      throw new IllegalArgumentException(part + ": a negative length, " + ns + " ns");
    }
    long sum = 0;
    for (Cause.Holding h : holders) {
      sum += h.ns();
    }
    if (!holders.isEmpty() && sum != ns) {
      throw new IllegalArgumentException(part + " of " + ns + " ns: its holders add up to " + sum + " ns");
    }
  }

  /** A part with a single cause. */
  public static Segment of(Part part, long ns, Cause cause) {
    return new Segment(part, ns, cause, List.of());
  }
}
