package dev.kernellab.anatomy;

/**
 * The parts a latency sample splits into, in the order they happen. A sample from an interrupt's
 * assertion (realfeel) has all but {@link #TIMER_GRANULARITY}; a sample from a timer's expiry
 * (cyclictest) has all five.
 */
public enum Part {
  /**
   * From the expiry the probe asked for to the assertion of the tick whose timer list found it
   * expired: 2.4's timers run only at a tick, and {@code sys_nanosleep} rounds a sleep up to
   * whole jiffies and adds one (kernel/timer.c, 2.4.17).
   */
  TIMER_GRANULARITY,
  /** From the interrupt's assertion to its handler's entry: what kept interrupts off. */
  INTERRUPT_LATENCY,
  /**
   * From the handler's entry to the probe's wake-up: the driver, and the softirqs and interrupts
   * it let in. Where the line's handler runs in a thread (a patch threads interrupts), or, for a
   * timer's expiry, where the timer's softirq runs in {@code ktimers/N} (a patch threads
   * softirqs), only the hard interrupt up to the thread's wake-up; then
   * {@link #WAIT_FOR_HANDLER_THREAD} and {@link #HANDLER_THREAD}.
   */
  HANDLER,
  /**
   * From the handler thread's wake-up to the switch to it: what held the CPU while the line's
   * {@code irq/N} thread (or the timer's {@code ktimers/N}) waited for it. Only where the line
   * (or the softirq) is threaded.
   */
  WAIT_FOR_HANDLER_THREAD,
  /**
   * From the switch to the handler thread to the probe's wake-up: the driver (or the timer
   * list), in its thread, with whatever interrupted or preempted the thread meanwhile.
   */
  HANDLER_THREAD,
  /** From the wake-up to the switch to the probe: what held the CPU. */
  WAIT_FOR_CPU,
  /** From the switch to the probe's return to user mode: schedule(), the switch, the return path. */
  SWITCH_TO_USER
}
