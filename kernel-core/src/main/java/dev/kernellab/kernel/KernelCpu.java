package dev.kernellab.kernel;

import dev.kernellab.hw.Cpu;
import dev.kernellab.hw.Machine;
import dev.kernellab.hw.sim.Event;
import java.util.SplittableRandom;

/**
 * The kernel's per-CPU state: the running task, the idle task, the interrupt and softirq
 * contexts stacked above the task, and the pending softirqs ({@code irq_stat[cpu]} and
 * {@code cpu_curr} of 2.4). Also what an {@link Action} sees of the kernel while it runs.
 */
public final class KernelCpu {

  /** Deepest nesting of hardirq and softirq contexts above a task. */
  static final int MAX_CONTEXTS = 32;

  final Kernel kernel;
  final int id;
  final Cpu cpu;
  Task current;
  Task idle;
  final ExecContext[] contexts = new ExecContext[MAX_CONTEXTS];
  int contextDepth; // hardirq/softirq contexts above the task context
  int softirqPending;
  final SplittableRandom irqRandom;
  final Event kick;
  boolean dispatching;
  long switchedInNs;
  long irqsOffSinceNs;
  long preemptOffSinceNs;
  final SpinLock[] held = new SpinLock[64]; // locks held on this CPU, in acquisition order
  int heldCount;

  KernelCpu(Kernel kernel, int id, Cpu cpu, SplittableRandom irqRandom) {
    this.kernel = kernel;
    this.id = id;
    this.cpu = cpu;
    this.irqRandom = irqRandom;
    this.kick = new Event("cpu" + id + ".kick", now -> kernel.kicked(this));
    for (int i = 0; i < MAX_CONTEXTS; i++) {
      contexts[i] = new ExecContext(null, ExecContext.Kind.HARDIRQ);
    }
  }

  ExecContext top() {
    return contextDepth > 0 ? contexts[contextDepth - 1] : current.context;
  }

  /** The CPU number. */
  public int id() {
    return id;
  }

  /** The task running on this CPU (interrupt handlers run on its stack). */
  public Task current() {
    return current;
  }

  /** This CPU's idle task. */
  public Task idleTask() {
    return idle;
  }

  /** The kernel. */
  public Kernel kernel() {
    return kernel;
  }

  /** The machine, for driver actions (device registers). */
  public Machine machine() {
    return kernel.machine();
  }

  /** The hardware CPU. */
  public Cpu hardware() {
    return cpu;
  }

  /** Simulated time, ns. */
  public long now() {
    return kernel.now();
  }

  /** True inside a hardirq or softirq context (or with bottom halves disabled). */
  public boolean inInterrupt() {
    return PreemptCount.inInterrupt(current.preemptCount);
  }

  /** The current task's preempt_count. */
  public int preemptCount() {
    return current.preemptCount;
  }

  /** Wakes the waiters of {@code wq} as {@code wake_up} does; returns how many woke. */
  public int wakeUp(WaitQueue wq) {
    return kernel.wakeUpQueue(this, wq);
  }

  /** {@code wake_up_process(t)}. */
  public boolean wakeUpProcess(Task t) {
    return kernel.wakeUpTask(this, t);
  }

  /** {@code raise_softirq(s)} on this CPU. */
  public void raiseSoftirq(Softirq s) {
    softirqPending |= s.bit();
  }

  @Override
  public String toString() {
    return "cpu" + id;
  }
}
