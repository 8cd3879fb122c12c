package dev.kernellab.kernel;

/**
 * A violation of a kernel rule, raised like an oops: "scheduling while atomic", sleeping with
 * a spinlock held, unlocking a lock that is not held, preempt_count underflow. Carries where it
 * happened: the task, the CPU, the path and site, the simulated time.
 */
public final class KernelBug extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String check;

  KernelBug(String check, String detail) {
    super("BUG: " + check + ": " + detail);
    this.check = check;
  }

  /** The name of the check that fired, e.g. {@code "scheduling while atomic"}. */
  public String check() {
    return check;
  }
}
