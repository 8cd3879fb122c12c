package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

/**
 * The local APIC's acceptance rule (Intel SDM vol. 3, "Interrupt, Task, and Processor
 * Priority"): a requested vector is delivered only with IF set and only if its priority class,
 * vector / 16, is above the class of the highest vector in service; EOI retires the highest in
 * service. Driven between segments, as the kernel does, through the CPU's own calls.
 */
class LocalApicPriorityTests {

  private static Cpu cpu() {
    Machine m = new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(1));
    new MiniKernel(m, 0);
    return m.cpu(0);
  }

  @Test
  void anInterruptOfTheSamePriorityClassWaitsForTheEoiOfTheOneInService() {
    Cpu c = cpu();
    c.sti();
    c.raise(0x71);
    assertThat(c.acceptInterrupt()).isEqualTo(0x71);
    assertThat(c.interruptsEnabled()).as("accepting clears IF").isFalse();
    c.sti(); // a handler that re-enables interrupts
    c.raise(0x7e); // class 7, higher vector, same class
    assertThat(c.hasDeliverableInterrupt()).isFalse();
    c.raise(0x81); // class 8
    assertThat(c.hasDeliverableInterrupt()).isTrue();
    assertThat(c.acceptInterrupt()).isEqualTo(0x81);
    c.sti();
    c.eoi(); // retires 0x81, the highest in service
    assertThat(c.isInService(0x81)).isFalse();
    assertThat(c.isInService(0x71)).isTrue();
    assertThat(c.hasDeliverableInterrupt()).as("0x7e still behind 0x71").isFalse();
    c.eoi();
    assertThat(c.hasDeliverableInterrupt()).isTrue();
    assertThat(c.acceptInterrupt()).isEqualTo(0x7e);
    assertThat(c.interruptsAccepted()).isEqualTo(3);
  }

  @Test
  void aLowerClassNeverNestsIntoAHigherOne() {
    Cpu c = cpu();
    c.sti();
    c.raise(0xa1);
    c.acceptInterrupt();
    c.sti();
    c.raise(0x31);
    assertThat(c.hasDeliverableInterrupt()).isFalse();
    assertThat(c.isPending(0x31)).isTrue();
  }

  @Test
  void withInterruptsOffNothingIsDeliverableButTheRequestStays() {
    Cpu c = cpu();
    c.cli();
    c.raise(0xef);
    assertThat(c.hasDeliverableInterrupt()).isFalse();
    assertThat(c.isPending(0xef)).isTrue();
    c.restoreInterruptFlag(true);
    assertThat(c.hasDeliverableInterrupt()).isTrue();
  }

  /** Vectors on both sides of every 64-bit word of IRR and ISR, highest first. */
  @Test
  void theHighestRequestedVectorIsAcceptedFirstAcrossTheWholeRange() {
    Cpu c = cpu();
    int[] vectors = {0x20, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xc0, 0xff};
    for (int v : vectors) {
      c.raise(v);
    }
    for (int v : vectors) {
      assertThat(c.isPending(v)).as("0x%x pending", v).isTrue();
    }
    assertThat(c.isPending(0x41)).isFalse();
    for (int i = vectors.length - 1; i >= 0; i--) {
      c.sti();
      // classes 0xf, 0xc, 0xb, 0x8, 0x7, 0x4, 0x3, 0x2: each above the last accepted one only
      // after the EOI of everything in service
      int v = c.acceptInterrupt();
      assertThat(v).isEqualTo(vectors[i]);
      assertThat(c.isInService(v)).isTrue();
      assertThat(c.isPending(v)).isFalse();
      c.eoi();
      assertThat(c.isInService(v)).isFalse();
    }
    c.sti();
    assertThat(c.hasDeliverableInterrupt()).isFalse();
  }

  @Test
  void aRepeatedEdgeOfARequestedVectorIsLostAndCounted() {
    Cpu c = cpu();
    c.cli();
    c.raise(0x71);
    c.raise(0x71);
    c.raise(0x71);
    assertThat(c.interruptsMerged()).isEqualTo(2);
    c.sti();
    c.acceptInterrupt();
    c.sti();
    assertThat(c.hasDeliverableInterrupt()).isFalse();
  }

  @Test
  void onlyExternalVectorsCanBeRaised() {
    Cpu c = cpu();
    assertThatIllegalArgumentException().isThrownBy(() -> c.raise(0x1f)).withMessageContaining("0x1f");
    assertThatIllegalArgumentException().isThrownBy(() -> c.raise(0x100));
    c.raise(0x20);
    c.raise(0xff);
    assertThat(c.isPending(0x20)).isTrue();
    assertThat(c.isPending(0xff)).isTrue();
  }

  @Test
  void theKernelAcceptsOnlyBetweenSegmentsAndOnlyWhatIsDeliverable() {
    Cpu c = cpu();
    c.sti();
    assertThatIllegalStateException().isThrownBy(c::acceptInterrupt).withMessageContaining("no deliverable");
    c.startSpin();
    assertThatIllegalStateException().isThrownBy(c::acceptInterrupt).withMessageContaining("SPIN segment is running");
    assertThatIllegalStateException().isThrownBy(c::halt).withMessageContaining("during a SPIN segment");
    assertThat(c.segment()).isEqualTo(Cpu.Segment.SPIN);
    assertThat(c.stopSegment()).isZero();
    assertThat(c.segment()).isEqualTo(Cpu.Segment.NONE);
    assertThat(c.stopSegment()).as("nothing running").isZero();
    assertThatIllegalArgumentException().isThrownBy(() -> c.startCompute(-1));
  }

  @Test
  void priorityClassIsTheVectorsHighNibble() {
    assertThat(Vectors.priorityClass(0x31)).isEqualTo(3);
    assertThat(Vectors.priorityClass(0xef)).isEqualTo(0xe);
    assertThat(Vectors.priorityClass(0xfc)).isEqualTo(0xf);
  }
}
