package dev.kernellab.workloads;

import java.util.List;
import java.util.Objects;

/**
 * What a workload's probe is, for whoever explains its samples: the tasks that take them, the
 * IRQ line whose interrupt starts one, and the instant a sample is measured from.
 *
 * @param tasks the names ({@code comm}) of the boot tasks that take samples
 * @param irq the IRQ line whose interrupt wakes a probe (the RTC's for realfeel and latencytest,
 *     the PIT's for cyclictest, whose timers run from the tick)
 * @param start what a sample's first instant is
 */
public record ProbeSpec(List<String> tasks, int irq, Start start) {

  /** The instant a probe's sample starts at. */
  public enum Start {
    /**
     * The assertion of the interrupt the probe waits for (realfeel and latencytest read
     * /dev/rtc): the whole latency is the kernel's.
     */
    INTERRUPT_ASSERTION,
    /**
     * The expiry the probe asked its timer for (cyclictest's absolute wake-up time): the
     * kernel's timer runs only at a tick, so the latency starts with the wait for the first tick
     * at which the timer list holds the timer as expired.
     */
    TIMER_EXPIRY
  }

  /** Checks the fields: at least one task, each named, a line of the IO-APIC. */
  public ProbeSpec {
    Objects.requireNonNull(start, "start");
    tasks = List.copyOf(tasks);
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("a probe needs at least one task");
    }
    if (irq < 0 || irq >= dev.kernellab.hw.IoApic.PINS) {
      throw new IllegalArgumentException("a probe's IRQ line is 0.." + (dev.kernellab.hw.IoApic.PINS - 1) + ", got " + irq);
    }
  }
}
