package dev.kernellab.hw;

/**
 * Physical parameters of an IDE disk and its interface mode.
 *
 * <p>Defaults ({@link #ata7200rpm()}) are a 7200 rpm ATA drive of 2000-2002 (IBM Deskstar
 * 75GXP/40GV specification and recalled figures; docs/hardware-and-costs.md, IDE disk).
 *
 * @param cylinders addressable cylinders (seek distances are in cylinders)
 * @param sectorsPerCylinder 512-byte sectors per cylinder (all heads), for LBA to cylinder
 * @param rpm spindle speed
 * @param trackToTrackSeekNs seek over one cylinder
 * @param fullStrokeSeekNs seek over all cylinders
 * @param mediaBytesPerSecond sustained media transfer rate
 * @param controllerOverheadNs command decode and drive electronics per request
 * @param dma true: the drive moves data by bus-master DMA (no CPU time); false: PIO, the CPU
 *     copies every word through the data port
 * @param pioBytesPerSecond PIO copy rate (used when {@code dma} is false)
 * @param unmaskIrq {@code hdparm -u1}: the driver re-enables interrupts during PIO copies
 */
public record DiskSpec(
    long cylinders,
    long sectorsPerCylinder,
    int rpm,
    long trackToTrackSeekNs,
    long fullStrokeSeekNs,
    long mediaBytesPerSecond,
    long controllerOverheadNs,
    boolean dma,
    long pioBytesPerSecond,
    boolean unmaskIrq) {

  /** Bytes per sector on every ATA disk of the era. */
  public static final int SECTOR_BYTES = 512;

  /** Validates the disk. */
  public DiskSpec {
    positive("cylinders", cylinders);
    positive("sectorsPerCylinder", sectorsPerCylinder);
    positive("rpm", rpm);
    positive("trackToTrackSeekNs", trackToTrackSeekNs);
    positive("mediaBytesPerSecond", mediaBytesPerSecond);
    positive("pioBytesPerSecond", pioBytesPerSecond);
    if (fullStrokeSeekNs < trackToTrackSeekNs) {
      throw new IllegalArgumentException(
          "full-stroke seek (" + fullStrokeSeekNs + " ns) is shorter than track-to-track ("
              + trackToTrackSeekNs + " ns)");
    }
    if (controllerOverheadNs < 0) {
      throw new IllegalArgumentException(
          "controller overhead must be >= 0 ns, got " + controllerOverheadNs);
    }
  }

  private static void positive(String name, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException("disk " + name + " must be > 0, got " + v);
    }
  }

  /**
   * A 7200 rpm ATA disk of the IBM Deskstar 75GXP class, UDMA.
   *
   * <p>Sources: full-stroke read seek 14.7 ms (IBM DTLA-307xxx spec); track-to-track ~1-2 ms
   * [recall], 1.5 ms taken; media rate 20-40 MB/s outer to inner [recall], 30 MB/s taken;
   * controller overhead ~0.5 ms [model]; PIO mode 4 at 16.6 MB/s (ATA-2 interface limit).
   * Geometry: 30 GB as 60,000 cylinders of 1,000 sectors, an assumption (only distance ratios
   * matter to the seek curve). With these figures the mean seek over uniformly random
   * distances comes to ~8.5 ms, the published average.
   */
  public static DiskSpec ata7200rpm() {
    return new DiskSpec(
        60_000, 1_000, 7_200, 1_500_000, 14_700_000, 30_000_000, 500_000, true, 16_600_000,
        true);
  }

  /** The same disk doing PIO, with or without {@code hdparm -u1}. */
  public DiskSpec withPio(boolean unmask) {
    return new DiskSpec(
        cylinders, sectorsPerCylinder, rpm, trackToTrackSeekNs, fullStrokeSeekNs,
        mediaBytesPerSecond, controllerOverheadNs, false, pioBytesPerSecond, unmask);
  }

  /** One revolution in ns. */
  public long revolutionNs() {
    return 60_000_000_000L / rpm;
  }

  /**
   * Seek time over {@code distance} cylinders: zero for none, otherwise the square-root curve
   * {@code a + b * sqrt(d)} through the track-to-track and full-stroke figures (Ruemmler and
   * Wilkes, "An introduction to disk drive modeling", IEEE Computer 1994).
   */
  public long seekNs(long distance) {
    if (distance <= 0) {
      return 0;
    }
    double span = StrictMath.sqrt(Math.max(1, cylinders - 1)) - 1;
    double b = span > 0 ? (fullStrokeSeekNs - trackToTrackSeekNs) / span : 0;
    return Math.round(trackToTrackSeekNs + b * (StrictMath.sqrt(distance) - 1));
  }

  /** Media transfer time for {@code sectors} sectors. */
  public long mediaNs(long sectors) {
    return sectors * SECTOR_BYTES * 1_000_000_000L / mediaBytesPerSecond;
  }

  /** CPU time of a PIO copy of {@code sectors} sectors. */
  public long pioCopyNs(long sectors) {
    return sectors * SECTOR_BYTES * 1_000_000_000L / pioBytesPerSecond;
  }
}
