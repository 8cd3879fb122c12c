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
 * @param dma {@code hdparm -d1}: the drive moves data by bus-master DMA (no CPU time) and
 *     interrupts once a command; false: PIO, the CPU copies every word through the data port,
 *     a DRQ block per interrupt
 * @param pioBytesPerSecond PIO copy rate (used when {@code dma} is false)
 * @param unmaskIrq {@code hdparm -u1}: the driver re-enables interrupts while it services the
 *     drive's interrupt ({@code drive->unmask})
 * @param multcount {@code hdparm -m}: sectors per DRQ block (and so per interrupt) in PIO, 0 for
 *     one sector a block (multiple mode off)
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
    boolean unmaskIrq,
    int multcount) {

  /** Bytes per sector on every ATA disk of the era. */
  public static final int SECTOR_BYTES = 512;

  /**
   * The drive's MaxMultSect, the largest multcount it accepts: 16 for the IBM Deskstar of the
   * defaults (the {@code hdparm -i} of an IC35L040AVER07 in B. Ramstad's "Re: IDE SiS730 / SiS5513
   * incorrect defaults kernel 2.4.9", LKML 12 Nov 2001).
   */
  public static final int MAX_MULTSECT = 16;

  /** Validates the disk. */
  public DiskSpec {
    positive("cylinders", cylinders);
    positive("sectorsPerCylinder", sectorsPerCylinder);
    positive("rpm", rpm);
    positive("trackToTrackSeekNs", trackToTrackSeekNs);
    positive("mediaBytesPerSecond", mediaBytesPerSecond);
    positive("pioBytesPerSecond", pioBytesPerSecond);
    try {
      Math.multiplyExact(cylinders, sectorsPerCylinder);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("disk geometry " + cylinders + " cylinders x " + sectorsPerCylinder
          + " sectors overflows a sector count", e);
    }
    if (fullStrokeSeekNs < trackToTrackSeekNs) {
      throw new IllegalArgumentException(
          "full-stroke seek (" + fullStrokeSeekNs + " ns) is shorter than track-to-track ("
              + trackToTrackSeekNs + " ns)");
    }
    if (controllerOverheadNs < 0) {
      throw new IllegalArgumentException(
          "controller overhead must be >= 0 ns, got " + controllerOverheadNs);
    }
    checkMultcount(multcount);
  }

  /** The 10-argument form: multiple mode off. */
  public DiskSpec(long cylinders, long sectorsPerCylinder, int rpm, long trackToTrackSeekNs,
      long fullStrokeSeekNs, long mediaBytesPerSecond, long controllerOverheadNs, boolean dma,
      long pioBytesPerSecond, boolean unmaskIrq) {
    this(cylinders, sectorsPerCylinder, rpm, trackToTrackSeekNs, fullStrokeSeekNs, mediaBytesPerSecond,
        controllerOverheadNs, dma, pioBytesPerSecond, unmaskIrq, 0);
  }

  /**
   * The rule for a multcount: 0 (off), or a power of two up to {@link #MAX_MULTSECT} (the sector
   * counts SET MULTIPLE MODE takes, ATA-2); returns it.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static int checkMultcount(int multcount) {
    if (multcount < 0 || multcount > MAX_MULTSECT || Integer.bitCount(multcount) > 1) {
      throw new IllegalArgumentException("multcount must be 0 (off) or a power of two up to "
          + MAX_MULTSECT + " (the drive's MaxMultSect), got " + multcount);
    }
    return multcount;
  }

  /** The disk's size in sectors. */
  public long capacitySectors() {
    return cylinders * sectorsPerCylinder;
  }

  /** Sectors in one DRQ block of PIO: the multcount, or 1 with multiple mode off. */
  public int drqBlockSectors() {
    return multcount == 0 ? 1 : multcount;
  }

  private static void positive(String name, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException("disk " + name + " must be > 0, got " + v);
    }
  }

  /**
   * A 7200 rpm ATA disk of the IBM Deskstar 75GXP class on the Intel PIIX4 IDE of a 2002
   * desktop, as a Red Hat 7.2/7.3 install left it: DMA on, unmaskirq off, multcount off.
   *
   * <p>Sources: full-stroke read seek 14.7 ms (IBM DTLA-307xxx spec); track-to-track ~1-2 ms
   * [recall], 1.5 ms taken; media rate 20-40 MB/s outer to inner [recall], 30 MB/s taken;
   * controller overhead ~0.5 ms [model]; PIO mode 4 at 16.6 MB/s (ATA-2 interface limit).
   * Geometry: 30 GB as 60,000 cylinders of 1,000 sectors, an assumption (only distance ratios
   * matter to the seek curve). With these figures the mean seek over uniformly random
   * distances comes to ~8.5 ms, the published average.
   *
   * <p>The interface settings, said out loud. DMA on: 2.4.17's piix.c {@code ide_init_piix()}
   * (and via82cxxx.c) turn autodma on when the kernel has CONFIG_PIIX_TUNING (CONFIG_IDEDMA_AUTO
   * for VIA); that Red Hat's kernels were built with them is an assumption. unmaskirq off: the
   * IDE driver's default ({@code drive->unmask} is 0) unless a chipset driver sets it; piix.c
   * never does (via82cxxx.c sets it to 1 on all but the vt82c576, so a VIA desktop had -u1), and
   * Red Hat's /etc/sysconfig/harddisks leaves -u1 to EXTRA_PARAMS for the user (quoted in B.
   * Ramstad's mail above). multcount off: INITIAL_MULT_COUNT is 0 (include/linux/ide.h) without
   * CONFIG_IDEDISK_MULTI_MODE, and the same file ships {@code MULTIPLE_IO=16} commented out.
   */
  public static DiskSpec ata7200rpm() {
    return new DiskSpec(
        60_000, 1_000, 7_200, 1_500_000, 14_700_000, 30_000_000, 500_000, true, 16_600_000,
        false, 0);
  }

  /** The same disk doing PIO, with or without {@code hdparm -u1}. */
  public DiskSpec withPio(boolean unmask) {
    return withDma(false).withUnmaskIrq(unmask);
  }

  /** The same disk with DMA on or off ({@code hdparm -d}). */
  public DiskSpec withDma(boolean on) {
    return new DiskSpec(
        cylinders, sectorsPerCylinder, rpm, trackToTrackSeekNs, fullStrokeSeekNs,
        mediaBytesPerSecond, controllerOverheadNs, on, pioBytesPerSecond, unmaskIrq, multcount);
  }

  /** The same disk with unmaskirq on or off ({@code hdparm -u}). */
  public DiskSpec withUnmaskIrq(boolean on) {
    return new DiskSpec(
        cylinders, sectorsPerCylinder, rpm, trackToTrackSeekNs, fullStrokeSeekNs,
        mediaBytesPerSecond, controllerOverheadNs, dma, pioBytesPerSecond, on, multcount);
  }

  /** The same disk with another multcount ({@code hdparm -m}). */
  public DiskSpec withMultcount(int sectors) {
    return new DiskSpec(
        cylinders, sectorsPerCylinder, rpm, trackToTrackSeekNs, fullStrokeSeekNs,
        mediaBytesPerSecond, controllerOverheadNs, dma, pioBytesPerSecond, unmaskIrq, sectors);
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
