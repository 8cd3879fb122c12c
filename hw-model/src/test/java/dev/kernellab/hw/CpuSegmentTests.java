package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A CPU's work segments seen from the kernel: how long it spent computing, spinning and halted,
 * what an interrupt leaves of a segment, an interrupt left pending between segments, and the
 * end of a segment that nothing can precede (Cpu's "inline ends": the same instants and event
 * count as through the queue). Every expected time is worked out by hand in the comments.
 */
class CpuSegmentTests {

  private static final int VECTOR = 0x71;

  /** A listener whose segment ends run a script; interrupts are recorded and EOId at once. */
  private static final class Script implements CpuListener {
    final List<String> log = new ArrayList<>();
    final Simulation sim;
    Consumer<Cpu> onFinish = Cpu::halt;
    Consumer<Cpu> onInterrupt = Cpu::halt;

    Script(Simulation sim) {
      this.sim = sim;
    }

    @Override
    public void interruptAccepted(Cpu cpu, int vector, long left) {
      log.add(sim.now() + ": irq 0x" + Integer.toHexString(vector) + " left " + left);
      cpu.eoi();
      onInterrupt.accept(cpu);
    }

    @Override
    public void segmentFinished(Cpu cpu) {
      log.add(sim.now() + ": end");
      onFinish.accept(cpu);
    }
  }

  private static Machine machine(int cpus) {
    return new Machine(MachineSpec.uniprocessor().withCpus(cpus).withCosts(CostTable.zero()), new Simulation(1));
  }

  private static void at(Machine m, long t, Runnable r) {
    m.simulation().schedule(new Event("at" + t, now -> r.run()), t);
  }

  @Test
  void busyTimeCountsOnlyTheTimeEachKindOfSegmentRan() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    Script k = new Script(m.simulation());
    m.attach(k);
    c.sti();
    // 0..1000 nothing; 1000..4000 halt; 4000..4500 spin; 4500..6500 compute 2000, then halt.
    at(m, 1_000, c::halt);
    at(m, 4_000, () -> {
      c.stopSegment();
      c.startSpin();
    });
    at(m, 4_500, () -> {
      c.stopSegment();
      c.startCompute(2_000);
    });
    m.simulation().runUntil(5_000);
    // Mid-segment: 500 ns of the compute begun at 4500 already count.
    assertThat(c.computeNs()).isEqualTo(500);
    assertThat(c.spinNs()).isEqualTo(500);
    assertThat(c.haltNs()).isEqualTo(3_000);
    m.simulation().runUntil(10_000);
    assertThat(k.log).containsExactly("6500: end");
    assertThat(c.computeNs()).isEqualTo(2_000);
    assertThat(c.spinNs()).isEqualTo(500);
    assertThat(c.haltNs()).as("3000 before, 6500..10000 after").isEqualTo(3_000 + 3_500);
  }

  @Test
  void busyTimeOfSegmentsCutShortByInterruptsStartsAtEachSegmentsStart() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    Script k = new Script(m.simulation());
    m.attach(k);
    c.sti();
    at(m, 2_000, () -> c.startCompute(10_000)); // interrupted at 5000: 3000 ran, 7000 left
    at(m, 5_000, () -> c.raise(VECTOR));
    at(m, 6_000, () -> {
      c.stopSegment(); // the handler halted at 5000; 1000 ns of halt
      c.startSpin();
      c.sti();
    });
    at(m, 9_000, () -> c.raise(VECTOR)); // 3000 ns of spin
    m.simulation().runUntil(12_000);
    assertThat(k.log).containsExactly("5000: irq 0x71 left 7000", "9000: irq 0x71 left 0");
    assertThat(c.computeNs()).isEqualTo(3_000);
    assertThat(c.spinNs()).isEqualTo(3_000);
    assertThat(c.haltNs()).as("5000..6000, then 9000..12000").isEqualTo(1_000 + 3_000);
    assertThat(c.interruptsEnabled()).as("the handler did not sti").isFalse();
    c.sti();
    assertThat(c.interruptsEnabled()).isTrue();
    assertThat(c).hasToString("cpu0");
  }

  @Test
  void stoppingAComputeSegmentReturnsWhatWasLeftOfIt() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    m.attach(new Script(m.simulation()));
    long[] left = {-1};
    at(m, 1_000, () -> c.startCompute(5_000));
    at(m, 3_500, () -> left[0] = c.stopSegment());
    m.simulation().runUntil(10_000);
    assertThat(left[0]).as("1000 + 5000 - 3500").isEqualTo(2_500);
    assertThat(c.computeNs()).isEqualTo(2_500);
    assertThat(c.segment()).isEqualTo(Cpu.Segment.NONE);
  }

  @Test
  void anInterruptLeftPendingBetweenSegmentsIsTakenAtTheInstantTheNextOneStarts() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    Script k = new Script(m.simulation());
    m.attach(k);
    at(m, 1_000, () -> {
      c.sti();
      c.raise(VECTOR); // no segment: left pending for the kernel
      assertThat(c.isPending(VECTOR)).isTrue();
      c.startCompute(4_000); // the kernel did not take it: delivered at 1000, from the loop
    });
    m.simulation().runUntil(10_000);
    assertThat(k.log).containsExactly("1000: irq 0x71 left 4000");
  }

  @Test
  void aPendingInterruptIsDeliveredOnceThoughTheKernelStartsTwoSegmentsBeforeItIsTaken() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    Script k = new Script(m.simulation());
    m.attach(k);
    at(m, 1_000, () -> {
      c.sti();
      c.raise(VECTOR);
      c.startSpin();
      c.stopSegment();
      c.startCompute(3_000);
    });
    m.simulation().runUntil(10_000);
    assertThat(k.log).containsExactly("1000: irq 0x71 left 3000");
  }

  @Test
  void aPendingInterruptIsNotDeliveredIntoAGapBetweenSegments() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    Script k = new Script(m.simulation());
    m.attach(k);
    at(m, 1_000, () -> {
      c.sti();
      c.raise(VECTOR);
      c.startSpin();
      c.stopSegment(); // back between segments before the delivery event runs
    });
    m.simulation().runUntil(10_000);
    assertThat(k.log).as("the listener is only told while a segment runs").isEmpty();
    assertThat(c.isPending(VECTOR)).isTrue();
    assertThat(c.acceptInterrupt()).isEqualTo(VECTOR);
  }

  @Test
  void aComputeSegmentStartedAtASegmentEndWithNothingArmedBeforeItEndsWithoutTheQueue() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    int[] left = {3};
    k.onFinish = cpu -> {
      if (left[0]-- > 0) {
        cpu.startCompute(1_000);
      } else {
        cpu.halt();
      }
    };
    c.startCompute(1_000);
    sim.runUntil(10_000);
    // Four ends at 1000, 2000, 3000, 4000; the last three started from the previous one's end
    // with nothing else armed: inline. Four events fired all the same.
    assertThat(k.log).containsExactly("1000: end", "2000: end", "3000: end", "4000: end");
    assertThat(sim.eventsFired()).isEqualTo(4);
    assertThat(sim.eventsFiredInline()).isEqualTo(3);
    assertThat(c.computeNs()).isEqualTo(4_000);
  }

  @Test
  void withInlineEventsOffTheSameSegmentsGoThroughTheQueueAtTheSameInstants() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    sim.setInlineEvents(false);
    Script k = new Script(sim);
    m.attach(k);
    int[] left = {3};
    k.onFinish = cpu -> {
      if (left[0]-- > 0) {
        cpu.startCompute(1_000);
      } else {
        cpu.halt();
      }
    };
    m.cpu(0).startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(k.log).containsExactly("1000: end", "2000: end", "3000: end", "4000: end");
    assertThat(sim.eventsFired()).isEqualTo(4);
    assertThat(sim.eventsFiredInline()).isZero();
  }

  @Test
  void zeroLengthSegmentsAtTimeZeroStillEnd() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    int[] left = {2};
    k.onFinish = cpu -> {
      if (left[0]-- > 0) {
        cpu.startCompute(0);
      } else {
        cpu.halt();
      }
    };
    m.cpu(0).startCompute(0);
    sim.runUntil(10);
    assertThat(k.log).containsExactly("0: end", "0: end", "0: end");
    assertThat(sim.eventsFired()).isEqualTo(3);
    assertThat(sim.eventsFiredInline()).as("at the clock's own instant: still next").isEqualTo(2);
  }

  @Test
  void aSegmentWhoseEndSomethingArmedLaterPrecedesGoesThroughTheQueueAfterIt() {
    Machine m = machine(2);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    Cpu c0 = m.cpu(0);
    m.cpu(1).sti();
    m.cpu(1).halt();
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (cpu.id() == 0 && first[0]) {
        first[0] = false;
        cpu.startCompute(1_000); // would end at 2000 inline...
        m.sendIpi(0, 1, Vectors.RESCHEDULE_VECTOR); // ...but the IPI now arrives first, at 1000
      } else {
        cpu.halt();
      }
    };
    c0.startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(k.log).containsExactly("1000: end", "1000: irq 0xfc left 0", "2000: end");
    assertThat(sim.eventsFiredInline()).isZero();
  }

  @Test
  void anInterruptRaisedRightAfterAnInlineSegmentStartsLeavesAllOfIt() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    Cpu c = m.cpu(0);
    c.sti();
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        cpu.startCompute(2_500);
        cpu.raise(VECTOR); // a self-directed edge: the new segment is suspended at once
      } else {
        cpu.halt();
      }
    };
    c.startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(k.log).containsExactly("1000: end", "1000: irq 0x71 left 2500");
    assertThat(c.computeNs()).isEqualTo(1_000);
  }

  /**
   * The window for running several identical segments as one: open only in a segment-end
   * handler with no interrupt deliverable, up to the instant before the next armed event.
   */
  @Test
  void severalSegmentsRunAsOneOnlyWithinTheWindowBeforeTheNextArmedEvent() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    Cpu c = m.cpu(0);
    assertThat(c.inlineComputeUntil()).as("not in a segment end").isEqualTo(Long.MIN_VALUE);
    at(m, 5_000, () -> { }); // the next armed event after the first end
    long[] window = {0};
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        window[0] = cpu.inlineComputeUntil();
        cpu.startCompute(3_000, 3); // ends at 4000: within it
      } else {
        cpu.halt();
      }
    };
    c.startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(window[0]).isEqualTo(4_999);
    assertThat(k.log).containsExactly("1000: end", "4000: end");
    // The first end, three ends counted for the run of three, and the event at 5000.
    assertThat(sim.eventsFired()).isEqualTo(1 + 3 + 1);
    assertThat(sim.eventsFiredInline()).isEqualTo(3);
    assertThatIllegalArgumentException().isThrownBy(() -> c.startCompute(10, 0)).withMessage("cpu0: 0 segments");
  }

  @Test
  void severalSegmentsAsOneMayNotEndPastTheWindow() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    at(m, 5_000, () -> { });
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        // Four segments of 1000 as one from 1000 end at 5000, past the window (4999).
        assertThatIllegalStateException()
            .isThrownBy(() -> cpu.startCompute(4_000, 4))
            .withMessage("cpu0: 4 segments as one must end by 4999 ns, not 5000");
      } else {
        cpu.halt();
      }
    };
    m.cpu(0).startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(k.log).containsExactly("1000: end");
  }

  @Test
  void thereIsNoWindowWhileAnInterruptIsDeliverable() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    Cpu c = m.cpu(0);
    long[] window = {0};
    k.onFinish = cpu -> {
      cpu.sti();
      cpu.raise(VECTOR); // between segments: pending, deliverable
      window[0] = cpu.inlineComputeUntil();
      cpu.acceptInterrupt();
      cpu.eoi();
      cpu.halt();
    };
    c.startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(window[0]).isEqualTo(Long.MIN_VALUE);
  }

  /**
   * A segment started in a segment-end handler, with the next armed event at 5000, may be
   * ended by the kernel itself: from 1000, 1500 ends at 2500 and 2000 more at 4500, the clock
   * and the event count move as they would through the queue (1 queued end, then 2 inline),
   * and the CPU is between segments after each. One that would end at 5000 or later is not
   * the next event, and one started outside a segment end never ends inline.
   */
  @Test
  void theKernelMayEndAnInlineSegmentItselfOnlyWhileItIsTheNextEvent() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    Cpu c = m.cpu(0);
    at(m, 5_000, () -> { });
    List<String> seen = new ArrayList<>();
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (!first[0]) {
        cpu.halt();
        return;
      }
      first[0] = false;
      cpu.startCompute(1_500);
      seen.add(cpu.finishInlineCompute() + "@" + sim.now() + " " + cpu.segment() + " fired " + sim.eventsFired());
      cpu.startCompute(2_000);
      seen.add(cpu.finishInlineCompute() + "@" + sim.now() + " " + cpu.segment() + " fired " + sim.eventsFired());
      cpu.startCompute(500); // 4500 + 500 = 5000: after the event armed for 5000
      seen.add(cpu.finishInlineCompute() + "@" + sim.now() + " " + cpu.segment());
    };
    c.startCompute(1_000);
    assertThat(c.finishInlineCompute()).as("not started in a segment end").isFalse();
    sim.runUntil(10_000);
    assertThat(seen).containsExactly(
        "true@2500 NONE fired 2", "true@4500 NONE fired 3", "false@4500 COMPUTE");
    assertThat(k.log).containsExactly("1000: end", "5000: end");
    assertThat(c.computeNs()).isEqualTo(5_000);
    assertThat(sim.eventsFiredInline()).isEqualTo(2);
  }


  @Test
  void spinTimeGrowsWhileTheSpinRuns() {
    Machine m = machine(1);
    Cpu c = m.cpu(0);
    m.attach(new Script(m.simulation()));
    at(m, 1_000, c::startSpin);
    m.simulation().runUntil(3_500);
    assertThat(c.segment()).isEqualTo(Cpu.Segment.SPIN);
    assertThat(c.spinNs()).as("spinning since 1000").isEqualTo(2_500);
    assertThat(c.computeNs()).isZero();
    assertThat(c.haltNs()).isZero();
  }

  @Test
  void severalSegmentsAsOneMayEndAtTheLastInstantOfTheWindow() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    at(m, 5_000, () -> { });
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        cpu.startCompute(3_999, 3); // from 1000: ends at 4999, the window's last instant
      } else {
        cpu.halt();
      }
    };
    m.cpu(0).startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(k.log).containsExactly("1000: end", "4999: end");
    assertThat(sim.eventsFiredInline()).isEqualTo(3);
  }

  /**
   * A run of segments counted as one is only correct if nothing happens before its end; the
   * listener arming an event in between (after starting it) is a kernel bug, reported.
   */
  @Test
  void anEventArmedInsideARunOfSegmentsIsRefused() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        cpu.startCompute(3_000, 3); // from 1000 to 4000, within the open window
        at(m, 2_000, () -> { }); // ...and then something before its end
      } else {
        cpu.halt();
      }
    };
    m.cpu(0).startCompute(1_000);
    assertThatIllegalStateException()
        .isThrownBy(() -> sim.runUntil(10_000))
        .withMessage("cpu0: an event was armed inside a run of segments");
  }

  @Test
  void aZeroLengthSegmentEndingWithoutTheQueueAtTimeZeroCanBeStoppedAtOnce() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    long[] left = {-1};
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        cpu.startCompute(0); // at 0, nothing armed: its end at 0 skips the queue
        left[0] = cpu.stopSegment();
      }
      cpu.halt();
    };
    m.cpu(0).startCompute(0);
    sim.runUntil(10);
    assertThat(left[0]).isZero();
    assertThat(k.log).containsExactly("0: end");
    assertThat(m.cpu(0).segment()).isEqualTo(Cpu.Segment.HALT);
  }

  /** An interrupt whose delivery is already armed for this instant closes the window. */
  @Test
  void thereIsNoWindowWhileALateDeliveryIsArmed() {
    Machine m = machine(1);
    Simulation sim = m.simulation();
    Script k = new Script(sim);
    m.attach(k);
    long[] window = {0};
    boolean[] first = {true};
    k.onFinish = cpu -> {
      if (first[0]) {
        first[0] = false;
        cpu.sti();
        cpu.raise(VECTOR); // between segments: pending
        cpu.startSpin(); // not taken by the kernel: its delivery is armed for now
        cpu.stopSegment();
        cpu.cli(); // no longer deliverable, but the delivery event is still armed
        window[0] = cpu.inlineComputeUntil();
      }
      cpu.halt();
    };
    m.cpu(0).startCompute(1_000);
    sim.runUntil(10_000);
    assertThat(window[0]).isEqualTo(Long.MIN_VALUE);
  }
}
