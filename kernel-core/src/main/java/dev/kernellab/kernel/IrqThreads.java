package dev.kernellab.kernel;

import dev.kernellab.hw.IoApic;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.Pit;
import dev.kernellab.kernel.spi.Site;
import java.util.Map;

/**
 * Forced interrupt threading as PREEMPT_RT runs it: every device line's handler runs in a
 * kernel thread {@code irq/N-name} at SCHED_FIFO, and the hard interrupt only marks the thread's
 * work and wakes it. The timer's line stays a hard interrupt (its handler is the tick;
 * IRQF_TIMER is never threaded), as do the IPIs.
 *
 * <p>What the hard interrupt runs is {@code irq_default_primary_handler}, which returns
 * IRQ_WAKE_THREAD: {@code __irq_wake_thread} sets IRQTF_RUNTHREAD and wakes the thread. The
 * thread ({@code irq_thread}) sleeps in {@code irq_wait_for_interrupt} until the bit is set,
 * clears it, and runs the handler as {@code irq_forced_thread_fn} does under PREEMPT_RT: with
 * interrupts on and preemptible, since RT's {@code local_bh_disable()} is a per-CPU lock that
 * leaves the preempt count alone; the softirqs the handler raises run at the section's
 * {@code local_bh_enable()}, in the thread. The model runs the handler with nothing around it
 * and then an empty bottom-half section, whose enable runs what the handler raised: a 2.4
 * {@code local_bh_disable()} would raise the preempt count and make the handler
 * non-preemptible. (Without PREEMPT_RT, mainline's {@code threadirqs} also turns interrupts off
 * around the handler; that is not this model.) An interrupt that arrives while
 * the handler runs sets the bit again and the thread runs once more, as IRQ_PENDING did in 2.4.
 * The line is not masked meanwhile (IRQF_ONESHOT's mask is left out): the model's devices raise
 * their next interrupt only after the handler has run (the disk starts its next request in
 * it, the RTC ticks at its rate), so the mask would change nothing they do.
 *
 * <p>The sources are mainline's (kernel/irq/manage.c, 6.12): the threads did not exist in 2.4;
 * Ingo Molnar's realtime-preempt patch brought them in 2004 ("[patch] Real-Time Preemption,
 * -RT-2.6.9-rc4-mm1-U0", LKML, 11 Oct 2004) and mainline took the mechanism in 2.6.30.
 */
@Models(file = "kernel/irq/manage.c", function = "irq_setup_forced_threading", version = "6.12")
@Models(file = "kernel/irq/manage.c", function = "irq_default_primary_handler", version = "6.12")
@Models(file = "kernel/irq/manage.c", function = "irq_thread", version = "6.12")
@Models(file = "kernel/irq/manage.c", function = "irq_forced_thread_fn", version = "6.12")
final class IrqThreads {

  /**
   * The priority of a handler thread: {@code setup_irq_thread} gives {@code MAX_RT_PRIO / 2}
   * (kernel/irq/manage.c; {@code MAX_USER_RT_PRIO / 2} before 5.9, also 50).
   */
  static final int DEFAULT_PRIORITY = 50;

  /** The thread's loop: {@code while (!irq_wait_for_interrupt(action)) { ... }}. */
  static final Site LOOP = new Site("kernel/irq/manage.c", "irq_thread", "while (!irq_wait_for_interrupt())");

  private IrqThreads() {}

  /** The thread's name, {@code "irq/%d-%s"} of {@code setup_irq_thread}. */
  static String comm(int irq, String name) {
    return "irq/" + irq + "-" + name;
  }

  /**
   * Threads every device line of {@code k} that has a handler: its hard handler becomes the
   * primary, and its thread is spawned by {@code lifecycle}, at the priority
   * {@code priorities} gives its line or {@link #DEFAULT_PRIORITY}.
   */
  static void install(Kernel k, TaskLifecycle lifecycle, Map<Integer, Integer> priorities) {
    IoApic apic = k.machine().ioApic();
    for (int irq = 0; irq < IoApic.PINS; irq++) {
      if (irq == Pit.IRQ) {
        continue;
      }
      int vector = apic.vectorOf(irq);
      Kernel.IrqAction action = k.actionFor(vector);
      if (action == null) {
        continue;
      }
      String comm = comm(irq, action.name());
      boolean[] runThread = {false}; // IRQTF_RUNTHREAD of this line's action
      WaitQueue wq = new WaitQueue(comm);
      KernelPath primary = KernelPath.path("kernel/irq/manage.c", "irq_default_primary_handler")
          .effect("__irq_wake_thread: set_bit(IRQTF_RUNTHREAD)", c -> runThread[0] = true)
          .wakeUp(wq)
          .build();
      k.setIrqAction(vector, new Kernel.IrqAction(action.name(), primary, true));
      KernelPath thread = KernelPath.path("kernel/irq/manage.c", "irq_thread")
          .loop(LOOP, Long.MAX_VALUE, l -> l
              .waitEvent(wq, () -> runThread[0])
              .effect("irq_wait_for_interrupt: test_and_clear_bit(IRQTF_RUNTHREAD)", c -> runThread[0] = false)
              .call(action.handler())
              .localBhDisable()
              .localBhEnable())
          .build();
      k.setIrqThread(irq,
          lifecycle.spawn(TaskSpec.kernelThread(comm, thread).fifo(priorities.getOrDefault(irq, DEFAULT_PRIORITY))));
    }
  }
}
