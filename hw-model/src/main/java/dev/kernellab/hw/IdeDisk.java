package dev.kernellab.hw;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * An ATA disk on the primary IDE channel, IRQ 14.
 *
 * <p>The drive serves one command at a time from its request queue, in submission order (the
 * kernel's elevator decides that order before it submits). Service time = controller overhead
 * + seek over the cylinder distance from the head's position + rotational latency (uniform over
 * one revolution) + media transfer. When a command is done the drive raises INTRQ and waits:
 * the interrupt handler must {@linkplain #acknowledge() read the status} before the drive
 * starts the next queued command, as drivers/ide/ide.c's {@code ide_intr} of 2.4.17 issues
 * the next request from the handler.
 *
 * <p>In PIO mode the data still has to be copied by the CPU ({@link DiskSpec#pioCopyNs}); that
 * is the kernel's work, with interrupts masked unless {@link DiskSpec#unmaskIrq()}.
 * Parameters: docs/hardware-and-costs.md, IDE disk.
 */
public final class IdeDisk {

  /** The primary IDE channel's line. */
  public static final int IRQ = 14;

  private final Machine machine;
  private final Simulation sim;
  private final DiskSpec spec;
  private final SplittableRandom rotation;
  private final ArrayDeque<DiskRequest> queue = new ArrayDeque<>();
  private final Event done;
  private DiskRequest active;
  private DiskRequest completed;
  private long headCylinder;
  private long served;

  IdeDisk(Machine machine, DiskSpec spec) {
    this.machine = machine;
    this.sim = machine.simulation();
    this.spec = spec;
    this.rotation = sim.randoms().stream("disk.hda.rotation");
    this.done = new Event("disk.hda.done", now -> complete());
  }

  /** The drive's parameters. */
  public DiskSpec spec() {
    return spec;
  }

  /** Queues {@code r}; the drive starts it when it has nothing else to do. */
  public void submit(DiskRequest r) {
    if (r.inFlight()) {
      throw new IllegalStateException("request for lba " + r.lba() + " is already queued");
    }
    long capacity = spec.cylinders() * spec.sectorsPerCylinder();
    if (r.lba() + r.sectors() > capacity) {
      throw new IllegalArgumentException(
          "request beyond the end of the disk: lba " + r.lba() + " + " + r.sectors()
              + " sectors > " + capacity);
    }
    r.markInFlight(true);
    r.submittedNs = sim.now();
    queue.addLast(r);
    startNextIfIdle();
  }

  /**
   * The handler's status read: returns the request the drive finished and lets it start the
   * next one.
   *
   * @throws IllegalStateException if no command has completed
   */
  @Models(file = "drivers/ide/ide.c", function = "ide_intr", version = "2.4.17")
  public DiskRequest acknowledge() {
    DiskRequest r = completed;
    if (r == null) {
      throw new IllegalStateException("IDE status read with no completed command");
    }
    completed = null;
    r.markInFlight(false);
    startNextIfIdle();
    return r;
  }

  /** True if a completed command waits for its status read. */
  public boolean hasCompleted() {
    return completed != null;
  }

  /**
   * Sectors of the completed command awaiting its status read (what a PIO handler must copy).
   *
   * @throws IllegalStateException if no command has completed
   */
  public int completedSectors() {
    if (completed == null) {
      throw new IllegalStateException("no completed IDE command");
    }
    return completed.sectors();
  }

  /** Commands queued, in service or awaiting acknowledgement. */
  public int outstanding() {
    return queue.size() + (active != null ? 1 : 0) + (completed != null ? 1 : 0);
  }

  /** Commands the drive has completed. */
  public long served() {
    return served;
  }

  /** Cylinder the heads are over. */
  public long headCylinder() {
    return headCylinder;
  }

  private void startNextIfIdle() {
    if (active != null || completed != null || queue.isEmpty()) {
      return;
    }
    DiskRequest r = queue.pollFirst();
    active = r;
    r.startedNs = sim.now();
    long target = Math.min(r.lba() / spec.sectorsPerCylinder(), spec.cylinders() - 1);
    long seek = spec.seekNs(Math.abs(target - headCylinder));
    long rot = (long) (rotation.nextDouble() * spec.revolutionNs());
    headCylinder = target;
    sim.scheduleAfter(
        done, spec.controllerOverheadNs() + seek + rot + spec.mediaNs(r.sectors()));
  }

  private void complete() {
    DiskRequest r = active;
    active = null;
    r.completedNs = sim.now();
    completed = r;
    served++;
    machine.ioApic().assertLine(IRQ);
  }
}
