package dev.kernellab.hw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One IDE command's life as drivers/ide/ide.c (2.4.17) sees it: submitted, served (controller
 * overhead + seek + rotation + media), INTRQ raised, the status read in ide_intr handing it
 * back; with the drive's bookkeeping (outstanding, head position) and the request's timestamps.
 */
class IdeDiskCommandTests {

  /** A kernel whose IDE handler reads the status and keeps what it got. */
  private static final class Handler implements CpuListener {
    final List<DiskRequest> done = new ArrayList<>();
    final List<Integer> sectors = new ArrayList<>();
    final IdeDisk disk;

    Handler(Machine m) {
      this.disk = m.disk();
      m.attach(this);
    }

    @Override
    public void interruptAccepted(Cpu cpu, int vector, long left) {
      sectors.add(disk.completedSectors());
      done.add(disk.acknowledge());
      cpu.eoi();
      cpu.sti();
      cpu.halt();
    }

    @Override
    public void segmentFinished(Cpu cpu) {
      cpu.halt();
    }
  }

  private static Machine machine(long seed) {
    Machine m = new Machine(MachineSpec.uniprocessor().withCosts(CostTable.zero()), new Simulation(seed));
    return m;
  }

  @Test
  void aRequestCarriesWhatToTransferAndIsRefusedOutOfRangeOrWhileQueued() {
    DiskRequest r = new DiskRequest().set(0, 1, true);
    assertThat(r.lba()).isZero();
    assertThat(r.sectors()).isEqualTo(1);
    assertThat(r.write()).isTrue();
    assertThat(new DiskRequest().set(5, 2, false).write()).isFalse();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new DiskRequest().set(-1, 1, false))
        .withMessage("disk request needs lba >= 0 and sectors >= 1, got lba -1, 1");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new DiskRequest().set(0, 0, false))
        .withMessage("disk request needs lba >= 0 and sectors >= 1, got lba 0, 0");

    Machine m = machine(1);
    new Handler(m);
    m.disk().submit(r);
    assertThat(r.inFlight()).isTrue();
    assertThatIllegalStateException().isThrownBy(() -> r.set(8, 8, false)).withMessage("request is still queued at the disk");
    assertThatIllegalStateException()
        .isThrownBy(() -> m.disk().submit(r))
        .withMessage("request for lba 0 is already queued");
  }

  @Test
  void theLastSectorOfTheDiskCanBeReadAndNotOnePast() {
    Machine m = machine(1);
    new Handler(m);
    long capacity = 60_000L * 1_000; // ata7200rpm: 60,000 cylinders of 1,000 sectors
    m.disk().submit(new DiskRequest().set(capacity - 8, 8, false));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> m.disk().submit(new DiskRequest().set(capacity - 7, 8, false)))
        .withMessage("request beyond the end of the disk: lba " + (capacity - 7) + " + 8 sectors > " + capacity);
  }

  @Test
  void theStatusReadHandsBackTheCompletedRequestAndOnlyThen() {
    Machine m = machine(1);
    Handler h = new Handler(m);
    IdeDisk disk = m.disk();
    assertThatIllegalStateException().isThrownBy(disk::acknowledge).withMessage("IDE status read with no completed command");
    assertThatIllegalStateException().isThrownBy(disk::completedSectors).withMessage("no completed IDE command");
    m.cpu(0).sti();
    m.cpu(0).halt();
    DiskRequest a = new DiskRequest().set(0, 8, false);
    DiskRequest b = new DiskRequest().set(30_000L * 1_000, 16, true);
    disk.submit(a);
    disk.submit(b);
    assertThat(disk.outstanding()).as("one in service, one queued").isEqualTo(2);
    m.simulation().runUntil(1_000_000_000L);
    assertThat(h.done).containsExactly(a, b);
    assertThat(h.sectors).containsExactly(8, 16);
    assertThat(disk.outstanding()).isZero();
    assertThat(disk.served()).isEqualTo(2);
    assertThat(a.inFlight()).isFalse();
    assertThat(disk.headCylinder()).isEqualTo(30_000);
    assertThat(disk.spec()).isEqualTo(DiskSpec.ata7200rpm());
    // Both submitted at 0; b waited for a's status read, which came at a's completion.
    assertThat(a.submittedNs()).isZero();
    assertThat(a.startedNs()).isZero();
    assertThat(b.submittedNs()).isZero();
    assertThat(b.startedNs()).isEqualTo(a.completedNs());
    assertThat(b.completedNs()).isEqualTo(b.startedNs() + b.serviceNs());
    assertThat(b.serviceNs()).isPositive();
    // Handed back, a request may go again: stamped with the instant of its new submission.
    disk.submit(a.set(8, 8, false));
    assertThat(a.submittedNs()).isEqualTo(1_000_000_000L);
    assertThat(a.startedNs()).as("the drive is idle: started at once").isEqualTo(1_000_000_000L);
  }

  /**
   * A request on the cylinder the heads are over needs no seek: its service is controller
   * overhead + rotation + media, the rotation uniform over one revolution, so over many such
   * requests it averages half a revolution: 8,333,333 / 2 = 4,166,666 ns at 7200 rpm.
   */
  @Test
  void withoutASeekServiceIsOverheadPlusMediaPlusOnAverageHalfARevolution() {
    Machine m = machine(7);
    Handler h = new Handler(m);
    m.cpu(0).sti();
    m.cpu(0).halt();
    DiskSpec spec = m.disk().spec();
    long last = 60_000L * 1_000 - 8; // on the last cylinder, 59,999
    int n = 400;
    List<DiskRequest> rs = new ArrayList<>();
    for (int i = 0; i < n + 1; i++) {
      DiskRequest r = new DiskRequest().set(last, 8, false);
      rs.add(r);
      m.disk().submit(r);
    }
    m.simulation().runUntil(60_000_000_000L);
    assertThat(h.done).hasSize(n + 1);
    long fixed = spec.controllerOverheadNs() + spec.mediaNs(8); // 500,000 + 136,533
    double rotation = 0;
    for (DiskRequest r : rs.subList(1, n + 1)) { // the first seeks from cylinder 0
      long rot = r.serviceNs() - fixed;
      assertThat(rot).isBetween(0L, spec.revolutionNs());
      rotation += rot;
    }
    // Uniform on [0, R): the mean of 400 has a standard error of R / sqrt(12 * 400) = 1.4 % of R.
    assertThat(rotation / n).isBetween(spec.revolutionNs() * 0.45, spec.revolutionNs() * 0.55);
    assertThat(m.disk().headCylinder()).isEqualTo(59_999);
  }
}
