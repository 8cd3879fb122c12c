package dev.kernellab.paths.drivers;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models drivers/block/ll_rw_blk.c {@code ll_rw_block()} / {@code submit_bh()} /
 * {@code __make_request()} and drivers/block/elevator.c {@code elevator_linus_merge()}
 * (2.4.17): handing buffers to the request queue, with {@code io_request_lock} taken by
 * {@code spin_lock_irq}, so the elevator's scan of the queue runs with interrupts off.
 *
 * <p>The IDE interrupt handler ({@code ide_intr}, drivers/ide/ide.c) and its PIO copy are
 * kernel-core's, registered on IRQ 14 from the machine's {@code DiskSpec}; the catalog lists
 * them ({@link #ideIntrEntry}) but does not replace them.
 */
public final class Block {

  /*
   * Implementation overview
   *
   * Each buffer goes through __make_request: io_request_lock with interrupts off, a scan of
   * the queue for a merge (elevator_linus_merge walks it from the tail, up to the whole queue
   * of nr_requests = 128 in 2.4.17 for small memory), then the unlock. The low-latency patch
   * put a conditional_schedule in submit_bh, between buffers (its drivers/block/ll_rw_blk.c
   * hunk; docs/lowlatency-sites.md). The model then sleeps once for the merged request
   * (kernel-core's diskIo).
   */

  /** The per-buffer loop of ll_rw_block: the site of the patch's submit_bh hunk. */
  public static final Site SUBMIT_BH = new Site("drivers/block/ll_rw_blk.c", "ll_rw_block", "submit_bh");
  /** The elevator's scan of the request queue, interrupts off; no patch touches it. */
  public static final Site ELEVATOR_SCAN = new Site("drivers/block/ll_rw_blk.c", "ll_rw_block", "elevator_linus_merge");

  /** Visiting one queued request in the merge scan: assumption, half L2 hits, 100 ns. */
  public static final long ELEVATOR_ENTRY_NS = 100;
  /** generic_make_request + __make_request bookkeeping per buffer: assumption, 1 us. */
  public static final long MAKE_REQUEST_NS = 1_000;
  /**
   * Requests queued when a buffer arrives. Assumption: usually a few, a full queue of
   * nr_requests = 128 (2.4.17 default) once in a hundred under a writeback storm.
   */
  public static final Distribution QUEUE_DEPTH =
      Distribution.empirical(new long[] {2, 16, 64, 128}, new double[] {0.6, 0.3, 0.09, 0.01});

  private final Locks locks;

  /** Builds the driver's paths for one kernel. */
  public Block(Locks locks) {
    this.locks = locks;
  }

  /**
   * ll_rw_block of {@code buffers} buffers making one request of {@code sectors} sectors at
   * {@code lba}, then the wait for it.
   */
  @Models(file = "drivers/block/ll_rw_blk.c", function = "ll_rw_block", version = "2.4.17")
  @Models(file = "drivers/block/ll_rw_blk.c", function = "submit_bh", version = "2.4.17")
  @Models(file = "drivers/block/ll_rw_blk.c", function = "__make_request", version = "2.4.17")
  @Models(file = "drivers/block/elevator.c", function = "elevator_linus_merge", version = "2.4.17")
  public KernelPath llRwBlock(Distribution buffers, Distribution lba, Distribution sectors, boolean write) {
    return KernelPath.path("drivers/block/ll_rw_blk.c", "ll_rw_block")
        .loop(SUBMIT_BH, buffers, bh -> bh
            .spinLockIrq(locks.ioRequestLock)
            .compute(MAKE_REQUEST_NS)
            .loop(ELEVATOR_SCAN, QUEUE_DEPTH, rq -> rq.compute(ELEVATOR_ENTRY_NS))
            .spinUnlockIrq(locks.ioRequestLock))
        .diskIo(lba, sectors, write)
        .build();
  }

  /** The row of one ll_rw_block of 32 buffers (a write_some_buffers batch). */
  public CatalogEntry entry(KernelPath batch) {
    long perBh = MAKE_REQUEST_NS + Quantiles.typical(QUEUE_DEPTH) * ELEVATOR_ENTRY_NS;
    long perBhTail = MAKE_REQUEST_NS + Quantiles.tail(QUEUE_DEPTH) * ELEVATOR_ENTRY_NS;
    return new CatalogEntry(
        "ll_rw_block (32 bh)", batch, List.of("io_request_lock (irqs off)"),
        32 * perBh, 31 * perBh + perBhTail,
        "irqs-off stretch = one elevator scan: 128 queued requests (1 in 100), 13.8 us",
        "100 ns/request scanned, 1 us/bh (assumptions); nr_requests 128 (2.4.17)");
  }

  /** The IDE interrupt handler of kernel-core, as a row: its length is per buffer head or PIO block. */
  public static CatalogEntry ideIntrEntry(KernelPath listingOnly) {
    // DMA: a request of 31 buffer heads ends in one interrupt, 4 DRAM misses (175 ns) a
    // b_end_io = 21.7 us plus 11 IDE register accesses (ide_dma_end, status, start of the next)
    // at 0.6 us. PIO: one DRQ block an interrupt, 16 sectors at multcount 16 = 493 us at ATA PIO
    // mode 4's 16.6 MB/s (hw-model DiskSpec), interrupts off unless hdparm -u1.
    return new CatalogEntry(
        "ide_intr (kernel-core)", listingOnly, List.of("io_request_lock (irqs off unless hdparm -u1)"),
        29_500, 493_500,
        "DMA: 31 buffer heads of a 248-sector request; PIO: a 16-sector DRQ block (multcount 16)",
        "4 DRAM misses a b_end_io (code, lmbench 175 ns); ATA PIO mode 4 16.6 MB/s; docs/hardware-and-costs.md, IDE");
  }
}
