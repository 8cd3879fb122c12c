package dev.kernellab.lockbreak;

import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.Locks;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One hunk of the lock-break patch on a site of the catalog: which locks it breaks, with which
 * macro, how often it tests, and what the walk costs to pick up again after the break.
 *
 * @param site the loop the hunk sits in
 * @param locks the locks the loop holds that the hunk drops, outermost first, as references
 *     into one kernel's {@link Locks} (typed: {@code l -> List.of(l.dcacheLock)}); none for
 *     {@link Macro#CONDITIONAL_SCHEDULE}
 * @param macro what it runs
 * @param onlyIfNeedResched true if the hunk tests {@code conditional_schedule_needed()} first;
 *     false if it breaks whenever its count says so (the unlock is the only test)
 * @param every the break is considered once every {@code every} iterations: 1 for a hunk
 *     without a count, {@code n + 1} for {@code TEST_LOCK_COUNT(n)}, which is true on the
 *     {@code n + 1}-th test after a reset
 * @param revalidateNs what the walk costs to pick up after the lock is retaken
 * @param hunk what the hunk does, and how the model simplifies it
 * @param revalidateSource where {@code revalidateNs} comes from
 */
public record BrokenSite(
    Site site,
    Function<Locks, List<SpinLock>> locks,
    Macro macro,
    boolean onlyIfNeedResched,
    int every,
    long revalidateNs,
    String hunk,
    String revalidateSource) {

  /** Validates. */
  public BrokenSite {
    Objects.requireNonNull(site, "site");
    Objects.requireNonNull(locks, "locks");
    Objects.requireNonNull(macro, "macro");
    if (every < 1) {
      throw new IllegalArgumentException(site + ": a break is tested every 1 or more iterations, got " + every);
    }
    if (revalidateNs < 0) {
      throw new IllegalArgumentException(site + ": negative revalidation cost");
    }
    if (hunk.isBlank() || revalidateSource.isBlank()) {
      throw new IllegalArgumentException(site + ": a hunk needs its description and its cost's source");
    }
  }

  /** One line for listings. */
  public String describe() {
    return site.key() + ": " + macro.kernelName() + (onlyIfNeedResched ? " if need_resched" : "")
        + (every > 1 ? ", every " + every + " iterations" : "") + " - " + hunk;
  }
}
