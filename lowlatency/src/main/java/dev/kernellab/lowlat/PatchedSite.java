package dev.kernellab.lowlat;

import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogLock;
import java.util.List;
import java.util.Objects;

/**
 * One hunk of the low-latency patch, at one {@link Site} of the kernel-paths catalog.
 *
 * @param site the catalog loop the hunk changes
 * @param technique conditional schedule or lock break
 * @param locks for a lock break, the catalog's locks held at the site, outermost first: the
 *     break drops them all, schedules, and retakes them (empty for a conditional schedule)
 * @param cadence how often the hunk looks, and whether the sysctl gates it
 * @param n the count of {@code TEST_RESCHED_COUNT(n)} or the chunk length; 1 for
 *     {@link Cadence#EVERY_ITERATION}
 * @param revalidateNs what the code pays after retaking the lock (re-find its place, restart
 *     a walk, drop a pin)
 * @param hunk the patch hunk in words: file, function, what it does
 * @param source where {@code revalidateNs} comes from
 */
public record PatchedSite(
    Site site,
    Technique technique,
    List<CatalogLock> locks,
    Cadence cadence,
    int n,
    long revalidateNs,
    String hunk,
    String source) {

  /** Validates the hunk against its technique. */
  public PatchedSite {
    Objects.requireNonNull(site, "site");
    Objects.requireNonNull(technique, "technique");
    Objects.requireNonNull(cadence, "cadence");
    locks = List.copyOf(locks);
    if (technique == Technique.LOCK_BREAK && locks.isEmpty()) {
      throw new IllegalArgumentException(site + ": a lock break needs the lock it breaks");
    }
    if (technique == Technique.CONDITIONAL_SCHEDULE && (!locks.isEmpty() || revalidateNs != 0)) {
      throw new IllegalArgumentException(site + ": a conditional schedule holds no lock");
    }
    if (technique == Technique.CONDITIONAL_SCHEDULE && cadence == Cadence.CHUNK) {
      throw new IllegalArgumentException(site + ": a conditional schedule holds no lock to drop in chunks");
    }
    if (n < 1 || revalidateNs < 0 || (cadence == Cadence.EVERY_ITERATION && n != 1)) {
      throw new IllegalArgumentException(site + ": need n >= 1 (1 for every iteration) and revalidateNs >= 0");
    }
    if (hunk.isBlank() || source.isBlank()) {
      throw new IllegalArgumentException(site + ": every hunk says what it is and its source");
    }
  }

  /** A {@code conditional_schedule()} on every iteration at {@code site}. */
  public static PatchedSite cs(Site site, String hunk) {
    return new PatchedSite(site, Technique.CONDITIONAL_SCHEDULE, List.of(), Cadence.EVERY_ITERATION, 1, 0,
        hunk, "no lock: nothing to revalidate");
  }

  /**
   * A {@code conditional_schedule()} behind {@code TEST_RESCHED_COUNT(n)}: looked at every n + 1
   * iterations, gated by the sysctl, no lock dropped.
   */
  public static PatchedSite csCounted(Site site, int n, String hunk) {
    return new PatchedSite(site, Technique.CONDITIONAL_SCHEDULE, List.of(), Cadence.TEST_RESCHED_COUNT, n, 0,
        hunk, "no lock: nothing to revalidate");
  }

  /** A lock break of {@code locks} (outermost first), looked at on every iteration. */
  public static PatchedSite lb(
      Site site, List<CatalogLock> locks, long revalidateNs, String hunk, String source) {
    return new PatchedSite(site, Technique.LOCK_BREAK, locks, Cadence.EVERY_ITERATION, 1, revalidateNs, hunk, source);
  }

  /** A lock break behind {@code TEST_RESCHED_COUNT(n)}: every n + 1 iterations, gated. */
  public static PatchedSite lbCounted(
      Site site, List<CatalogLock> locks, int n, long revalidateNs, String hunk, String source) {
    return new PatchedSite(site, Technique.LOCK_BREAK, locks, Cadence.TEST_RESCHED_COUNT, n, revalidateNs, hunk, source);
  }

  /** A chunked walk: drop {@code locks} every {@code n} iterations, then conditional_schedule. */
  public static PatchedSite chunked(
      Site site, List<CatalogLock> locks, int n, long costNs, String hunk, String source) {
    return new PatchedSite(site, Technique.LOCK_BREAK, locks, Cadence.CHUNK, n, costNs, hunk, source);
  }

  /** Iterations between two looks: n + 1 for TEST_RESCHED_COUNT(n), n for a chunk, else 1. */
  public int period() {
    return cadence == Cadence.TEST_RESCHED_COUNT ? n + 1 : n;
  }

  /** True if {@code /proc/sys/kernel/lowlatency} switches this hunk off. */
  public boolean gated() {
    return cadence == Cadence.TEST_RESCHED_COUNT;
  }

  /** One line for listings: {@code lock break (dcache_lock), TEST_RESCHED_COUNT(100) [sysctl], +0 ns}. */
  public String describe() {
    StringBuilder sb = new StringBuilder(technique.kernelName());
    if (!locks.isEmpty()) {
      sb.append(" (").append(String.join(", ", locks.stream().map(CatalogLock::kernelName).toList())).append(')');
    }
    switch (cadence) {
      case TEST_RESCHED_COUNT -> sb.append(", TEST_RESCHED_COUNT(").append(n).append(") [sysctl]");
      case CHUNK -> sb.append(", dropped every ").append(n);
      case EVERY_ITERATION -> {}
    }
    if (technique == Technique.LOCK_BREAK) {
      sb.append(", +").append(revalidateNs).append(" ns");
    }
    return sb.toString();
  }
}
