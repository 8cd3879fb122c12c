package dev.kernellab.kernel.spi;

/**
 * What a plug-in sees of a CPU at one of its hooks, read-only: which CPU, its current task, the
 * time, and the contexts that decide whether kernel code may be preempted here
 * ({@code preempt_count}, the interrupt flag, hardirq and softirq nesting, user or kernel mode).
 * The kernel's per-CPU state ({@code dev.kernellab.kernel.KernelCpu}) is the only
 * implementation; nothing a plug-in is handed through this view can change the CPU.
 */
public interface CpuView {

  /** {@code smp_processor_id()}. */
  int id();

  /** The task running here ({@code current}). */
  TaskView current();

  /** Simulated time, ns. */
  long now();

  /** True inside a hardirq or softirq context (or with bottom halves disabled). */
  boolean inInterrupt();

  /** The current task's {@code preempt_count}. */
  int preemptCount();

  /** True if the current task runs user code now (no kernel frame on top of its context). */
  boolean inUserMode();

  /** True while an interrupt handler runs here. */
  boolean inHardirqContext();

  /** True while {@code do_softirq} runs here on an interrupt's way out or at {@code local_bh_enable}. */
  boolean inSoftirqContext();

  /** Whether this CPU takes interrupts now (its interrupt flag). */
  boolean interruptsEnabled();

  /** Hardirq and softirq contexts stacked above the task now. */
  int interruptDepth();

  /** Spinlocks this CPU holds now. */
  int heldLockCount();

  /** The {@code i}-th lock this CPU holds, in the order taken (0 = outermost). */
  LockView heldLock(int i);

  /** The path running in the innermost context now. */
  PathView runningPath();

  /** The path the current task runs in kernel mode, under any interrupt, or null in user mode. */
  PathView taskKernelPath();

  /**
   * The innermost {@link LatencyCause} declared by a path running in the innermost context (the
   * running path, or a path that called it), or null where none is.
   */
  LatencyCause declaredCause();

  /**
   * At a tracer's {@link Tracer#pathExit} of a loop body (a path with a {@link PathView#site()
   * site}): how many iterations that loop ran.
   */
  long exitedLoopIterations();
}
