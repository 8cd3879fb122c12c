package dev.kernellab.kernel;

/**
 * One tracer's say in which of the kernel's frequent events it is told of, on which CPU and
 * when: the {@link Detail detail} events (paths entered and left, locks, preempt count changes)
 * come by the hundred thousand a simulated second, and most tracers need them only at times or
 * not at all. A tracer gets its own handle once, before {@link Tracer#boot}, through
 * {@link Tracer#interest}; a handle starts by wanting every detail on every CPU, so a tracer
 * that says nothing is told of every event, as before.
 *
 * <pre>{@code
 * public void interest(TraceInterest mine) {
 *   this.mine = mine;
 *   mine.dropEverywhere(TraceInterest.Detail.PATHS);     // not now...
 * }
 * public void schedWakeup(long now, int cpu, Task t) {
 *   mine.want(TraceInterest.Detail.PATHS, t.cpu());       // ...but while a probe waits there
 * }
 * }</pre>
 *
 * <p>The kernel fires a detail event on a CPU when any tracer wants it there, and then to
 * every tracer attached (they are composed as one, {@link Tracer#both}): a tracer may be told of
 * events it did not ask for, and must take them as it would at any time. Raising and dropping
 * is a few field writes and allocates nothing, so a tracer may do it from its event methods.
 *
 * <p>Two things follow. A tracer that starts wanting a detail mid-run can be told of an end
 * whose start it was not told of ({@code pathExit} without {@code pathEnter},
 * {@code lockRelease} without {@code lockAcquire}, {@code preemptOn} without
 * {@code preemptOff}): one that keeps a stack must not let it underflow. And the kernel's debug
 * event ring ({@link DebugChecks}, on by default) wants every detail, so dropping saves nothing
 * while it is on.
 */
public final class TraceInterest {

  /*
   * Implementation overview
   *
   * Each KernelCpu keeps, per detail, how many handles want it there (pathTracers,
   * irqsOffLoopTracers, lockTracers, preemptTracers): plain ints the interpreter reads before
   * building an event, zero when no tracer is attached. A handle keeps its own wants in
   * wants[detail][cpu] and moves a count only when its own want changes, so a handle can
   * neither count twice nor drop another's. Composed tracers each get a handle of their own
   * (split): the counts are the union of what they want.
   */

  /** The events a tracer may ask for only when it needs them. */
  public enum Detail {
    /** {@link Tracer#pathEnter} and {@link Tracer#pathExit} of every path. */
    PATHS,
    /**
     * {@link Tracer#pathExit} of a loop body (a path with a {@link KernelPath#site() site}) that
     * ends with interrupts off, where {@link KernelCpu#exitedLoopIterations()} tells how many
     * iterations an interrupts-off stretch ran; included in {@link #PATHS}.
     */
    LOOP_EXITS_IRQS_OFF,
    /** {@link Tracer#lockAcquire}, {@link Tracer#lockContend} and {@link Tracer#lockRelease}. */
    LOCKS,
    /** {@link Tracer#preemptOff} and {@link Tracer#preemptOn}. */
    PREEMPT
  }

  private static final Detail[] DETAILS = Detail.values();

  private final KernelCpu[] cpus;
  private final boolean[][] wants; // [detail][cpu]: this handle wants it there now

  /** A handle on {@code cpus} that wants every detail everywhere (and counts so). */
  TraceInterest(KernelCpu[] cpus) {
    this.cpus = cpus;
    this.wants = new boolean[DETAILS.length][cpus.length];
    for (Detail d : DETAILS) {
      for (int c = 0; c < cpus.length; c++) {
        want(d, c);
      }
    }
  }

  /**
   * Another handle on the same kernel, wanting every detail everywhere until told otherwise:
   * for a tracer that hands events on to several others, one handle for each.
   */
  public TraceInterest split() {
    return new TraceInterest(cpus);
  }

  /** The CPUs this handle speaks for: 0 to {@code cpuCount() - 1}. */
  public int cpuCount() {
    return cpus.length;
  }

  /** True if this handle wants {@code d} on {@code cpu} now. */
  public boolean wants(Detail d, int cpu) {
    return wants[d.ordinal()][check(cpu)];
  }

  /** From now on this tracer wants {@code d} on {@code cpu} (nothing if it did already). */
  public void want(Detail d, int cpu) {
    boolean[] w = wants[d.ordinal()];
    if (!w[check(cpu)]) {
      w[cpu] = true;
      count(cpus[cpu], d, 1);
    }
  }

  /** From now on this tracer does not need {@code d} on {@code cpu} (nothing if it did not). */
  public void drop(Detail d, int cpu) {
    boolean[] w = wants[d.ordinal()];
    if (w[check(cpu)]) {
      w[cpu] = false;
      count(cpus[cpu], d, -1);
    }
  }

  /** {@link #want} on every CPU. */
  public void wantEverywhere(Detail d) {
    for (int c = 0; c < cpus.length; c++) {
      want(d, c);
    }
  }

  /** {@link #drop} on every CPU. */
  public void dropEverywhere(Detail d) {
    for (int c = 0; c < cpus.length; c++) {
      drop(d, c);
    }
  }

  private int check(int cpu) {
    if (cpu < 0 || cpu >= cpus.length) {
      throw new IndexOutOfBoundsException("cpu" + cpu + ": this kernel has " + cpus.length + " CPUs");
    }
    return cpu;
  }

  private static void count(KernelCpu c, Detail d, int delta) {
    switch (d) {
      case PATHS -> c.pathTracers += delta;
      case LOOP_EXITS_IRQS_OFF -> c.irqsOffLoopTracers += delta;
      case LOCKS -> c.lockTracers += delta;
      case PREEMPT -> c.preemptTracers += delta;
    }
  }
}
