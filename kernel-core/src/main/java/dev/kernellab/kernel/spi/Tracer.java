package dev.kernellab.kernel.spi;

/**
 * Typed kernel events, in the spirit of ftrace's tracepoints: a collector implements the ones
 * it needs (every method has an empty default). With no tracer attached and the debug checks'
 * event ring off ({@code DebugChecks.none()}), each event costs the kernel one null check or one
 * count; with the ring on (the default), every event is also written to it. The frequent detail
 * events (paths, locks, the preempt count) fire on a CPU only while some tracer wants them there
 * ({@link #interest}, {@link TraceInterest}).
 *
 * <p>All arguments are primitives or long-lived objects: firing an event allocates nothing.
 * Times are simulated ns.
 */
public interface Tracer {

  /** One tracer that feeds every event to {@code first}, then to {@code second}. */
  static Tracer both(Tracer first, Tracer second) {
    java.util.Objects.requireNonNull(first, "first");
    java.util.Objects.requireNonNull(second, "second");
    return new TracerPair(first, second);
  }

  /** One tracer that feeds every event to each of {@code tracers}, in order. */
  static Tracer compose(Tracer... tracers) {
    if (tracers.length == 0) {
      throw new IllegalArgumentException("compose needs at least one tracer");
    }
    Tracer out = java.util.Objects.requireNonNull(tracers[0], "tracer");
    for (int i = 1; i < tracers.length; i++) {
      out = both(out, tracers[i]);
    }
    return out;
  }

  /**
   * The kernel this tracer is attached to has booted: called once, when its CPUs, its
   * preemption model and its boot tasks exist and before anything runs or any other event is
   * fired, so a tracer learns the kernel from the kernel itself rather than being told it
   * separately. A tracer that finds the kernel unfit for it (a task it needs is missing) throws
   * {@link IllegalArgumentException}, which {@code KernelBuilder.build()} passes on.
   */
  default void boot(KernelView kernel) {}

  /**
   * Which detail events this tracer wants, on which CPU and when: called once, before
   * {@link #boot}, with a handle of its own that starts by wanting every one everywhere. The
   * default keeps it so. A tracer that never reads some detail drops it here; one that needs
   * it only at times (while a probe waits for a CPU, inside a window) drops it here and asks
   * again while it needs it. A tracer that hands events on to others gives each a handle of its
   * own ({@link TraceInterest#split}).
   */
  default void interest(TraceInterest mine) {}

  /** sched_switch: {@code prev} stopped and {@code next} started on {@code cpu}. */
  default void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {}

  /** sched_wakeup: {@code task} was made runnable by code running on {@code cpu}. */
  default void schedWakeup(long now, int cpu, TaskView task) {}

  /** irq_handler_entry: {@code vector} entered on {@code cpu}. */
  default void irqEntry(long now, int cpu, int vector) {}

  /** irq_handler_exit. */
  default void irqExit(long now, int cpu, int vector) {}

  /** softirq_entry: {@code do_softirq} starts on {@code cpu}. */
  default void softirqEntry(long now, int cpu, int pending) {}

  /** softirq_exit. */
  default void softirqExit(long now, int cpu) {}

  /**
   * preempt_count left zero on {@code cpu} (preemption forbidden from now), by {@code path}.
   */
  default void preemptOff(long now, int cpu, PathView path) {}

  /** preempt_count back to zero after {@code lengthNs}. */
  default void preemptOn(long now, int cpu, PathView path, long lengthNs) {}

  /** Interrupts disabled on {@code cpu} by {@code path}. */
  default void irqsOff(long now, int cpu, PathView path) {}

  /** Interrupts enabled again after {@code lengthNs}. */
  default void irqsOn(long now, int cpu, PathView path, long lengthNs) {}

  /** {@code cpu} took {@code lock}; {@code spunNs} > 0 if it had to spin first. */
  default void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {}

  /** {@code cpu} found {@code lock} held and started to spin. */
  default void lockContend(long now, int cpu, LockView lock, PathView path) {}

  /** {@code cpu} released {@code lock} after holding it {@code heldNs}. */
  default void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {}

  /** A probe in user space recorded a latency sample. */
  default void latencySample(long now, int cpu, TaskView task, long latencyNs) {}

  /** {@code path} starts running in a frame on {@code cpu}. */
  default void pathEnter(long now, int cpu, PathView path) {}

  /** {@code path} finished on {@code cpu}; its caller (or nothing) runs from here on. */
  default void pathExit(long now, int cpu, PathView path) {}
}
