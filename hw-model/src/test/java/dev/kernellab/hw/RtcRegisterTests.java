package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

/**
 * The MC146818's periodic interrupt as its registers control it (Motorola MC146818A datasheet,
 * registers A and B): RS3..RS0 of register A select the rate, 0 meaning none; PIE (bit 6) of
 * register B gates the interrupt. The periodic interrupt runs only while both say so, and a
 * write to either register takes effect at once. The handler here reads register C, as
 * drivers/char/rtc.c's rtc_interrupt (2.4.17) does, so every period raises an edge.
 */
class RtcRegisterTests {

  private static final long SECOND = 1_000_000_000L;

  private static Machine machine() {
    Machine m = new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(3));
    new MiniKernel(m, 0);
    m.cpu(0).sti();
    m.cpu(0).halt();
    return m;
  }

  @Test
  void nothingInterruptsWhileTheRateSelectIsZeroEvenWithPieSet() {
    Machine m = machine();
    // Register A at reset here: DV = 010 (32.768 kHz), RS = 0.
    m.rtc().setPeriodicInterrupt(true);
    assertThat(m.rtc().periodicRateHz()).isZero();
    m.simulation().runUntil(SECOND);
    assertThat(m.rtc().interruptsRaised()).isZero();
    assertThatIllegalStateException()
        .isThrownBy(() -> m.rtc().lastInterruptNs())
        .withMessage("the RTC has raised no interrupt yet");
  }

  @Test
  void writingARateSelectIntoRegisterAStartsThePeriodicInterruptAtOnce() {
    Machine m = machine();
    m.rtc().setPeriodicInterrupt(true);
    m.simulation().runUntil(SECOND);
    // RS = 6: 32768 >> (6 - 1) = 1024 Hz; period n ends at 1 s + floor(n * 10^9 / 1024) ns, so
    // the 1024th falls exactly on 2 s.
    m.rtc().writeRegisterA(Rtc.RTC_REF_CLCK_32KHZ | 6);
    m.simulation().runUntil(2 * SECOND);
    assertThat(m.rtc().interruptsRaised()).isEqualTo(1024);
    assertThat(m.rtc().lastInterruptNs()).isEqualTo(2 * SECOND);
    // RS = 0 again stops it.
    m.rtc().writeRegisterA(Rtc.RTC_REF_CLCK_32KHZ);
    m.simulation().runUntil(3 * SECOND);
    assertThat(m.rtc().interruptsRaised()).isEqualTo(1024);
  }

  @Test
  void aRateWithoutPieRaisesNothingAndClearingPieStopsTheInterrupts() {
    Machine m = machine();
    m.rtc().setPeriodicRate(1024);
    m.simulation().runUntil(SECOND);
    assertThat(m.rtc().interruptsRaised()).as("PIE clear").isZero();
    m.rtc().setPeriodicInterrupt(true);
    // Half a second at 1024 Hz: 512 periods, the last at 1 s + 512 * 976,562.5 ns = 1.5 s.
    m.simulation().runUntil(SECOND + SECOND / 2);
    assertThat(m.rtc().interruptsRaised()).isEqualTo(512);
    m.rtc().setPeriodicInterrupt(false);
    m.simulation().runUntil(3 * SECOND);
    assertThat(m.rtc().interruptsRaised()).as("RTC_PIE_OFF").isEqualTo(512);
    assertThat(m.rtc().lastInterruptNs()).isEqualTo(SECOND + SECOND / 2);
  }

  @Test
  void registerATakesSevenBitsAndRegisterBEight() {
    Machine m = machine();
    for (int bad : new int[] {-1, 0x80}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> m.rtc().writeRegisterA(bad))
          .withMessage("RTC register A takes 7 bits, got 0x" + Integer.toHexString(bad));
    }
    for (int bad : new int[] {-1, 0x100}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> m.rtc().writeRegisterB(bad))
          .withMessage("RTC register B takes 8 bits, got 0x" + Integer.toHexString(bad));
    }
    m.rtc().writeRegisterA(0x7f); // RS = 15: 32768 >> 14 = 2 Hz
    assertThat(m.rtc().periodicRateHz()).isEqualTo(2);
    m.rtc().writeRegisterA(0);
    assertThat(m.rtc().periodicRateHz()).isZero();
    m.rtc().writeRegisterB(0xff);
    m.rtc().writeRegisterB(0);
  }
}
