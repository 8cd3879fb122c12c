package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

/**
 * The I/O APIC's line-to-vector table, its pins, its per-line records and its destinations.
 *
 * <p>The vector oracle is 2.4.17 arch/i386/kernel/io_apic.c as written out here:
 * {@code irq_vector[0]} starts at FIRST_DEVICE_VECTOR (0x31) and {@code assign_irq_vector}
 * hands each next line the previous vector + 8, skipping SYSCALL_VECTOR (0x80) and wrapping
 * past FIRST_SYSTEM_VECTOR (0xef). For the 24 pins of an 82093AA that is 0x31 + 8 * irq: every
 * such vector is odd, so never 0x80, and the last, 0x31 + 8 * 23 = 0xe9, is below 0xef.
 */
class IoApicTests {

  private static Machine machine(int cpus, IrqRouting routing) {
    return new Machine(
        MachineSpec.uniprocessor().withCpus(cpus).withCosts(CostTable.zero()).withRouting(routing),
        new Simulation(1));
  }

  @Test
  void everyPinGetsTheVectorAssignIrqVectorGivesItInOrder() {
    IoApic io = machine(1, IrqRouting.ALL_TO_CPU0).ioApic();
    for (int irq = 0; irq < IoApic.PINS; irq++) {
      int expected = 0x31 + 8 * irq; // 0x31, 0x39, 0x41, ..., 0xe9
      assertThat(io.vectorOf(irq)).as("irq %d", irq).isEqualTo(expected);
      assertThat(io.irqOf(expected)).isEqualTo(irq);
      assertThat(io.isDeviceVector(expected)).isTrue();
    }
    assertThat(io.vectorOf(23)).isEqualTo(0xe9);
  }

  @Test
  void vectorsBetweenTheLinesAndTheSystemVectorsBelongToNoLine() {
    IoApic io = machine(1, IrqRouting.ALL_TO_CPU0).ioApic();
    // 0x30 is below the first device vector, 0x32 between lines 0 and 1, 0x80 the system-call
    // gate, 0xef the local timer, 0xf1 where a 25th line would have gone.
    for (int v : new int[] {0x30, 0x32, 0x38, 0x80, 0xef, 0xf1, Vectors.RESCHEDULE_VECTOR}) {
      assertThat(io.isDeviceVector(v)).as("0x%x", v).isFalse();
      assertThatIllegalArgumentException()
          .isThrownBy(() -> io.irqOf(v))
          .withMessage("vector 0x" + Integer.toHexString(v) + " belongs to no IO-APIC line");
    }
  }

  @Test
  void onlyThe24PinsOfAn82093aaExist() {
    IoApic io = machine(1, IrqRouting.ALL_TO_CPU0).ioApic();
    for (int bad : new int[] {-1, IoApic.PINS}) {
      String message = "no IO-APIC pin " + bad + " (0..23)";
      assertThatIllegalArgumentException().isThrownBy(() -> io.vectorOf(bad)).withMessage(message);
      assertThatIllegalArgumentException().isThrownBy(() -> io.assertLine(bad)).withMessage(message);
      assertThatIllegalArgumentException().isThrownBy(() -> io.wasAsserted(bad)).withMessage(message);
      assertThatIllegalArgumentException().isThrownBy(() -> io.assertCount(bad)).withMessage(message);
      assertThatIllegalArgumentException().isThrownBy(() -> io.setAffinity(bad, 0)).withMessage(message);
    }
    assertThat(io.vectorOf(0)).isEqualTo(0x31);
    assertThat(io.vectorOf(IoApic.PINS - 1)).isEqualTo(0xe9);
  }

  @Test
  void aLineRemembersItsEdgesAndTheInstantOfTheLast() {
    Machine m = machine(1, IrqRouting.ALL_TO_CPU0);
    new MiniKernel(m, 0);
    IoApic io = m.ioApic();
    assertThat(io.wasAsserted(5)).isFalse();
    assertThat(io.assertCount(5)).isZero();
    assertThatIllegalStateException().isThrownBy(() -> io.lastAssertNs(5)).withMessage("irq 5 was never asserted");
    m.cpu(0).sti();
    m.cpu(0).halt();
    CpuTests.raiseAt(m, 2_000, 5);
    CpuTests.raiseAt(m, 7_000, 5);
    m.simulation().runUntil(10_000);
    assertThat(io.wasAsserted(5)).isTrue();
    assertThat(io.assertCount(5)).isEqualTo(2);
    assertThat(io.lastAssertNs(5)).isEqualTo(7_000);
    assertThat(io.wasAsserted(6)).as("another line").isFalse();
  }

  /** /proc/irq/N/smp_affinity: a pinned line goes to its CPU whatever the routing policy. */
  @Test
  void aPinnedLineGoesToItsCpuWhateverTheRouting() {
    for (IrqRouting routing : IrqRouting.values()) {
      Machine m = machine(3, routing);
      MiniKernel k = new MiniKernel(m, 0);
      for (int i = 0; i < 3; i++) {
        m.cpu(i).sti();
        m.cpu(i).halt();
      }
      m.ioApic().setAffinity(5, 2);
      for (int t = 1; t <= 4; t++) {
        CpuTests.raiseAt(m, t * 1_000L, 5);
      }
      m.simulation().runUntil(10_000);
      assertThat(k.deliveries).as("%s", routing).extracting(MiniKernel.Delivery::cpu).containsExactly(2, 2, 2, 2);
    }
  }

  @Test
  void allToCpu0SendsEveryLineToTheBootCpu() {
    Machine m = machine(2, IrqRouting.ALL_TO_CPU0);
    MiniKernel k = new MiniKernel(m, 0);
    for (int i = 0; i < 2; i++) {
      m.cpu(i).sti();
      m.cpu(i).halt();
    }
    CpuTests.raiseAt(m, 1_000, 5);
    CpuTests.raiseAt(m, 2_000, 5);
    CpuTests.raiseAt(m, 3_000, Rtc.IRQ);
    m.simulation().runUntil(10_000);
    assertThat(k.deliveries).extracting(MiniKernel.Delivery::cpu).containsExactly(0, 0, 0);
  }

  @Test
  void aLineCanBePinnedOnlyToACpuTheMachineHas() {
    IoApic io = machine(2, IrqRouting.ALL_TO_CPU0).ioApic();
    for (int bad : new int[] {-1, 2}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> io.setAffinity(5, bad))
          .withMessage("irq 5: no cpu" + bad + " on a 2-CPU machine");
    }
    io.setAffinity(5, 0);
    io.setAffinity(5, 1);
  }
}
