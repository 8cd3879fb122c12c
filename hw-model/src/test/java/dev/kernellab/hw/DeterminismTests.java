package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.sim.Simulation;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterminismTests {

  /** A busy machine: PIT, RTC, APIC timers, disk traffic and IPIs on two CPUs. */
  private static List<MiniKernel.Delivery> run(long seed) {
    Machine m = new Machine(MachineSpec.uniprocessor().withCpus(2), new Simulation(seed));
    MiniKernel k = new MiniKernel(m, 7_000, v -> v == m.ioApic().vectorOf(IdeDisk.IRQ));
    DiskRequest[] reqs = {new DiskRequest(), new DiskRequest()};
    java.util.SplittableRandom lbas = m.simulation().randoms().stream("test.lba");
    k.onHandler =
        () -> {
          if (m.disk().hasCompleted()) {
            DiskRequest r = m.disk().acknowledge();
            m.disk().submit(r.set(lbas.nextLong(1_000_000), 8, false));
            m.sendIpi(0, 1, Vectors.RESCHEDULE_VECTOR);
          }
        };
    for (int i = 0; i < 2; i++) {
      m.cpu(i).sti();
      m.cpu(i).startCompute(50_000_000_000L);
      m.localApic(i).startTimer(10_000_000);
    }
    m.pit().program(11_932);
    m.rtc().setPeriodicRate(2048);
    m.rtc().setPeriodicInterrupt(true);
    for (DiskRequest r : reqs) {
      m.disk().submit(r.set(lbas.nextLong(1_000_000), 8, false));
    }
    m.simulation().runUntil(2_000_000_000L);
    return k.deliveries;
  }

  @Test
  void theSameSeedGivesTheSameEventSequence() {
    List<MiniKernel.Delivery> a = run(42);
    assertThat(a).hasSizeGreaterThan(4_000);
    assertThat(run(42)).isEqualTo(a);
  }

  @Test
  void anotherSeedGivesAnotherDiskTimeline() {
    assertThat(run(43)).isNotEqualTo(run(42));
  }
}
