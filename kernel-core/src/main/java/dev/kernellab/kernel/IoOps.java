package dev.kernellab.kernel;

import dev.kernellab.hw.DiskRequest;
import dev.kernellab.hw.DiskSpec;
import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskState;

/**
 * Block I/O as a task sees it, and the IDE interrupt that completes it.
 *
 * <p>A task's transfer of {@code n} sectors is {@code ceil(n / 8)} buffer heads of a 4 KiB block
 * file system, which the block layer merges into requests of at most {@link #MAX_SECTORS}
 * sectors; the task sleeps until all of them are done. The IDE handler completes a request one
 * buffer head at a time ({@code ide_end_request} per {@code b_end_io}) and starts the next.
 */
final class IoOps {

  /*
   * Implementation overview
   *
   * Submission (ll_rw_block -> submit_bh -> __make_request, drivers/block/ll_rw_blk.c 2.4.17):
   * each buffer head either back-merges into the request built so far, while that stays within
   * max_sectors (255 for IDE disks: ide-probe.c init_gendisk), or starts a new one. A task's own
   * buffers are contiguous, so its n buffer heads make ceil(n / 31) requests of up to 31 heads
   * (248 sectors). Merges with other tasks' requests are not modelled: the model's submitters
   * draw their blocks independently, and a merged request would only move buffer heads between
   * interrupts, not change their number.
   *
   * Completion (ide_intr, drivers/ide/ide.c; ide_dma_intr, ide-dma.c; read_intr, write_intr,
   * multwrite_intr, ide-disk.c; 2.4.17). ide_intr runs from do_IRQ with interrupts on (the line
   * is SA_SHIRQ on a PCI chipset, ide-probe.c init_irq) and at once takes io_request_lock with
   * spin_lock_irqsave; it drops the lock but not the interrupt flag, and only with hdparm -u1
   * (drive->unmask) turns interrupts on before the handler proper. So with unmaskirq off all of
   * the following runs with interrupts off:
   *
   *   ide_intr      spin_lock_irqsave(io_request_lock); status read; spin_unlock
   *                 [unmask: sti]
   *     DMA         ide_dma_intr: ide_dma_end (bus-master registers), status read, then
   *                 for each buffer head: ide_end_request = spin_lock_irqsave(io_request_lock),
   *                 end_that_request_first -> bh->b_end_io, spin_unlock_irqrestore
   *     PIO read    read_intr: status read, insw of one DRQ block (multcount sectors, or 1),
   *                 ide_end_request for each buffer head the block finished
   *     PIO write   write_intr/multwrite_intr: outsw of the next block, or at the last
   *                 interrupt ide_end_request for the buffer heads left
   *                 spin_lock_irq(io_request_lock)
   *     request done: ide_do_request: spin_unlock; sti (always); start_request; spin_lock_irq
   *                 spin_unlock_irqrestore
   *
   * The task waiting for the request is woken by the b_end_io of its last buffer head.
   */

  private IoOps() {}

  /** {@code max_sectors} of an IDE disk: 255 (2.4.17 drivers/ide/ide-probe.c init_gendisk). */
  static final int MAX_SECTORS = 255;

  /**
   * Sectors per buffer head: 4 KiB blocks, the block size mke2fs (e2fsprogs 1.2x) picks for a
   * file system over 512 MB, an assumption for the disks of the loads.
   */
  static final int BH_SECTORS = 8;

  /** Buffer heads a request holds at most: 31 of 8 sectors within 255. */
  static final int BH_PER_REQUEST = MAX_SECTORS / BH_SECTORS;

  /** Sectors one call transfers at most (the catalog's largest batch, 32 buffers of 4 KiB). */
  static final int MAX_CALL_SECTORS = 256;

  /**
   * DRAM misses of one {@code b_end_io}, counted in the code: end_that_request_first reads the
   * buffer head ({@code b_reqnext}, {@code b_size}, {@code b_end_io}: one line), and
   * end_buffer_io_sync/_async marks it up to date and unlocks it ({@code b_state}, the
   * {@code b_wait} queue it wakes: a second line), drops {@code b_count}, and for a page read
   * sets the page up to date and unlocks it (its flags and wait queue: two more). A request's
   * buffer heads were last touched when it was submitted, milliseconds of other work earlier,
   * so each is a miss (fs/buffer.c, drivers/block/ll_rw_blk.c 2.4.17; the miss is lmbench's
   * memory latency, CostTable.memoryNs).
   */
  static final int B_END_IO_MISSES = 4;

  /**
   * IDE register accesses of {@code ide_intr} before the handler proper: {@code ide_ack_intr}
   * and {@code drive_is_ready}'s status read (ide.c 2.4.17).
   */
  static final int INTR_STATUS_REGISTERS = 1;

  /**
   * {@code ide_dma_end} and the status read of {@code ide_dma_intr}: the bus-master command
   * register read and written (stop), its status read and written (clear), GET_STAT: 5
   * (ide-dma.c 2.4.17).
   */
  static final int DMA_END_REGISTERS = 5;

  /**
   * {@code start_request} of the next request: {@code do_rw_disk}'s six taskfile writes (device
   * control, count, three LBA bytes, select) and the command; DMA adds the PRD table address,
   * the bus-master direction, its status read and write, and the start bit read and written:
   * 13, PIO 7 (ide-disk.c do_rw_disk, ide-dma.c ide_dmaproc ide_dma_read/begin, 2.4.17).
   */
  static final int START_REQUEST_REGISTERS_DMA = 13;

  /** {@link #START_REQUEST_REGISTERS_DMA} without the bus-master part. */
  static final int START_REQUEST_REGISTERS_PIO = 7;

  /** The loop of {@code ide_end_request} over a request's buffer heads. */
  static final Site END_REQUEST =
      new Site("drivers/ide/ide.c", "ide_end_request", "end_that_request_first");

  /** A request the block layer built: a run of buffer heads, and the task waiting for it. */
  static final class BlockRequest extends DiskRequest {
    final TaskIo owner;
    int buffers; // buffer heads in the request
    int moved; // sectors moved so far (PIO)
    int ended; // buffer heads whose b_end_io ran

    BlockRequest(TaskIo owner) {
      this.owner = owner;
    }

    /** Buffer heads finished once {@code sectors} of the request have moved. */
    int finishedAt(int sectors) {
      return sectors >= sectors() ? buffers : sectors / BH_SECTORS;
    }
  }

  /** A task's reusable requests, remembering whom to wake. */
  static final class TaskIo {
    final Task owner;
    final WaitQueue wait;
    final BlockRequest[] requests;
    int outstanding; // requests submitted and not yet ended

    TaskIo(Task owner) {
      this.owner = owner;
      this.wait = new WaitQueue("wait_on_buffer." + owner.pid());
      int bhMax = (MAX_CALL_SECTORS + BH_SECTORS - 1) / BH_SECTORS;
      this.requests = new BlockRequest[(bhMax + BH_PER_REQUEST - 1) / BH_PER_REQUEST];
      for (int i = 0; i < requests.length; i++) {
        requests[i] = new BlockRequest(this);
      }
    }
  }

  /** Submit and wait. */
  @Models(file = "drivers/block/ll_rw_blk.c", function = "ll_rw_block", version = "2.4.17")
  @Models(file = "drivers/block/ll_rw_blk.c", function = "__make_request", version = "2.4.17")
  @Models(file = "fs/buffer.c", function = "__wait_on_buffer", version = "2.4.17")
  static final class DiskIo extends Op {
    final Count lba;
    final Count sectors;
    final String sectorsLabel;
    final boolean write;

    DiskIo(Distribution lba, Distribution sectors, boolean write) {
      this(c -> c.sample(lba), c -> c.sample(sectors), sectors.toString(), write);
    }

    DiskIo(Count lba, Count sectors, String sectorsLabel, boolean write) {
      this.lba = lba;
      this.sectors = sectors;
      this.sectorsLabel = sectorsLabel;
      this.write = write;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      Task t = c.current;
      TaskIo io = k.lifecycle.taskIo(t);
      switch (f.phase) {
        case 0 -> {
          IdeDisk disk = c.machine().disk();
          long capacity = disk.spec().capacitySectors();
          long want = sectors.at(c);
          long start = lba.at(c);
          if (want <= 0 || start < 0 || start >= capacity) {
            throw k.bug(c, "disk I/O outside the disk", want + " sectors (" + sectorsLabel + ") at LBA "
                + start + " on a disk of " + capacity + " sectors, in " + ctx.currentPath());
          }
          // a call longer than one submit's worth, or running off the end, is cut to fit
          int n = (int) Math.min(want, MAX_CALL_SECTORS);
          long at = Math.min(start, capacity - n);
          boolean idle = disk.outstanding() == 0;
          io.outstanding = submit(io, disk, at, n, write);
          f.phase = 1;
          if (idle) {
            // do_ide_request from tq_disk: ide_do_request starts the first request itself,
            // with interrupts on (ide__sti) (ide.c 2.4.17)
            c.compute(f, startRequestNs(k, disk.spec()), false);
          }
        }
        case 1 -> {
          if (io.outstanding == 0) {
            f.advance();
            return;
          }
          io.wait.add(t, false);
          t.setState(TaskState.UNINTERRUPTIBLE);
          f.phase = 2;
          k.sched.callSchedule(c, ctx);
        }
        default -> {
          t.setState(TaskState.RUNNING);
          io.wait.remove(t);
          f.phase = 1;
        }
      }
    }

    /** The requests __make_request builds of {@code n} contiguous sectors; how many. */
    private static int submit(TaskIo io, IdeDisk disk, long lba, int n, boolean write) {
      int bh = (n + BH_SECTORS - 1) / BH_SECTORS;
      int made = 0;
      for (int first = 0; first < bh; first += BH_PER_REQUEST) {
        int heads = Math.min(BH_PER_REQUEST, bh - first);
        int from = first * BH_SECTORS;
        int len = Math.min(n - from, heads * BH_SECTORS);
        BlockRequest r = io.requests[made++];
        r.set(lba + from, len, write);
        r.buffers = heads;
        r.moved = 0;
        r.ended = 0;
        disk.submit(r);
      }
      return made;
    }

    @Override
    String describe() {
      return (write ? "write" : "read") + " " + sectorsLabel + " sectors: submit_bh(); wait_on_buffer()";
    }
  }

  static long startRequestNs(Kernel k, DiskSpec spec) {
    return (spec.dma() ? START_REQUEST_REGISTERS_DMA : START_REQUEST_REGISTERS_PIO) * k.costs().ideRegisterNs();
  }

  /** What one IDE interrupt is working on, for the loop counts of its paths. */
  private static final class IdeIrq {
    BlockRequest request; // the request the interrupt is about
    int endNow; // buffer heads this interrupt completes
    boolean requestDone; // the request ended with this interrupt
  }

  /**
   * The IDE driver of {@code spec}'s interface mode on IRQ 14, with {@code ioRequestLock} as
   * the block layer's {@code io_request_lock}: {@code ide_intr} and the handler it calls.
   */
  @Models(file = "drivers/ide/ide.c", function = "ide_intr", version = "2.4.17")
  static KernelPath ideInterrupt(DiskSpec spec, SpinLock ioRequestLock) {
    IdeIrq irq = new IdeIrq();
    KernelPath endRequest = endRequest(ioRequestLock, irq);
    KernelPath handler;
    if (spec.dma()) {
      handler = dmaIntr(irq, endRequest);
    } else {
      KernelPath read = pioIntr("read_intr", false, irq, endRequest);
      KernelPath write = pioIntr(spec.multcount() > 0 ? "multwrite_intr" : "write_intr", true, irq, endRequest);
      handler = KernelPath.path("drivers/ide/ide.c", "ide_intr/handler")
          .callIfElse("rq_data_dir(rq) == WRITE", c -> c.machine().disk().pendingRequest().write(), write, read)
          .build();
    }
    KernelPath doRequest =
        KernelPath.path("drivers/ide/ide.c", "ide_do_request")
            .spinUnlock(ioRequestLock)
            .localIrqEnable()
            .compute("start_request(): taskfile and bus-master registers",
                c -> startRequestNs(c.kernel(), c.machine().disk().spec()))
            .spinLockIrq(ioRequestLock)
            .build();
    KernelPath.Builder b = KernelPath.path("drivers/ide/ide.c", "ide_intr")
        .cause(new IdeInterruptCause(spec.dma() ? "ide_dma_intr" : "read_intr/write_intr", spec.dma(),
            spec.unmaskIrq(), spec.multcount()))
        .spinLockIrqSave(ioRequestLock)
        .compute("drive_is_ready(): status register",
            c -> INTR_STATUS_REGISTERS * c.kernel().costs().ideRegisterNs())
        .spinUnlock(ioRequestLock);
    if (spec.unmaskIrq()) {
      b.localIrqEnable();
    }
    return b.call(handler)
        .spinLockIrq(ioRequestLock)
        .callIf("ide_stopped and a request queued: ide_do_request()",
            c -> irq.requestDone && c.machine().disk().outstanding() > 0, doRequest)
        .spinUnlockIrqRestore(ioRequestLock)
        .build();
  }

  /** {@code ide_end_request} for each buffer head the interrupt finished, then the wake-up. */
  @Models(file = "drivers/ide/ide.c", function = "ide_end_request", version = "2.4.17")
  @Models(file = "drivers/block/ll_rw_blk.c", function = "end_that_request_first", version = "2.4.17")
  @Models(file = "drivers/block/ll_rw_blk.c", function = "end_that_request_last", version = "2.4.17")
  private static KernelPath endRequest(SpinLock ioRequestLock, IdeIrq irq) {
    return KernelPath.path("drivers/ide/ide.c", "ide_end_request")
        .loop(END_REQUEST, c -> irq.endNow, bh -> bh
            .spinLockIrqSave(ioRequestLock)
            .compute("end_that_request_first(): bh->b_end_io()",
                c -> B_END_IO_MISSES * c.kernel().costs().memoryNs())
            .spinUnlockIrqRestore(ioRequestLock))
        .effect("end_that_request_last(): the waiter's last buffer is unlocked, wake_up()", c -> {
          BlockRequest r = irq.request;
          if (irq.requestDone && --r.owner.outstanding == 0) {
            c.wakeUp(r.owner.wait);
          }
        })
        .build();
  }

  /** {@code ide_dma_intr}: stop the bus master, read the status, end every buffer head. */
  @Models(file = "drivers/ide/ide-dma.c", function = "ide_dma_intr", version = "2.4.17")
  private static KernelPath dmaIntr(IdeIrq irq, KernelPath endRequest) {
    return KernelPath.path("drivers/ide/ide-dma.c", "ide_dma_intr")
        .compute("ide_dma_end(), GET_STAT()", c -> DMA_END_REGISTERS * c.kernel().costs().ideRegisterNs())
        .effect("the drive's status read", c -> service(c, irq))
        .call(endRequest)
        .build();
  }

  /**
   * {@code read_intr} or {@code write_intr}/{@code multwrite_intr}: move the drive's DRQ block
   * through the data port ({@code insw}/{@code outsw} at the PIO rate), read the status, end the
   * buffer heads that are done.
   */
  @Models(file = "drivers/ide/ide-disk.c", function = "read_intr", version = "2.4.17")
  @Models(file = "drivers/ide/ide-disk.c", function = "write_intr", version = "2.4.17")
  @Models(file = "drivers/ide/ide-disk.c", function = "multwrite_intr", version = "2.4.17")
  private static KernelPath pioIntr(String function, boolean write, IdeIrq irq, KernelPath endRequest) {
    return KernelPath.path("drivers/ide/ide-disk.c", function)
        .compute("GET_STAT()", c -> c.kernel().costs().ideRegisterNs())
        .compute(write ? "idedisk_output_data(): outsw of the DRQ block" : "idedisk_input_data(): insw of the DRQ block",
            c -> {
              IdeDisk d = c.machine().disk();
              return d.spec().pioCopyNs(d.blockSectors());
            })
        .effect("the drive's status read", c -> service(c, irq))
        .call(endRequest)
        .build();
  }

  /**
   * The status read: the drive goes on, and the interrupt learns which buffer heads it
   * finished. A read's block finishes the heads it filled; write_intr ends a head at the
   * interrupt after its last sector went out; multwrite_intr ends them all at the last one.
   */
  private static void service(KernelCpu c, IdeIrq irq) {
    IdeDisk disk = c.machine().disk();
    DiskRequest pending = disk.pendingRequest();
    if (!(pending instanceof BlockRequest r)) {
      throw new IllegalStateException("IDE interrupt for a request the block layer did not build: " + pending);
    }
    int block = disk.blockSectors();
    int before = r.moved;
    r.moved += block;
    DiskRequest ended = disk.service();
    irq.request = r;
    irq.requestDone = ended != null;
    int finished;
    if (irq.requestDone) {
      finished = r.buffers;
    } else if (!r.write()) {
      finished = r.finishedAt(r.moved);
    } else {
      finished = disk.spec().multcount() > 0 ? 0 : r.finishedAt(before);
    }
    irq.endNow = Math.max(0, finished - r.ended);
    r.ended = Math.max(r.ended, finished);
  }
}
