package dev.kernellab.hw;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * An ATA disk on the primary IDE channel, IRQ 14.
 *
 * <p>The drive serves one command at a time from its request queue, in submission order (the
 * kernel's elevator decides that order before it submits). Positioning = controller overhead +
 * seek over the cylinder distance from the head's position + rotational latency (uniform over
 * one revolution); then the media transfer. The drive raises INTRQ and waits for the handler's
 * status read ({@link #service()}) before it goes on, as drivers/ide/ide.c's {@code ide_intr}
 * of 2.4.17 services it:
 *
 * <ul>
 *   <li>DMA ({@link DiskSpec#dma()}): once, when the whole command is done; the data moved by
 *       bus-master DMA without the CPU ({@code ide_dma_intr}).
 *   <li>PIO read: once per DRQ block of {@link DiskSpec#drqBlockSectors()} sectors, when the
 *       block is in the drive's buffer; the CPU copies it ({@link #blockSectors()}) before the
 *       status read, and the last block ends the command ({@code read_intr}, ide-disk.c).
 *   <li>PIO write: once per block the drive is ready to take, then once more when the data is
 *       on the media ({@code write_intr}, {@code multwrite_intr}). The first block is asked for
 *       by an interrupt too: 2.4.17's {@code do_rw_disk} writes it from the context that starts
 *       the command, which this drive does not see (a simplification).
 * </ul>
 *
 * <p>Parameters: docs/hardware-and-costs.md, IDE disk.
 */
public final class IdeDisk {

  /** The primary IDE channel's line. */
  public static final int IRQ = 14;

  private final Machine machine;
  private final Simulation sim;
  private final DiskSpec spec;
  private final SplittableRandom rotation;
  private final ArrayDeque<DiskRequest> queue = new ArrayDeque<>();
  private final Event raise;
  private DiskRequest active; // the command in service, from its start to its last status read
  private boolean intrq; // INTRQ raised for `active`, not yet serviced
  private int block; // sectors the pending interrupt's data block holds; 0: no data to move
  private boolean last; // servicing the pending interrupt ends the command
  private int moved; // sectors of `active` moved so far (PIO)
  private long mediaFromNs; // when `active`'s media transfer starts (after positioning)
  private long headCylinder;
  private long served;

  IdeDisk(Machine machine, DiskSpec spec) {
    this.machine = machine;
    this.sim = machine.simulation();
    this.spec = spec;
    this.rotation = sim.randoms().stream("disk.hda.rotation");
    this.raise = new Event("disk.hda.done", now -> raiseIntrq());
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
    long capacity = spec.capacitySectors();
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

  /** True while INTRQ is raised and the handler has not serviced it. */
  public boolean interruptPending() {
    return intrq;
  }

  /**
   * The request the pending interrupt is about.
   *
   * @throws IllegalStateException if no interrupt is pending
   */
  public DiskRequest pendingRequest() {
    requirePending();
    return active;
  }

  /**
   * Sectors the handler must move through the data port before its status read (a PIO DRQ
   * block); 0 for an interrupt with no data (DMA's, a PIO write's last).
   *
   * @throws IllegalStateException if no interrupt is pending
   */
  public int blockSectors() {
    requirePending();
    return block;
  }

  /**
   * Whether servicing the pending interrupt ends its command (the kernel then completes the
   * request's buffers).
   *
   * @throws IllegalStateException if no interrupt is pending
   */
  public boolean interruptEndsCommand() {
    requirePending();
    return last;
  }

  /**
   * The handler's status read, after it moved the {@link #blockSectors()}: lowers INTRQ and lets
   * the drive go on. Returns the request if this ended it (the drive then starts the next
   * queued command), null if more interrupts of it follow.
   *
   * @throws IllegalStateException if no interrupt is pending
   */
  @Models(file = "drivers/ide/ide.c", function = "ide_intr", version = "2.4.17")
  public DiskRequest service() {
    requirePending();
    intrq = false;
    moved += block;
    DiskRequest r = active;
    if (last) {
      active = null;
      r.markInFlight(false);
      startNextIfIdle();
      return r;
    }
    int left = r.sectors() - moved;
    if (r.write() && left == 0) {
      // all data taken: the drive writes it and interrupts when it is on the media
      arm(0, true, Math.max(sim.now(), mediaFromNs + spec.mediaNs(r.sectors())));
    } else if (r.write()) {
      arm(Math.min(left, spec.drqBlockSectors()), false, sim.now());
    } else {
      int next = Math.min(left, spec.drqBlockSectors());
      arm(next, next == left, Math.max(sim.now(), mediaFromNs + spec.mediaNs(moved + next)));
    }
    return null;
  }

  /**
   * The status read of an interrupt that ends its command: {@link #service()} where the caller
   * knows no data is left to move.
   *
   * @throws IllegalStateException if no command has completed
   */
  public DiskRequest acknowledge() {
    if (!hasCompleted()) {
      throw new IllegalStateException("IDE status read with no completed command");
    }
    return service();
  }

  /** True if a command's last interrupt waits for its status read. */
  public boolean hasCompleted() {
    return intrq && last;
  }

  /**
   * Sectors of the command whose last interrupt awaits its status read.
   *
   * @throws IllegalStateException if no command has completed
   */
  public int completedSectors() {
    if (!hasCompleted()) {
      throw new IllegalStateException("no completed IDE command");
    }
    return active.sectors();
  }

  /** Commands queued, in service or awaiting their status read. */
  public int outstanding() {
    return queue.size() + (active != null ? 1 : 0);
  }

  /** Commands the drive has completed. */
  public long served() {
    return served;
  }

  /** Cylinder the heads are over. */
  public long headCylinder() {
    return headCylinder;
  }

  private void requirePending() {
    if (!intrq) {
      throw new IllegalStateException("no IDE interrupt pending");
    }
  }

  private void startNextIfIdle() {
    if (active != null || queue.isEmpty()) {
      return;
    }
    DiskRequest r = queue.pollFirst();
    active = r;
    moved = 0;
    r.startedNs = sim.now();
    long target = Math.min(r.lba() / spec.sectorsPerCylinder(), spec.cylinders() - 1);
    long seek = spec.seekNs(Math.abs(target - headCylinder));
    long rot = (long) (rotation.nextDouble() * spec.revolutionNs());
    headCylinder = target;
    mediaFromNs = sim.now() + spec.controllerOverheadNs() + seek + rot;
    if (spec.dma()) {
      arm(0, true, mediaFromNs + spec.mediaNs(r.sectors()));
    } else if (r.write()) {
      // the drive asks for data as soon as it has decoded the command; it buffers it
      arm(Math.min(r.sectors(), spec.drqBlockSectors()), false, sim.now() + spec.controllerOverheadNs());
    } else {
      int first = Math.min(r.sectors(), spec.drqBlockSectors());
      arm(first, first == r.sectors(), mediaFromNs + spec.mediaNs(first));
    }
  }

  private void arm(int sectors, boolean ends, long atNs) {
    block = sectors;
    last = ends;
    sim.scheduleAfter(raise, atNs - sim.now());
  }

  private void raiseIntrq() {
    if (last) {
      active.completedNs = sim.now();
      served++;
    }
    intrq = true;
    machine.ioApic().assertLine(IRQ);
  }
}
