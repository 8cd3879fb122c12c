package dev.kernellab.kernel.spi;

import java.util.List;

/**
 * A primitive that a patch or an extension adds to the path language, next to the built-in
 * ones ({@code compute}, {@code spin_lock}, {@code cond_resched}...): appended to a path with
 * {@code KernelPath.Builder.op(Operation)}.
 *
 * <p>An operation runs in <em>phases</em>, as a C macro that calls other kernel functions runs
 * in statements. The interpreter calls {@link #step} with phase 0 when the path reaches the
 * operation; the step looks at the CPU ({@link Step#cpu()}), may start one thing (run a
 * prebuilt path with {@link Step#call}, or spend time with {@link Step#compute}), and returns
 * the phase to be called back at once that thing is done, or {@link #DONE} when the operation is
 * finished (after what it started, if anything). A step that starts nothing and returns a phase
 * is called back at once, in the same instant.
 *
 * <p>Operations are shared by every kernel that uses the path, so they keep no run-time state
 * of their own: what must be remembered between phases is the phase number, and what a step
 * calls is built once, when the operation is made (nothing is allocated while the kernel runs).
 * An interrupt may arrive during anything a step started; the operation resumes where it was.
 *
 * <pre>{@code
 * // The low-latency patch's ll_copy_to_user(): copy_to_user() in 4 KiB chunks with a
 * // conditional_schedule() between them (include/linux/low-latency.h). Phase 2i copies
 * // chunk i, phase 2i + 1 reschedules.
 * KernelPath resched = KernelPath.path("include/linux/low-latency.h", "conditional_schedule")
 *     .condResched().build();
 * Operation copy = new Operation() {
 *   public int step(Step s, int phase) {
 *     if (phase % 2 == 0) {
 *       s.compute(CHUNK_NS);
 *       return phase / 2 == CHUNKS - 1 ? DONE : phase + 1;
 *     }
 *     s.call(resched);
 *     return phase + 1;
 *   }
 *   public String describe() { return "ll_copy_to_user(" + CHUNKS + " x 4 KiB)"; }
 * };
 * }</pre>
 *
 * <p>A lock break needs no operation of its own: it is the kernel's {@code CondReschedLock},
 * with the patch's test and what runs with the locks dropped passed in.
 *
 * <p>Part of the service-provider interface: plug-ins implement it, the kernel runs it.
 */
public interface Operation {

  /** Returned by {@link #step} when the operation is finished. */
  int DONE = -1;

  /**
   * One phase of the operation.
   *
   * @param s what the step may look at and start (valid during this call only)
   * @param phase 0 the first time, then what the previous step returned
   * @return the next phase (0 or more), or {@link #DONE}
   */
  int step(Step s, int phase);

  /** How the operation reads in a listing: {@code break_spin_lock(&dcache_lock)}. */
  String describe();

  /**
   * The paths a step may {@link Step#call}, for readers of code that do not run it (the
   * latency-source table): one of each shape is enough. None by default.
   */
  default List<? extends PathView> mayCall() {
    return List.of();
  }

  /**
   * What a step sees of the kernel and may start; the kernel implements it, one per CPU, reused
   * from step to step. A step starts at most one thing: a call or a compute.
   */
  interface Step {

    /** The CPU the operation runs on: the current task, need_resched, the locks held. */
    CpuView cpu();

    /** The kernel it runs in: the time, jiffies, the other CPUs. */
    KernelView kernel();

    /**
     * Runs {@code path} next; then the operation resumes.
     *
     * @param path a kernel path built in advance with {@code KernelPath}
     * @throws IllegalArgumentException if it is a user program or not a path the kernel built
     * @throws IllegalStateException if this step already started something
     */
    void call(PathView path);

    /**
     * Spends {@code ns} on the CPU in kernel mode; then the operation resumes.
     *
     * @throws IllegalArgumentException if {@code ns} is negative
     * @throws IllegalStateException if this step already started something
     */
    void compute(long ns);

    /**
     * Marks {@code softirq} pending on this CPU ({@code __cpu_raise_softirq}); it runs at the
     * next {@code do_softirq}, as a raise from C code does. Starts nothing.
     */
    void raiseSoftirq(Softirq softirq);
  }
}
