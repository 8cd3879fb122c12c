package dev.kernellab.kernel;

/**
 * A violation of a kernel rule, raised like an oops: "scheduling while atomic", sleeping with
 * a spinlock held, unlocking a lock that is not held, preempt_count underflow, or an internal
 * inconsistency of the model itself. The message's first line names the check and what broke;
 * the {@link #oops() report} below it gives what a bug report needs: the CPU, the task, every
 * context on the CPU with its frames (path, operation, site), the locks held, the preempt count
 * and the interrupt flag, the other CPUs, and the last few dozen kernel events (while the
 * {@link DebugChecks#recentEvents} ring is on).
 */
public final class KernelBug extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String check;
  private final String detail;
  private final String oops;

  KernelBug(String check, String detail, String oops, Throwable cause) {
    super("BUG: " + check + ": " + detail + (oops.isEmpty() ? "" : "\n" + oops), cause);
    this.check = check;
    this.detail = detail;
    this.oops = oops;
  }

  /** The name of the check that fired, e.g. {@code "scheduling while atomic"}. */
  public String check() {
    return check;
  }

  /** What broke, in one line: {@code "BUG: <check>: <detail>"} without the report. */
  public String summary() {
    return "BUG: " + check + ": " + detail;
  }

  /** The multi-line report: CPU, task, contexts and frames, locks, counts, last events. */
  public String oops() {
    return oops;
  }
}
