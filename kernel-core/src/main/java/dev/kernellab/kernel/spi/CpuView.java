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
}
