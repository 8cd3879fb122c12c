package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

/**
 * The limits of the hardware as built: what a machine, a cost table, a disk and the timers
 * accept, at both sides of each limit, and the disk's figures worked out from its parameters.
 */
class HardwareLimitsTests {

  private static final String[] COSTS = {
    "irqEntryNs", "irqExitNs", "contextSwitchNs", "ipiDeliveryNs", "syscallEntryNs", "syscallExitNs",
    "tscReadNs", "pitReadNs", "l1HitNs", "l2HitNs", "memoryNs", "isaPortNs", "ideRegisterNs", "apicAckNs",
    "cacheRefillNs"
  };

  private static CostTable costs(long[] c) {
    return new CostTable(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
  }

  @Test
  void everyCostMayBeZeroAndNoneNegative() {
    for (int i = 0; i < COSTS.length; i++) {
      long[] c = new long[COSTS.length];
      c[i] = -1;
      assertThatIllegalArgumentException()
          .isThrownBy(() -> costs(c))
          .withMessage("cost " + COSTS[i] + " must be >= 0 ns, got -1");
    }
    assertThat(costs(new long[COSTS.length])).isEqualTo(CostTable.zero());
  }

  private static DiskSpec disk(long cyl, long spc, int rpm, long t2t, long full, long media, long overhead, long pio) {
    return new DiskSpec(cyl, spc, rpm, t2t, full, media, overhead, true, pio, false);
  }

  @Test
  void aDiskNeedsPositiveGeometryRatesAndSeeks() {
    String[] names = {"cylinders", "sectorsPerCylinder", "rpm", "trackToTrackSeekNs", "mediaBytesPerSecond",
        "pioBytesPerSecond"};
    for (int i = 0; i < names.length; i++) {
      long[] v = {100, 100, 7_200, 1_000, 30_000_000, 16_600_000};
      v[i] = 0;
      String name = names[i];
      assertThatIllegalArgumentException()
          .isThrownBy(() -> disk(v[0], v[1], (int) v[2], v[3], Math.max(v[3], 1_000), v[4], 0, v[5]))
          .withMessage("disk " + name + " must be > 0, got 0");
    }
    // The limits themselves: one of everything, a full stroke as short as one track, no overhead.
    DiskSpec least = disk(1, 1, 1, 1, 1, 1, 0, 1);
    assertThat(least.fullStrokeSeekNs()).isEqualTo(least.trackToTrackSeekNs());
    assertThatIllegalArgumentException()
        .isThrownBy(() -> disk(100, 100, 7_200, 1_000, 1_000, 1, -1, 1))
        .withMessage("controller overhead must be >= 0 ns, got -1");
  }

  /** The seek curve a + b * sqrt(d) passes through its two defining figures (Ruemmler-Wilkes). */
  @Test
  void theSeekCurveMeetsTrackToTrackAtOneCylinderAndFullStrokeAtTheLast() {
    DiskSpec d = DiskSpec.ata7200rpm();
    assertThat(d.seekNs(0)).as("no movement").isZero();
    assertThat(d.seekNs(1)).isEqualTo(1_500_000);
    assertThat(d.seekNs(d.cylinders() - 1)).isEqualTo(14_700_000);
    // Two cylinders: the only seek is one track; the curve has no span to spread over.
    DiskSpec two = disk(2, 1_000, 7_200, 1_500_000, 14_700_000, 30_000_000, 0, 1);
    assertThat(two.seekNs(1)).isEqualTo(1_500_000);
  }

  @Test
  void transferTimesAndTheRevolutionFollowFromTheRates() {
    DiskSpec d = DiskSpec.ata7200rpm();
    // 60 s / 7200 = 8,333,333 ns a revolution.
    assertThat(d.revolutionNs()).isEqualTo(8_333_333);
    // 8 sectors = 4096 bytes: at 30 MB/s 136,533 ns; by PIO at 16.6 MB/s 246,746 ns.
    assertThat(d.mediaNs(8)).isEqualTo(136_533);
    assertThat(d.pioCopyNs(8)).isEqualTo(246_746);
    DiskSpec pio = d.withPio(true);
    assertThat(pio.dma()).isFalse();
    assertThat(pio.unmaskIrq()).isTrue();
    assertThat(pio.pioCopyNs(8)).isEqualTo(246_746);
  }

  @Test
  void aMachineHasOneTo32CpusAndAtLeast16Mb() {
    assertThat(MachineSpec.uniprocessor().withCpus(1).cpus()).isEqualTo(1);
    assertThat(MachineSpec.uniprocessor().withCpus(32).cpus()).isEqualTo(32);
    long min = 16L << 20;
    assertThat(MachineSpec.uniprocessor().withMemory(min).memoryBytes()).isEqualTo(min);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> MachineSpec.uniprocessor().withMemory(min - 1))
        .withMessage("a machine needs at least 16 MB of memory, got " + (min - 1) + " bytes");
    DiskSpec pio = DiskSpec.ata7200rpm().withPio(false);
    assertThat(MachineSpec.uniprocessor().withDisk(pio).disk()).isEqualTo(pio);
  }

  @Test
  void onlyOneKernelAttachesAndIpisGoBetweenCpusTheMachineHasOnExternalVectors() {
    Machine m = new Machine(MachineSpec.uniprocessor().withCpus(2).withCosts(CostTable.zero()), new Simulation(1));
    new MiniKernel(m, 0);
    assertThatIllegalStateException()
        .isThrownBy(() -> new MiniKernel(m, 0))
        .withMessage("a CpuListener is already attached to this machine");
    for (int[] bad : new int[][] {{-1, 0}, {2, 0}, {0, -1}, {0, 2}}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> m.sendIpi(bad[0], bad[1], Vectors.RESCHEDULE_VECTOR))
          .withMessage("IPI from cpu" + bad[0] + " to cpu" + bad[1] + " on a 2-CPU machine");
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> m.sendIpi(0, 1, 0x1f))
        .withMessage("vector 0x1f is not an external interrupt vector");
    m.cpu(1).sti();
    m.cpu(1).halt();
    m.sendIpi(1, 1, Vectors.RESCHEDULE_VECTOR); // to itself, as send_IPI_self does
    m.simulation().runUntil(1_000);
    assertThat(m.localApic(1).ipisReceived()).isEqualTo(1);
    m.cpu(1).sti();
    m.sendIpi(0, 1, Vectors.CALL_FUNCTION_VECTOR);
    m.simulation().runUntil(2_000);
    assertThat(m.localApic(1).ipisReceived()).isEqualTo(2);
    assertThat(m.localApic(1).cpu()).isSameAs(m.cpu(1));
    m.cpu(0).sti();
    m.cpu(0).halt();
    m.sendIpi(1, 0, Vectors.RESCHEDULE_VECTOR); // CPU 0 is a CPU too
    m.simulation().runUntil(3_000);
    assertThat(m.localApic(0).ipisReceived()).isEqualTo(1);
  }

  /** The 8254's 16-bit counter: a divisor of 1..65536, 0 being 65536 on the chip. */
  @Test
  void thePitTakesDivisorsOf1To65536AndStopsWhenTold() {
    Machine m = new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(1));
    new MiniKernel(m, 0);
    for (int bad : new int[] {0, 65_537}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> m.pit().program(bad))
          .withMessage("PIT divisor must be 1..65536, got " + bad);
    }
    assertThat(m.pit().running()).isFalse();
    m.pit().program(65_536);
    assertThat(m.pit().divisor()).isEqualTo(65_536);
    m.pit().program(1);
    assertThat(m.pit().divisor()).isEqualTo(1);
    m.pit().program(11_932);
    assertThat(m.pit().running()).isTrue();
    m.cpu(0).sti();
    m.cpu(0).halt();
    // 11932 / 1,193,180 Hz = 10,000,167.6 ns: ticks at 10,000,167 and 20,000,335 ns.
    m.simulation().runUntil(25_000_000);
    assertThat(m.ioApic().assertCount(Pit.IRQ)).isEqualTo(2);
    m.pit().stop();
    assertThat(m.pit().running()).isFalse();
    m.simulation().runUntil(100_000_000);
    assertThat(m.ioApic().assertCount(Pit.IRQ)).isEqualTo(2);
  }

  @Test
  void aLocalApicTimerRestartedRePhasesFromNowAndStopsWhenTold() {
    Machine m = new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(1));
    MiniKernel k = new MiniKernel(m, 0);
    m.cpu(0).sti();
    m.cpu(0).halt();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> m.localApic(0).startTimer(0))
        .withMessage("timer period must be > 0, got 0/1 ns");
    PeriodicTimer noDenominator = new PeriodicTimer(m.simulation(), "t", now -> { });
    assertThatIllegalArgumentException()
        .isThrownBy(() -> noDenominator.start(1_000, 0))
        .withMessage("timer period must be > 0, got 1000/0 ns");
    assertThat(noDenominator.running()).isFalse();
    m.localApic(0).startTimer(1_000);
    m.simulation().runUntil(2_500); // ticks at 1000, 2000
    m.localApic(0).startTimer(1_000); // re-phased: next at 3500, not 3000
    m.simulation().runUntil(4_000);
    m.localApic(0).stopTimer();
    m.simulation().runUntil(10_000);
    assertThat(k.deliveries).extracting(MiniKernel.Delivery::timeNs).containsExactly(1_000L, 2_000L, 3_500L);
  }
}
