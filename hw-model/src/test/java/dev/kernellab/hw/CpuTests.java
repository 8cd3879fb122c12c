package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

class CpuTests {

  private static final int RTC_VECTOR = 0x71; // IRQ 8 under assign_irq_vector

  private static Machine machine(int cpus) {
    return new Machine(
        MachineSpec.uniprocessor().withCpus(cpus).withCosts(CostTable.zero()), new Simulation(1));
  }

  @Test
  void rtcLineMapsToTheVectorAssignIrqVectorGives() {
    Machine m = machine(1);
    assertThat(m.ioApic().vectorOf(0)).isEqualTo(0x31);
    assertThat(m.ioApic().vectorOf(Rtc.IRQ)).isEqualTo(RTC_VECTOR);
    assertThat(m.ioApic().vectorOf(IdeDisk.IRQ)).isEqualTo(0xa1);
    assertThat(m.ioApic().irqOf(0xa1)).isEqualTo(IdeDisk.IRQ);
  }

  @Test
  void anInterruptSuspendsAComputeSegmentAndReportsWhatWasLeft() {
    Machine m = machine(1);
    MiniKernel k = new MiniKernel(m, 100_000);
    Cpu cpu = m.cpu(0);
    cpu.sti();
    cpu.startCompute(5_000_000);
    raiseAt(m, 1_000_000, Rtc.IRQ);
    m.simulation().runUntil(10_000_000);

    assertThat(k.deliveries).containsExactly(new MiniKernel.Delivery(1_000_000, 0, RTC_VECTOR, 4_000_000));
    assertThat(k.finishedAt).containsExactly(5_100_000L);
    assertThat(cpu.computeNs()).isEqualTo(5_100_000);
  }

  /** The property behind docs/golden-scenarios.md S5: cli holds an interrupt exactly until sti. */
  @Test
  void anInterruptRaisedWithInterruptsOffIsDeliveredExactlyWhenTheyComeBackOn() {
    qt().withFixedSeed(5)
        .withExamples(200)
        .forAll(longs().between(0, 3_000_000), longs().between(1, 3_000_000))
        .checkAssert(
            (raiseAt, cliLength) -> {
              Machine m = machine(1);
              long[] deliveredAt = {-1};
              Cpu cpu = m.cpu(0);
              // local_irq_disable; compute cliLength; local_irq_enable; compute 1 ms.
              m.attach(
                  new CpuListener() {
                    @Override
                    public void interruptAccepted(Cpu c, int vector, long left) {
                      deliveredAt[0] = m.simulation().now();
                      c.halt();
                    }

                    @Override
                    public void segmentFinished(Cpu c) {
                      c.sti();
                      if (c.hasDeliverableInterrupt()) {
                        interruptAccepted(c, c.acceptInterrupt(), 0);
                      } else {
                        c.startCompute(1_000_000);
                      }
                    }
                  });
              cpu.cli();
              cpu.startCompute(cliLength);
              raiseAt(m, raiseAt, Rtc.IRQ);
              m.simulation().runUntil(cliLength + 5_000_000);
              assertThat(deliveredAt[0]).isEqualTo(Math.max(raiseAt, cliLength));
            });
  }

  @Test
  void aHigherClassInterruptNestsIntoAHandlerThatReenabledInterrupts() {
    Machine m = machine(1);
    // IDE handler (vector 0xa1, class 0xa) runs 1 ms with irqs on; the RTC (0x71, class 7)
    // must wait for its EOI, but the local timer (0xef, class 0xe) nests.
    MiniKernel k = new MiniKernel(m, 1_000_000, v -> true);
    Cpu cpu = m.cpu(0);
    cpu.sti();
    cpu.startCompute(10_000_000);
    raiseAt(m, 1_000_000, IdeDisk.IRQ);
    raiseAt(m, 1_200_000, Rtc.IRQ);
    m.simulation().schedule(new Event("timer", now -> cpu.raise(Vectors.LOCAL_TIMER_VECTOR)), 1_400_000);
    m.simulation().runUntil(20_000_000);

    assertThat(k.deliveries)
        .extracting(MiniKernel.Delivery::timeNs, MiniKernel.Delivery::vector)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1_000_000L, 0xa1),
            org.assertj.core.groups.Tuple.tuple(1_400_000L, Vectors.LOCAL_TIMER_VECTOR),
            org.assertj.core.groups.Tuple.tuple(3_000_000L, RTC_VECTOR));
  }

  @Test
  void aSecondEdgeOfAPendingVectorMerges() {
    Machine m = machine(1);
    new MiniKernel(m, 0);
    Cpu cpu = m.cpu(0);
    cpu.cli();
    cpu.startCompute(1_000);
    cpu.raise(RTC_VECTOR);
    cpu.raise(RTC_VECTOR);
    assertThat(cpu.interruptsMerged()).isEqualTo(1);
    assertThat(cpu.isPending(RTC_VECTOR)).isTrue();
  }

  @Test
  void spinningWithInterruptsOnStillTakesInterrupts() {
    Machine m = machine(2);
    MiniKernel k = new MiniKernel(m, 10_000);
    Cpu cpu0 = m.cpu(0);
    cpu0.sti();
    cpu0.startSpin();
    raiseAt(m, 1_500_000, Rtc.IRQ);
    m.simulation().runUntil(2_000_000);
    assertThat(k.deliveries).extracting(MiniKernel.Delivery::timeNs).containsExactly(1_500_000L);
    assertThat(cpu0.spinNs()).isEqualTo(1_500_000);
  }

  @Test
  void ipisArriveAfterTheDeliveryCostAndMergeWhileInFlight() {
    Machine m =
        new Machine(
            MachineSpec.uniprocessor().withCpus(2), new Simulation(1));
    MiniKernel k = new MiniKernel(m, 0);
    m.cpu(1).sti();
    m.cpu(1).halt();
    m.sendIpi(0, 1, Vectors.RESCHEDULE_VECTOR);
    m.sendIpi(0, 1, Vectors.RESCHEDULE_VECTOR);
    m.simulation().runUntil(10_000);
    long cost = m.spec().costs().ipiDeliveryNs();
    assertThat(k.deliveries)
        .containsExactly(new MiniKernel.Delivery(cost, 1, Vectors.RESCHEDULE_VECTOR, 0));
    assertThat(m.localApic(1).ipisMerged()).isEqualTo(1);
  }

  @Test
  void eoiWithNothingInServiceIsABug() {
    Machine m = machine(1);
    assertThatThrownBy(() -> m.cpu(0).eoi())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("EOI with no interrupt in service");
  }

  @Test
  void tscCountsCyclesAtTheCpuClock() {
    Machine m = machine(1);
    m.simulation().runUntil(2_500_000_000L);
    assertThat(m.cpu(0).readTsc()).isEqualTo(2_000_000_000L);
  }

  static void raiseAt(Machine m, long t, int irq) {
    m.simulation().schedule(new Event("raise" + irq + "@" + t, now -> m.ioApic().assertLine(irq)), t);
  }
}
