package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

class TimerDeviceTests {

  private static Machine machine() {
    return new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(3));
  }

  @Test
  void pitAtLatch11932TicksEvery10000168NsWithoutDrift() {
    Machine m = machine();
    new MiniKernel(m, 0);
    m.cpu(0).sti();
    m.cpu(0).halt();
    m.pit().program(11_932); // LATCH at HZ=100
    // 360,000 ticks = one hour of ticks; tick n falls at floor(n * 11932e9 / 1193180).
    long n = 360_000;
    long lastTick = n * 11_932L * 1_000_000_000L / Pit.CLOCK_TICK_RATE;
    m.simulation().runUntil(lastTick);
    assertThat(m.ioApic().assertCount(Pit.IRQ)).isEqualTo(n);
    assertThat(m.ioApic().lastAssertNs(Pit.IRQ)).isEqualTo(lastTick);
  }

  @Test
  void rtcDeliversRateTimesSecondsWhenAcknowledged() {
    qt().withFixedSeed(9)
        .withExamples(13)
        .forAll(integers().between(1, 13))
        .checkAssert(
            log2 -> {
              int hz = 1 << log2;
              Machine m = machine();
              MiniKernel k = new MiniKernel(m, 0); // reads register C in its handler
              m.cpu(0).sti();
              m.cpu(0).halt();
              m.rtc().setPeriodicRate(hz);
              m.rtc().setPeriodicInterrupt(true);
              m.simulation().runUntil(3_000_000_000L);
              assertThat(m.rtc().interruptsRaised()).isBetween(3L * hz - 1, 3L * hz + 1);
              assertThat(k.deliveries).hasSize((int) m.rtc().interruptsRaised());
              assertThat(m.rtc().unacknowledgedPeriods()).isZero();
            });
  }

  @Test
  void rtcStopsInterruptingWhenRegisterCIsNotRead() {
    Machine m = machine();
    m.attach(
        new CpuListener() {
          @Override
          public void interruptAccepted(Cpu cpu, int vector, long left) {
            cpu.eoi();
            cpu.sti();
            cpu.halt();
          }

          @Override
          public void segmentFinished(Cpu cpu) {
            cpu.halt();
          }
        });
    m.cpu(0).sti();
    m.cpu(0).halt();
    m.rtc().setPeriodicRate(2048);
    m.rtc().setPeriodicInterrupt(true);
    m.simulation().runUntil(1_000_000_000L);
    assertThat(m.rtc().interruptsRaised()).isEqualTo(1);
    assertThat(m.rtc().unacknowledgedPeriods()).isEqualTo(2047);
    // The first read of C releases the line: the next period interrupts again.
    assertThat(m.rtc().readRegisterC()).isEqualTo(Rtc.RTC_IRQF | Rtc.RTC_PF);
    m.simulation().runUntil(1_000_500_000L);
    assertThat(m.rtc().interruptsRaised()).isEqualTo(2);
  }

  @Test
  void rtcRateSelectFollowsTheDatasheet() {
    assertThat(Rtc.rateSelectFor(8192)).isEqualTo(3);
    assertThat(Rtc.rateSelectFor(2048)).isEqualTo(5);
    assertThat(Rtc.rateSelectFor(1024)).isEqualTo(6);
    assertThat(Rtc.rateSelectFor(2)).isEqualTo(15);
    Machine m = machine();
    m.rtc().writeRegisterA(Rtc.RTC_REF_CLCK_32KHZ | 1);
    assertThat(m.rtc().periodicRateHz()).isEqualTo(256);
    m.rtc().writeRegisterA(Rtc.RTC_REF_CLCK_32KHZ | 2);
    assertThat(m.rtc().periodicRateHz()).isEqualTo(128);
  }

  @Test
  void rtcRejectsRatesThatAreNotPowersOfTwoInRange() {
    Machine m = machine();
    for (int bad : new int[] {0, 1, 3, 1000, 16_384, -2}) {
      assertThatThrownBy(() -> m.rtc().setPeriodicRate(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("RTC periodic rate must be a power of two in 2..8192 Hz, got " + bad);
    }
  }

  @Test
  void localApicTimerTicksEachCpuAtItsPeriod() {
    Machine m =
        new Machine(MachineSpec.uniprocessor().withCpus(2).withCosts(CostTable.zero()), new Simulation(3));
    MiniKernel k = new MiniKernel(m, 0);
    for (int i = 0; i < 2; i++) {
      m.cpu(i).sti();
      m.cpu(i).halt();
      m.localApic(i).startTimer(10_000_000);
    }
    m.simulation().runUntil(1_000_000_000L);
    assertThat(k.deliveries).hasSize(200);
    assertThat(k.deliveries).allMatch(d -> d.vector() == Vectors.LOCAL_TIMER_VECTOR);
  }

  @Test
  void roundRobinRoutingRotatesALineOverTheCpus() {
    Machine m =
        new Machine(
            MachineSpec.uniprocessor().withCpus(3).withCosts(CostTable.zero()).withRouting(IrqRouting.ROUND_ROBIN),
            new Simulation(3));
    MiniKernel k = new MiniKernel(m, 0);
    for (int i = 0; i < 3; i++) {
      m.cpu(i).sti();
      m.cpu(i).halt();
    }
    for (int t = 1; t <= 6; t++) {
      CpuTests.raiseAt(m, t * 1_000L, 5);
    }
    m.simulation().runUntil(10_000);
    assertThat(k.deliveries).extracting(MiniKernel.Delivery::cpu).containsExactly(0, 1, 2, 0, 1, 2);
  }
}
