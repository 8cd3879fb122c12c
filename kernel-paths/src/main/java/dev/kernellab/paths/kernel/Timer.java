package dev.kernellab.paths.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.paths.CatalogEntry;
import java.util.List;

/**
 * Models kernel/timer.c {@code sys_nanosleep()} (2.4.17), and lists the timer interrupt
 * (arch/i386/kernel/time.c {@code timer_interrupt}, {@code do_timer}), which kernel-core
 * installs on IRQ 0 itself.
 */
public final class Timer {

  /** copy_from_user of the timespec, timespec_to_jiffies: assumption, 300 ns. */
  public static final long NANOSLEEP_SETUP_NS = 300;

  private Timer() {}

  /**
   * nanosleep(2) of {@code ns}: rounded up to jiffies plus one, or a udelay busy-wait for a
   * real-time task asking for 2 ms or less, as 2.4.17 does.
   */
  @Models(file = "kernel/timer.c", function = "sys_nanosleep", version = "2.4.17")
  public static KernelPath sysNanosleep(long ns) {
    return KernelPath.path("kernel/timer.c", "sys_nanosleep")
        .compute(NANOSLEEP_SETUP_NS)
        .nanosleep(Distribution.fixed(ns))
        .build();
  }

  /** The rows of this file; {@code pitReadNs} is the machine's PIT latch cost. */
  public static List<CatalogEntry> entries(long pitReadNs) {
    KernelPath listing =
        KernelPath.path("arch/i386/kernel/time.c", "timer_interrupt")
            .compute(pitReadNs)
            .build();
    return List.of(
        new CatalogEntry(
            "sys_nanosleep", sysNanosleep(1_000_000), List.of(),
            NANOSLEEP_SETUP_NS, NANOSLEEP_SETUP_NS, "none: fixed (the sleep is not CPU time)",
            "assumption"),
        new CatalogEntry(
            "timer_interrupt (kernel-core)", listing, List.of("irqs off (SA_INTERRUPT)"),
            pitReadNs, pitReadNs, "none; the timer softirq it raises runs the timer list",
            "PIT latch read, CostTable.pitReadNs (docs/hardware-and-costs.md, PIT)"));
  }
}
