package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.sim.Simulation;
import org.junit.jupiter.api.Test;

class MachineSpecTests {

  @Test
  void rejectsImpossibleCpuCounts() {
    for (int n : new int[] {0, -1, 33}) {
      assertThatThrownBy(() -> MachineSpec.uniprocessor().withCpus(n))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a machine has 1..32 CPUs, got " + n);
    }
  }

  @Test
  void rejectsNegativeCostsAndBadClock() {
    assertThatThrownBy(() -> new CostTable(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        .hasMessage("cost irqEntryNs must be >= 0 ns, got -1");
    assertThatThrownBy(
            () -> new MachineSpec(1, 0, CostTable.zero(), IrqRouting.ALL_TO_CPU0, DiskSpec.ata7200rpm()))
        .hasMessage("CPU clock must be > 0 Hz, got 0");
  }

  @Test
  void rejectsNegativeTimesAtTheApi() {
    Machine m = new Machine(MachineSpec.uniprocessor(), new Simulation(1));
    assertThatThrownBy(() -> m.cpu(0).startCompute(-5))
        .hasMessage("cpu0: negative compute time -5 ns");
    assertThatThrownBy(() -> m.simulation().runUntil(-1))
        .hasMessageContaining("cannot run until -1 ns");
  }

  @Test
  void rejectsADiskWhoseSeeksAreImpossible() {
    assertThatThrownBy(
            () -> new DiskSpec(100, 100, 7200, 2_000_000, 1_000_000, 1, 0, true, 1, false))
        .hasMessageContaining("full-stroke seek (1000000 ns) is shorter than track-to-track");
  }

  @Test
  void rejectsIpisToCpusThatDoNotExist() {
    Machine m = new Machine(MachineSpec.uniprocessor(), new Simulation(1));
    assertThatThrownBy(() -> m.sendIpi(0, 1, Vectors.RESCHEDULE_VECTOR))
        .hasMessage("IPI from cpu0 to cpu1 on a 1-CPU machine");
  }

  @Test
  void anSmiIsShorterThanItsPeriodAndNoneByDefault() {
    assertThat(MachineSpec.uniprocessor().smi()).isEmpty();
    Smi s = new Smi(1_000_000, 200_000);
    assertThat(MachineSpec.uniprocessor().withSmi(java.util.Optional.of(s)).withCpus(2).smi()).contains(s);
    assertThatThrownBy(() -> new Smi(1_000, 1_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an SMI needs 0 < length < period, got period 1000 ns, length 1000 ns");
    assertThatThrownBy(() -> new Smi(1_000, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
