package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PIO as the drive shows it to 2.4.17's read_intr, write_intr and multwrite_intr
 * (drivers/ide/ide-disk.c): one interrupt per DRQ block of multcount sectors (one with multiple
 * mode off), a PIO write's extra interrupt once the data is on the media, and DMA's single one.
 */
class IdeDiskPioTests {

  /** A handler that services every interrupt at once and notes each block it was offered. */
  private static final class Handler implements CpuListener {
    final List<Integer> blocks = new ArrayList<>();
    final List<Long> at = new ArrayList<>();
    final List<DiskRequest> done = new ArrayList<>();
    final IdeDisk disk;
    final Simulation sim;

    Handler(Machine m) {
      this.disk = m.disk();
      this.sim = m.simulation();
      m.attach(this);
    }

    @Override
    public void interruptAccepted(Cpu cpu, int vector, long left) {
      blocks.add(disk.blockSectors());
      at.add(sim.now());
      DiskRequest r = disk.service();
      if (r != null) {
        done.add(r);
      }
      cpu.eoi();
      cpu.sti();
      cpu.halt();
    }

    @Override
    public void segmentFinished(Cpu cpu) {
      cpu.halt();
    }
  }

  private static Handler run(DiskSpec disk, DiskRequest... rs) {
    Machine m = new Machine(
        MachineSpec.uniprocessor().withCosts(CostTable.zero()).withDisk(disk), new Simulation(3));
    Handler h = new Handler(m);
    for (DiskRequest r : rs) {
      m.disk().submit(r);
    }
    m.cpu(0).sti();
    m.cpu(0).halt();
    m.simulation().runUntil(1_000_000_000L);
    return h;
  }

  @Test
  void aPioReadInterruptsOncePerSectorWithMultipleModeOff() {
    Handler h = run(DiskSpec.ata7200rpm().withPio(false), new DiskRequest().set(0, 8, false));
    assertThat(h.blocks).containsExactly(1, 1, 1, 1, 1, 1, 1, 1);
    assertThat(h.done).hasSize(1);
  }

  @Test
  void aPioReadMovesMultcountSectorsAnInterruptAndTheRestLast() {
    Handler h = run(DiskSpec.ata7200rpm().withPio(false).withMultcount(16), new DiskRequest().set(0, 40, false));
    assertThat(h.blocks).containsExactly(16, 16, 8);
    // the blocks follow the media: 16 sectors at 30 MB/s are 273 us apart
    DiskSpec d = DiskSpec.ata7200rpm();
    assertThat(h.at.get(1) - h.at.get(0)).isEqualTo(d.mediaNs(32) - d.mediaNs(16));
  }

  @Test
  void aPioWriteAsksForEveryBlockThenInterruptsOnceMoreWhenTheDataIsOnTheMedia() {
    DiskRequest w = new DiskRequest().set(0, 16, true);
    Handler h = run(DiskSpec.ata7200rpm().withPio(true).withMultcount(8), w);
    assertThat(h.blocks).containsExactly(8, 8, 0);
    assertThat(h.done).containsExactly(w);
    assertThat(w.completedNs()).isEqualTo(h.at.get(2));
  }

  @Test
  void dmaInterruptsOnceACommandWithNoDataToMove() {
    Handler h = run(DiskSpec.ata7200rpm(), new DiskRequest().set(0, 248, false), new DiskRequest().set(1_000, 8, true));
    assertThat(h.blocks).containsExactly(0, 0);
    assertThat(h.done).hasSize(2);
  }

  @Test
  void theDriveWaitsForTheStatusReadAndRefusesOneWithNoInterrupt() {
    Machine m = new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(3));
    assertThatIllegalStateException().isThrownBy(m.disk()::service).withMessage("no IDE interrupt pending");
    assertThatIllegalStateException().isThrownBy(m.disk()::blockSectors).withMessage("no IDE interrupt pending");
  }

  @Test
  void aMultcountIsOffOrAPowerOfTwoUpToTheDrivesMaxMultSect() {
    for (int ok : new int[] {0, 1, 2, 4, 8, 16}) {
      assertThat(DiskSpec.ata7200rpm().withMultcount(ok).multcount()).isEqualTo(ok);
    }
    for (int bad : new int[] {-1, 3, 12, 32}) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> DiskSpec.ata7200rpm().withMultcount(bad))
          .withMessage("multcount must be 0 (off) or a power of two up to 16 (the drive's MaxMultSect), got " + bad);
    }
    assertThat(DiskSpec.ata7200rpm().drqBlockSectors()).isEqualTo(1);
    assertThat(DiskSpec.ata7200rpm().withMultcount(16).drqBlockSectors()).isEqualTo(16);
  }

  @Test
  void theDefaultDiskIsARedHatPiix4Install() {
    DiskSpec d = DiskSpec.ata7200rpm();
    assertThat(d.dma()).isTrue();
    assertThat(d.unmaskIrq()).isFalse();
    assertThat(d.multcount()).isZero();
  }
}
