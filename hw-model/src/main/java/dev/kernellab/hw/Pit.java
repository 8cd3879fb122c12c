package dev.kernellab.hw;

/**
 * The Intel 8254 programmable interval timer, channel 0, wired to IRQ 0.
 *
 * <p>Models the hardware that arch/i386/kernel/time.c (2.4.17) programs at boot: control byte
 * 0x34 (mode 2, rate generator) and a 16-bit divisor of the 1,193,180 Hz input clock, so that
 * channel 0 raises IRQ 0 every {@code divisor / CLOCK_TICK_RATE} seconds. Linux's divisor is
 * {@code LATCH = (CLOCK_TICK_RATE + HZ/2) / HZ}: 11932 at HZ=100, a period of 10.000168 ms.
 */
public final class Pit {

  /** Input clock of the 8254 on a PC, Hz (include/asm-i386/timex.h). */
  public static final long CLOCK_TICK_RATE = 1_193_180L;
  /** The line channel 0 drives. */
  public static final int IRQ = 0;

  private final PeriodicTimer timer;
  private int divisor;

  Pit(Machine machine) {
    this.timer =
        new PeriodicTimer(
            machine.simulation(), "pit.ch0", now -> machine.ioApic().assertLine(IRQ));
  }

  /**
   * Programs channel 0 in mode 2 with {@code divisor} (1..65536; 0 means 65536 on the chip).
   */
  @Models(file = "arch/i386/kernel/i8259.c", function = "init_IRQ", version = "2.4.17")
  public void program(int divisor) {
    if (divisor < 1 || divisor > 65_536) {
      throw new IllegalArgumentException("PIT divisor must be 1..65536, got " + divisor);
    }
    this.divisor = divisor;
    timer.start(divisor * 1_000_000_000L, CLOCK_TICK_RATE);
  }

  /** Stops channel 0. */
  public void stop() {
    timer.stop();
  }

  /** The programmed divisor. */
  public int divisor() {
    return divisor;
  }

  /** True while channel 0 is counting. */
  public boolean running() {
    return timer.running();
  }
}
