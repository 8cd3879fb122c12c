package dev.kernellab.kernel.spi;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.Machine;
import java.util.List;
import java.util.Optional;

/**
 * What a tracer is shown of the kernel it is attached to, at boot and for the rest of the run,
 * read-only: the machine's shape, time, the CPUs and the tasks, the preemption model, and the
 * paths patches hooked at the catalog's sites. The kernel's {@code dev.kernellab.kernel.Kernel}
 * is the only implementation; a library user drives that one.
 */
public interface KernelView {

  /** Number of CPUs. */
  int cpuCount();

  /** Timer frequency (HZ). */
  int hz();

  /** {@code jiffies}. */
  long jiffies();

  /** Simulated time, ns. */
  long now();

  /** The machine's cost table. */
  CostTable costs();

  /** The simulated hardware. */
  Machine machine();

  /** The task running on {@code cpu}. */
  TaskView current(int cpu);

  /** The idle task of {@code cpu}. */
  TaskView idle(int cpu);

  /** Every task that exists (not dead), in pid order. */
  List<? extends TaskView> allTasks();

  /** The task of pid {@code pid}, if it exists. */
  Optional<? extends TaskView> task(int pid);

  /** The first task (lowest pid) named {@code comm}, if one exists. */
  Optional<? extends TaskView> task(String comm);

  /** Whether and how this kernel preempts kernel code. */
  PreemptionModel preemptionModel();

  /** CPU {@code cpu}. */
  CpuView cpu(int cpu);

  /** The path a patch hooked at {@code site}, if one did. */
  Optional<? extends PathView> hookAt(Site site);

  /**
   * The kernel thread that runs IRQ line {@code irq}'s handler, where a patch threads
   * interrupts ({@link Patching#threadInterrupts()}); empty where the handler runs in the hard
   * interrupt.
   */
  Optional<? extends TaskView> irqThread(int irq);

  /**
   * {@code cpu}'s timer softirq thread ({@code ktimers/N}) where a patch threads softirqs
   * ({@link Patching#threadSoftirqs()}); empty otherwise.
   */
  Optional<? extends TaskView> timerSoftirqThread(int cpu);

  /**
   * True where a patch made {@code spinlock_t} sleep ({@link Patching#sleepingSpinlocks()}): a
   * lock that still spins there is a {@code raw_spinlock_t} or an rwlock.
   */
  boolean spinlocksSleep();
}
