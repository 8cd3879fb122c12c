package dev.kernellab.kernel;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A light lock-order validator: remembers, for each lock, the locks ever taken while it was
 * held, and reports the first pair taken in both orders (the AB-BA deadlock). In the spirit of
 * the 2.6 lockdep, reduced to direct pairs.
 */
final class LockOrder {

  // Lookups only (never iterated), so identity hashing cannot leak into any output order.
  private final IdentityHashMap<SpinLock, List<SpinLock>> takenAfter = new IdentityHashMap<>();

  /**
   * Records that {@code next} is taken while {@code held} is held.
   *
   * @return false if {@code held} was earlier taken while holding {@code next}
   */
  boolean record(SpinLock held, SpinLock next) {
    List<SpinLock> reverse = takenAfter.get(next);
    if (reverse != null && reverse.contains(held)) {
      return false;
    }
    List<SpinLock> after = takenAfter.computeIfAbsent(held, l -> new ArrayList<>(4));
    if (!after.contains(next)) {
      after.add(next);
    }
    return true;
  }
}
