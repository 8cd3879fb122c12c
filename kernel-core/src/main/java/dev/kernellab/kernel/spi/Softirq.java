package dev.kernellab.kernel.spi;

import dev.kernellab.hw.Models;

/**
 * The softirq vectors of include/linux/interrupt.h (2.4.17), in priority order: lower runs
 * first in {@code do_softirq}. In 2.4 the timer list runs as the TIMER_BH bottom half, which
 * itself runs from the HI_SOFTIRQ tasklet; the model runs kernel timers under {@link #HI}.
 */
public enum Softirq {
  /** HI_SOFTIRQ: high-priority tasklets and the old bottom halves (TIMER_BH). */
  HI,
  /** NET_TX_SOFTIRQ. */
  NET_TX,
  /** NET_RX_SOFTIRQ: the network receive path. */
  NET_RX,
  /** TASKLET_SOFTIRQ. */
  TASKLET;

  /** The softirq's bit in the pending mask ({@code 1 << nr}, as {@code __cpu_raise_softirq} sets it). */
  @Models(file = "include/linux/interrupt.h", function = "__cpu_raise_softirq", version = "2.4.17")
  public int bit() {
    return 1 << ordinal();
  }
}
