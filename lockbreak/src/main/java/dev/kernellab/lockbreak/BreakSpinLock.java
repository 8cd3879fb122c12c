package dev.kernellab.lockbreak;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Operation;
import dev.kernellab.kernel.SpinLock;
import java.util.List;

/**
 * The lock-break primitive, added to the path language through the public {@link Operation}
 * seam: one hunk's test and break, run between two iterations of its site's loop.
 *
 * <pre>
 *   if (TEST_LOCK_COUNT(n)) {               // every: n + 1 iterations (or every one)
 *     RESET_LOCK_COUNT();
 *     if (conditional_schedule_needed())    // onlyIfNeedResched
 *       break_spin_lock(&amp;l);             //   or break_spin_lock_and_resched(&amp;l)
 *   }
 * </pre>
 *
 * <p>Phases: 0 tests and drops the locks (innermost first: {@code spin_unlock}, under preempt a
 * preemption point once the count is zero); 1 runs {@code conditional_schedule()} for the
 * {@code _and_resched} macro; 2 retakes the locks (outermost first); 3 pays the walk's
 * revalidation. The count is the loop's own iteration number, so a break resets it only in the
 * sense that the next one is {@code every} iterations on.
 */
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock", version = LockBreakPatch.VERSION)
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock_and_resched",
    version = LockBreakPatch.VERSION)
@Models(file = "include/linux/lock_break.h", function = "TEST_LOCK_COUNT", version = LockBreakPatch.VERSION)
final class BreakSpinLock implements Operation {

  private final BrokenSite hunk;
  private final String locks;
  private final KernelPath unlock;
  private final KernelPath resched;
  private final KernelPath relock;

  BreakSpinLock(BrokenSite hunk, List<SpinLock> held) {
    if (held.isEmpty()) {
      throw new IllegalArgumentException(hunk.site() + ": a lock break needs the lock it breaks");
    }
    this.hunk = hunk;
    String file = hunk.site().file();
    String fn = hunk.site().function();
    KernelPath.Builder u = KernelPath.path(file, fn + "/" + hunk.macro().kernelName() + ": spin_unlock");
    for (int i = held.size() - 1; i >= 0; i--) {
      u.spinUnlock(held.get(i));
    }
    this.unlock = u.build();
    this.resched = KernelPath.path(file, fn + "/conditional_schedule").condResched().build();
    KernelPath.Builder l = KernelPath.path(file, fn + "/" + hunk.macro().kernelName() + ": spin_lock");
    held.forEach(l::spinLock);
    this.relock = l.build();
    StringBuilder names = new StringBuilder();
    held.forEach(s -> names.append(names.length() == 0 ? "&" : ", &").append(s.name()));
    this.locks = names.toString();
  }

  @Override
  public int step(Step s, int phase) {
    switch (phase) {
      case 0 -> {
        boolean counted = hunk.every() == 1 || s.cpu().loopIndex() % hunk.every() == 0;
        if (!counted || (hunk.onlyIfNeedResched() && !s.cpu().current().needResched())) {
          return DONE;
        }
        s.call(unlock);
        return hunk.macro() == Macro.BREAK_SPIN_LOCK_AND_RESCHED ? 1 : 2;
      }
      case 1 -> {
        s.call(resched);
        return 2;
      }
      case 2 -> {
        s.call(relock);
        return hunk.revalidateNs() > 0 ? 3 : DONE;
      }
      default -> {
        s.compute(hunk.revalidateNs());
        return DONE;
      }
    }
  }

  @Override
  public String describe() {
    return (hunk.every() > 1 ? "if (TEST_LOCK_COUNT(" + (hunk.every() - 1) + ")) " : "")
        + (hunk.onlyIfNeedResched() ? "if (conditional_schedule_needed()) " : "")
        + hunk.macro().kernelName() + "(" + locks + ")";
  }
}
