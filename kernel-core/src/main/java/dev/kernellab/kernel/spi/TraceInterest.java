package dev.kernellab.kernel.spi;

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
 * public void schedWakeup(long now, int cpu, TaskView t) {
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
 * event ring ({@code DebugChecks}, on by default) wants every detail, so dropping saves nothing
 * while it is on.
 */
public interface TraceInterest {

  /** The kinds of detail event. */
  enum Detail {
    /** {@link Tracer#pathEnter} and {@link Tracer#pathExit} of every path. */
    PATHS,
    /**
     * {@link Tracer#pathExit} of a loop body (a path with a {@link PathView#site() site}) that
     * ran with interrupts off, even where PATHS is not wanted.
     */
    LOOP_EXITS_IRQS_OFF,
    /** {@link Tracer#lockAcquire}, {@link Tracer#lockContend} and {@link Tracer#lockRelease}. */
    LOCKS,
    /** {@link Tracer#preemptOff} and {@link Tracer#preemptOn}. */
    PREEMPT
  }

  /** A second handle on the same kernel, wanting everything, for a tracer composed beside this one. */
  TraceInterest split();

  /** CPUs of the kernel. */
  int cpuCount();

  /** True if this handle wants {@code d} on {@code cpu} now. */
  boolean wants(Detail d, int cpu);

  /** This handle wants {@code d} on {@code cpu} from now on. */
  void want(Detail d, int cpu);

  /** This handle no longer wants {@code d} on {@code cpu}. */
  void drop(Detail d, int cpu);

  /** {@link #want} on every CPU. */
  void wantEverywhere(Detail d);

  /** {@link #drop} on every CPU. */
  void dropEverywhere(Detail d);
}
