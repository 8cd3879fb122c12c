package dev.kernellab.kernel;

/**
 * One operation of a {@link KernelPath}: compute, a lock operation, a loop, a sleep...
 *
 * <p>The interpreter calls {@link #exec} with the frame positioned on this operation. An
 * implementation either finishes at once (advancing the frame), starts a work segment on the
 * CPU (the machine calls back when it ends), pushes frames or contexts, or switches tasks; the
 * interpreter then looks again at whatever runs on top. Operations that take several steps keep
 * their progress in {@code frame.phase}. Operations are shared by every kernel that uses the
 * path, so they hold no run-time state of their own.
 */
abstract class Op {

  /** The kind number of this operation's class, for {@link OperationProfile} (given at build time). */
  final int kind = OperationProfile.Counter.kindOf(getClass());

  abstract void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f);

  /** How the operation reads in a listing: {@code spin_lock(&dcache_lock)}. */
  abstract String describe();

  @Override
  public String toString() {
    return describe();
  }
}
