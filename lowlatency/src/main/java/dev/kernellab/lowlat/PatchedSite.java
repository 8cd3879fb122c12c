package dev.kernellab.lowlat;

import dev.kernellab.kernel.Site;
import java.util.List;
import java.util.Objects;

/**
 * One hunk of the low-latency patch, at one {@link Site} of the kernel-paths catalog.
 *
 * @param site the catalog loop the hunk changes
 * @param technique conditional schedule or lock break
 * @param locks for a lock break, the locks held at the site, outermost first: the break drops
 *     them all, schedules, and retakes them (empty for a conditional schedule)
 * @param everyN 1 = test on every iteration; N = Morton's counted variant
 *     ({@code TEST_RESCHED_COUNT(N)}, or a chunk of N pages)
 * @param revalidateNs what the code pays after retaking the lock (re-find its place, restart
 *     a walk, drop a pin)
 * @param hunk the patch hunk in words: file, function, what it does
 * @param source where {@code revalidateNs} comes from
 */
public record PatchedSite(
    Site site,
    Technique technique,
    List<String> locks,
    int everyN,
    long revalidateNs,
    String hunk,
    String source) {

  /** Validates the hunk against its technique. */
  public PatchedSite {
    Objects.requireNonNull(site, "site");
    Objects.requireNonNull(technique, "technique");
    locks = List.copyOf(locks);
    if (technique == Technique.LOCK_BREAK && locks.isEmpty()) {
      throw new IllegalArgumentException(site + ": a lock break needs the lock it breaks");
    }
    if (technique == Technique.CONDITIONAL_SCHEDULE && (!locks.isEmpty() || revalidateNs != 0)) {
      throw new IllegalArgumentException(site + ": a conditional schedule holds no lock");
    }
    if (everyN < 1 || revalidateNs < 0) {
      throw new IllegalArgumentException(site + ": need everyN >= 1 and revalidateNs >= 0");
    }
    if (hunk.isBlank() || source.isBlank()) {
      throw new IllegalArgumentException(site + ": every hunk says what it is and its source");
    }
  }

  /** A conditional schedule on every iteration. */
  /** A conditional schedule at {@code site}. */
  public static PatchedSite cs(Site site, String hunk) {
    return new PatchedSite(site, Technique.CONDITIONAL_SCHEDULE, List.of(), 1, 0, hunk, "no lock: nothing to revalidate");
  }

  /** A lock break of {@code locks} every {@code everyN} iterations. */
  /** A lock break of {@code locks} (outermost first) at {@code site}. */
  public static PatchedSite lb(
      Site site, List<String> locks, int everyN, long revalidateNs, String hunk, String source) {
    return new PatchedSite(site, Technique.LOCK_BREAK, locks, everyN, revalidateNs, hunk, source);
  }

  /** One line for listings: {@code lock break (dcache_lock), every 100, +0 ns}. */
  public String describe() {
    StringBuilder sb = new StringBuilder(technique.kernelName());
    if (!locks.isEmpty()) {
      sb.append(" (").append(String.join(", ", locks)).append(')');
    }
    if (everyN > 1) {
      sb.append(", every ").append(everyN);
    }
    if (technique == Technique.LOCK_BREAK) {
      sb.append(", +").append(revalidateNs).append(" ns");
    }
    return sb.toString();
  }
}
