package dev.kernellab.lockbreak;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.CondReschedLock.When;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import java.util.List;

/**
 * One hunk's test and break, as the hook path that runs between two iterations of its site's
 * loop: the patch's own test and macro on kernel-core's lock-break primitive
 * ({@link dev.kernellab.kernel.CondReschedLock}), which drops the locks innermost first (each a
 * {@code spin_unlock}: under preempt a preemption point once the count is zero), runs what the
 * macro runs ({@link Macro#then()}), retakes them outermost first and pays the walk's
 * revalidation.
 *
 * <pre>
 *   if (TEST_LOCK_COUNT(n)) {               // every: n + 1 iterations (or every one)
 *     RESET_LOCK_COUNT();
 *     if (conditional_schedule_needed())    // onlyIfNeedResched
 *       break_spin_lock(&amp;l);             //   or break_spin_lock_and_resched(&amp;l)
 *   }
 * </pre>
 *
 * <p>The count is the loop's own iteration number, so a break resets it only in the sense that
 * the next one is {@code every} iterations on.
 */
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock", version = LockBreakPatch.VERSION)
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock_and_resched",
    version = LockBreakPatch.VERSION)
@Models(file = "include/linux/lock_break.h", function = "TEST_LOCK_COUNT", version = LockBreakPatch.VERSION)
final class BreakSpinLock {

  private BreakSpinLock() {}

  /** The hook path of {@code hunk}, breaking {@code held} (outermost first). */
  static KernelPath hook(BrokenSite hunk, List<SpinLock> held) {
    if (hunk.macro() == Macro.CONDITIONAL_SCHEDULE) {
      if (!held.isEmpty() || hunk.every() != 1 || !hunk.onlyIfNeedResched()) {
        throw new IllegalArgumentException(hunk.site() + ": conditional_schedule() breaks no lock and"
            + " tests need_resched on every iteration");
      }
      return KernelPath.path(hunk.site().file(), hunk.site().function() + "/conditional_schedule")
          .condResched()
          .build();
    }
    if (held.isEmpty()) {
      throw new IllegalArgumentException(hunk.site() + ": a lock break needs the lock it breaks");
    }
    // every() is n + 1 for TEST_LOCK_COUNT(n), which is ++count > n: true on the (n + 1)-th test.
    When when = When.every(hunk.every());
    if (hunk.onlyIfNeedResched()) {
      when = when.and(When.needResched()); // conditional_schedule_needed()
    }
    return KernelPath.path(hunk.site().file(), hunk.site().function() + "/lock break")
        .condReschedLock(describe(hunk, held), held, when, hunk.macro().then(), hunk.revalidateNs())
        .build();
  }

  /** How the hunk reads: {@code if (TEST_LOCK_COUNT(100)) ... break_spin_lock(&dcache_lock)}. */
  private static String describe(BrokenSite hunk, List<SpinLock> held) {
    StringBuilder locks = new StringBuilder();
    held.forEach(s -> locks.append(locks.length() == 0 ? "&" : ", &").append(s.name()));
    return (hunk.every() > 1 ? "if (TEST_LOCK_COUNT(" + (hunk.every() - 1) + ")) " : "")
        + (hunk.onlyIfNeedResched() ? "if (conditional_schedule_needed()) " : "")
        + hunk.macro().kernelName() + "(" + locks + ")";
  }
}
