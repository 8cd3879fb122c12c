package dev.kernellab.paths.drivers;

import static dev.kernellab.paths.Calibration.ISA_PORT_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.KernelTimer;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import java.util.List;

/**
 * Models drivers/char/rtc.c (2.4.17): {@code rtc_interrupt()} on IRQ 8 and the blocking
 * {@code rtc_read()} that realfeel and amlat sleep in.
 *
 * <p>One driver instance per kernel: it owns {@code rtc_wait} and {@code rtc_irq_data}.
 *
 * <pre>{@code
 * Rtc rtc = catalog.rtc();
 * rtc.install(builder);                          // request_irq(8, rtc_interrupt, SA_INTERRUPT)
 * KernelPath probe = userProgram("realfeel").loop("main", n, b -> b.syscall(rtc.read)...);
 * }</pre>
 */
@Models(file = "drivers/char/rtc.c", function = "rtc_interrupt", version = "2.4.17")
@Models(file = "drivers/char/rtc.c", function = "rtc_read", version = "2.4.17")
public final class Rtc {

  /*
   * Implementation overview
   *
   * rtc_interrupt, registered SA_INTERRUPT (interrupts stay off), takes rtc_lock, adds 0x100 to
   * rtc_irq_data (the count of periods since the last read lives in the upper bits, so a slow
   * reader loses nothing: 2.4.17 drivers/char/rtc.c rtc_interrupt()), reads register C to
   * acknowledge, and wakes rtc_wait. rtc_read sleeps until rtc_irq_data is non-zero, then takes and
   * clears it under spin_lock_irq(rtc_lock) and put_user()s it.
   */

  /** RTC_IRQ: the MC146818's ISA line 8. */
  public static final int IRQ = 8;
  /**
   * CMOS_READ(RTC_INTR_FLAGS) is {@code outb_p(addr, 0x70); inb_p(0x71)} (include/asm-i386/
   * mc146818rtc.h), and each {@code _p} adds {@code outb %al, $0x80} (include/asm-i386/io.h
   * __SLOW_DOWN_IO): four ISA accesses, CostTable.isaPortNs each.
   */
  public static final int CMOS_READ_PORTS = 4;
  /** {@link #CMOS_READ_PORTS} at the default machine's ISA access. */
  public static final long CMOS_READ_NS = CMOS_READ_PORTS * ISA_PORT_NS;
  /** put_user of the count and the read's own bookkeeping: assumption, 200 ns. */
  public static final long READ_TAIL_NS = 200;
  /**
   * mod_timer of rtc_irq_timer: timerlist_lock irqsave, detach_timer and internal_add_timer of
   * a timer re-armed thousands of times a second, so cache-hot: assumption, 200 ns.
   */
  public static final long MOD_TIMER_NS = 200;
  /** {@code 2*HZ/100} jiffies of slack rtc_interrupt gives rtc_irq_timer (2.4.17): 2 at HZ=100. */
  public static final long DROPPED_IRQ_SLACK_JIFFIES = 2;

  /** {@code rtc_wait}. */
  public final WaitQueue rtcWait = new WaitQueue("rtc_wait");
  /**
   * {@code rtc_irq_timer}, whose {@code rtc_dropped_irq} would report lost interrupts: re-armed
   * by every interrupt, so it expires only if the interrupts stop for 20 ms (then, in this model,
   * it does nothing).
   */
  private final KernelTimer rtcIrqTimer = new KernelTimer("rtc_irq_timer", c -> { });
  private long rtcIrqData; // periods since the last read, in units of 0x100
  private long interrupts;
  private long pendingSinceNs = -1; // assertion of the first interrupt not yet read, -1: none
  private long lastReadAssertNs = -1; // what the last read consumed
  private long lastReadPeriods;

  /** The interrupt handler. */
  public final KernelPath rtcInterrupt;
  /** read(2) of /dev/rtc. */
  public final KernelPath read;

  /** Builds the driver for one kernel. */
  public Rtc(Locks l) {
    rtcInterrupt =
        KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
            .spinLock(l.rtcLock)
            .compute("CMOS_READ(RTC_INTR_FLAGS): outb_p(0x70), inb_p(0x71)",
                c -> CMOS_READ_PORTS * c.kernel().costs().isaPortNs())
            .effect("rtc_irq_data += 0x100; CMOS_READ(RTC_INTR_FLAGS)", c -> {
              c.machine().rtc().readRegisterC();
              if (rtcIrqData == 0) {
                pendingSinceNs = c.machine().ioApic().lastAssertNs(IRQ);
              }
              rtcIrqData++;
              interrupts++;
            })
            // RTC_TIMER_ON is set with periodic interrupts (RTC_PIE_ON), the only mode the
            // probes use; HZ/rtc_freq is 0 for any rate above HZ.
            .compute(MOD_TIMER_NS)
            .effect("mod_timer(&rtc_irq_timer, jiffies + HZ/rtc_freq + 2*HZ/100)", c ->
                c.kernel().modTimer(rtcIrqTimer, c.kernel().jiffies()
                    + c.kernel().hz() / Math.max(1, c.machine().rtc().periodicRateHz()) + DROPPED_IRQ_SLACK_JIFFIES))
            .spinUnlock(l.rtcLock)
            .wakeUp(rtcWait)
            .build();
    read =
        KernelPath.path("drivers/char/rtc.c", "rtc_read")
            .waitEvent(rtcWait, () -> rtcIrqData != 0)
            .spinLockIrq(l.rtcLock)
            .effect("data = rtc_irq_data; rtc_irq_data = 0", c -> {
              lastReadAssertNs = pendingSinceNs;
              lastReadPeriods = rtcIrqData;
              pendingSinceNs = -1;
              rtcIrqData = 0;
            })
            .spinUnlockIrq(l.rtcLock)
            .compute(READ_TAIL_NS)
            .build();
  }

  /** {@code request_irq(RTC_IRQ, rtc_interrupt, SA_INTERRUPT, "rtc", NULL)}. */
  public void install(KernelBuilder b) {
    b.requestIrq(IRQ, "rtc", rtcInterrupt, true);
  }

  /**
   * When the interrupt that the last read consumed first was asserted: the start of the latency
   * Morton's rtc-debug measures (-1 before any read). A read that consumed several periods
   * counts from the first.
   */
  public long lastReadAssertNs() {
    return lastReadAssertNs;
  }

  /** Periods the last read consumed (rtc_irq_data >> 8): more than 1 means periods merged. */
  public long lastReadPeriods() {
    return lastReadPeriods;
  }

  /** Interrupts handled so far. */
  public long interrupts() {
    return interrupts;
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    return List.of(
        new CatalogEntry(
            "rtc_interrupt", rtcInterrupt, List.of("irqs off (SA_INTERRUPT)", "rtc_lock"),
            CMOS_READ_NS + MOD_TIMER_NS, CMOS_READ_NS + MOD_TIMER_NS, "none: fixed",
            "CMOS_READ: 4 ISA accesses (outb_p, inb_p) at 0.75 us (docs/hardware-and-costs.md, Port I/O);"
                + " mod_timer of rtc_irq_timer 0.2 us (assumption)"),
        new CatalogEntry(
            "rtc_read", read, List.of("rtc_lock (irq)"), READ_TAIL_NS, READ_TAIL_NS,
            "none: fixed (the sleep is not CPU time)", "assumption"));
  }
}
