package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdeDiskProperties {

  @Test
  void serviceTimesStayWithinThePhysicalBoundsOfTheSpec() {
    DiskSpec spec = DiskSpec.ata7200rpm();
    long capacity = spec.cylinders() * spec.sectorsPerCylinder();
    qt().withFixedSeed(14)
        .withExamples(100)
        .forAll(
            lists().of(longs().between(0, capacity - 256)).ofSizeBetween(1, 40),
            integers().between(1, 256))
        .checkAssert(
            (lbas, sectors) -> {
              Machine m = new Machine(MachineSpec.uniprocessor(), new Simulation(lbas.size()));
              List<DiskRequest> done = new ArrayList<>();
              IdeDisk disk = m.disk();
              m.attach(
                  new CpuListener() {
                    @Override
                    public void interruptAccepted(Cpu cpu, int vector, long left) {
                      done.add(disk.acknowledge());
                      cpu.eoi();
                      cpu.sti();
                      cpu.halt();
                    }

                    @Override
                    public void segmentFinished(Cpu cpu) {}
                  });
              m.cpu(0).sti();
              m.cpu(0).halt();
              long previousCylinder = 0;
              List<Long> bounds = new ArrayList<>();
              for (long lba : lbas) {
                disk.submit(new DiskRequest().set(lba, sectors, false));
                long cyl = lba / spec.sectorsPerCylinder();
                bounds.add(Math.abs(cyl - previousCylinder));
                previousCylinder = cyl;
              }
              m.simulation().runUntil(60_000_000_000L);
              assertThat(done).hasSize(lbas.size());
              for (int i = 0; i < done.size(); i++) {
                DiskRequest r = done.get(i);
                long fixed = spec.controllerOverheadNs() + spec.mediaNs(sectors);
                long seek = spec.seekNs(bounds.get(i));
                assertThat(r.serviceNs())
                    .isBetween(fixed + seek, fixed + seek + spec.revolutionNs());
                assertThat(seek).isLessThanOrEqualTo(spec.fullStrokeSeekNs());
              }
            });
  }

  @Test
  void meanSeekOverRandomDistancesIsThePublishedAverage() {
    DiskSpec spec = DiskSpec.ata7200rpm();
    java.util.SplittableRandom r = new java.util.SplittableRandom(1);
    double sum = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      long a = r.nextLong(spec.cylinders());
      long b = r.nextLong(spec.cylinders());
      sum += spec.seekNs(Math.abs(a - b));
    }
    // IBM 75GXP class: average read seek ~8.5-9 ms (docs/hardware-and-costs.md, IDE disk).
    assertThat(sum / n).isBetween(8_000_000.0, 9_200_000.0);
  }

  @Test
  void theDriveWaitsForTheStatusReadBeforeTheNextCommand() {
    Machine m = new Machine(MachineSpec.uniprocessor(), new Simulation(2));
    IdeDisk disk = m.disk();
    m.attach(
        new CpuListener() {
          @Override
          public void interruptAccepted(Cpu cpu, int vector, long left) {
            cpu.halt(); // never reads the status
          }

          @Override
          public void segmentFinished(Cpu cpu) {}
        });
    m.cpu(0).sti();
    m.cpu(0).halt();
    disk.submit(new DiskRequest().set(0, 8, false));
    disk.submit(new DiskRequest().set(1_000, 8, false));
    m.simulation().runUntil(1_000_000_000L);
    assertThat(disk.served()).isEqualTo(1);
    assertThat(disk.hasCompleted()).isTrue();
    assertThat(disk.outstanding()).isEqualTo(2);
  }
}
