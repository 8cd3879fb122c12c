package dev.kernellab.hw;

/**
 * The Motorola MC146818 real-time clock's periodic interrupt, on ISA IRQ 8.
 *
 * <p>Models the chip as drivers/char/rtc.c (2.4.17) drives it: register A's rate-select bits
 * RS3..RS0 pick the periodic rate from the 32.768 kHz time base ({@code 32768 >> (RS - 1)} Hz
 * for RS = 3..15; RS = 1 and 2 alias to 256 and 128 Hz; RS = 0 stops it), register B's PIE bit
 * enables the periodic interrupt, and reading register C returns and clears the flags. The
 * chip holds IRQF (and its IRQ output) until register C is read, so on an edge-triggered ISA
 * line a handler that does not read C gets no further interrupts: every later period that
 * finds IRQF still set is counted as {@linkplain #unacknowledgedPeriods() unacknowledged}.
 *
 * <pre>{@code
 * rtc.setPeriodicRate(2048);      // RTC_IRQP_SET
 * rtc.setPeriodicInterrupt(true); // RTC_PIE_ON
 * ... in the IRQ 8 handler: rtc.readRegisterC();
 * }</pre>
 */
public final class Rtc {

  /** The line the RTC drives. */
  public static final int IRQ = 8;
  /** Time base of the divider chain with DV = 010, Hz. */
  public static final int TIME_BASE_HZ = 32_768;
  /** Register A: rate-select bits. */
  public static final int RTC_RATE_SELECT = 0x0f;
  /** Register A: divider bits for the 32.768 kHz time base (DV2..DV0 = 010). */
  public static final int RTC_REF_CLCK_32KHZ = 0x20;
  /** Register B: periodic interrupt enable. */
  public static final int RTC_PIE = 0x40;
  /** Register C: interrupt request flag. */
  public static final int RTC_IRQF = 0x80;
  /** Register C: periodic interrupt flag. */
  public static final int RTC_PF = 0x40;
  /** Lowest and highest rates the 2.4 driver accepts (RTC_IRQP_SET). */
  public static final int MIN_RATE_HZ = 2;
  /** Highest rate: 8192 Hz. */
  public static final int MAX_RATE_HZ = 8_192;

  private final Machine machine;
  private final PeriodicTimer timer;
  private int registerA = RTC_REF_CLCK_32KHZ;
  private int registerB;
  private int registerC;
  private long raised;
  private long unacknowledged;
  private long lastInterruptNs;

  Rtc(Machine machine) {
    this.machine = machine;
    this.timer = new PeriodicTimer(machine.simulation(), "rtc.periodic", now -> period());
  }

  /**
   * The rate-select value for {@code hz}, as the driver computes it for RTC_IRQP_SET.
   *
   * @throws IllegalArgumentException unless {@code hz} is a power of two in 2..8192
   */
  @Models(file = "drivers/char/rtc.c", function = "rtc_ioctl", version = "2.4.17")
  public static int rateSelectFor(int hz) {
    if (hz < MIN_RATE_HZ || hz > MAX_RATE_HZ || Integer.bitCount(hz) != 1) {
      throw new IllegalArgumentException(
          "RTC periodic rate must be a power of two in " + MIN_RATE_HZ + ".." + MAX_RATE_HZ
              + " Hz, got " + hz);
    }
    // rate = 32768 >> (RS - 1)  =>  RS = 16 - log2(rate)
    return 16 - Integer.numberOfTrailingZeros(hz);
  }

  /** The periodic rate register A selects, 0 if stopped. */
  public int periodicRateHz() {
    int rs = registerA & RTC_RATE_SELECT;
    return switch (rs) {
      case 0 -> 0;
      case 1 -> 256;
      case 2 -> 128;
      default -> TIME_BASE_HZ >> (rs - 1);
    };
  }

  /** Sets the periodic rate (the driver's RTC_IRQP_SET). */
  @Models(file = "drivers/char/rtc.c", function = "rtc_ioctl", version = "2.4.17")
  public void setPeriodicRate(int hz) {
    writeRegisterA((registerA & ~RTC_RATE_SELECT) | rateSelectFor(hz));
  }

  /** Sets or clears PIE in register B (RTC_PIE_ON / RTC_PIE_OFF). */
  @Models(file = "drivers/char/rtc.c", function = "rtc_ioctl", version = "2.4.17")
  public void setPeriodicInterrupt(boolean on) {
    writeRegisterB(on ? registerB | RTC_PIE : registerB & ~RTC_PIE);
  }

  /** Writes register A (rate select and divider). */
  public void writeRegisterA(int value) {
    if (value < 0 || value > 0x7f) {
      throw new IllegalArgumentException("RTC register A takes 7 bits, got 0x" + Integer.toHexString(value));
    }
    registerA = value;
    restart();
  }

  /** Writes register B. */
  public void writeRegisterB(int value) {
    if (value < 0 || value > 0xff) {
      throw new IllegalArgumentException("RTC register B takes 8 bits, got 0x" + Integer.toHexString(value));
    }
    registerB = value;
    restart();
  }

  /** Reads register C: returns the flags and clears them, releasing the IRQ output. */
  public int readRegisterC() {
    int c = registerC;
    registerC = 0;
    return c;
  }

  /** Periodic interrupts raised on IRQ 8. */
  public long interruptsRaised() {
    return raised;
  }

  /** Periods that ended with IRQF still set from an earlier one (no new edge). */
  public long unacknowledgedPeriods() {
    return unacknowledged;
  }

  /**
   * When the last periodic interrupt was raised.
   *
   * @throws IllegalStateException if none was
   */
  public long lastInterruptNs() {
    if (raised == 0) {
      throw new IllegalStateException("the RTC has raised no interrupt yet");
    }
    return lastInterruptNs;
  }

  private void restart() {
    int hz = periodicRateHz();
    boolean wanted = hz > 0 && (registerB & RTC_PIE) != 0;
    if (!wanted) {
      timer.stop();
      return;
    }
    // The period is 2^(RS-1) / 32768 s; start() re-phases from now.
    timer.start(1_000_000_000L, hz);
  }

  private void period() {
    if ((registerC & RTC_IRQF) != 0) {
      unacknowledged++;
      return;
    }
    registerC |= RTC_IRQF | RTC_PF;
    raised++;
    lastInterruptNs = machine.simulation().now();
    machine.ioApic().assertLine(IRQ);
  }
}
