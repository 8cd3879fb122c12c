package dev.kernellab.kernel;

import dev.kernellab.hw.DiskRequest;
import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.Models;

/**
 * Block I/O as a task sees it: submit a request to the disk and sleep uninterruptibly until
 * the IDE interrupt handler completes it. Models {@code ll_rw_block} + {@code wait_on_buffer}
 * (drivers/block/ll_rw_blk.c, fs/buffer.c, 2.4.17) reduced to one request per call; the
 * request queue's elevator is the drive's FIFO.
 */
final class IoOps {

  private IoOps() {}

  /** A task's reusable request, remembering whom to wake. */
  static final class TaskIo extends DiskRequest {
    final Task owner;
    final WaitQueue wait;
    boolean done;

    TaskIo(Task owner) {
      this.owner = owner;
      this.wait = new WaitQueue("wait_on_buffer." + owner.pid());
    }
  }

  /** Submit and wait. */
  @Models(file = "drivers/block/ll_rw_blk.c", function = "ll_rw_block", version = "2.4.17")
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
          long capacity = disk.spec().cylinders() * disk.spec().sectorsPerCylinder();
          int n = (int) Math.max(1, Math.min(sectors.at(c), 256));
          long at = Math.max(0, Math.min(lba.at(c), capacity - n));
          io.set(at, n, write);
          io.done = false;
          disk.submit(io);
          f.phase = 1;
        }
        case 1 -> {
          if (io.done) {
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

    @Override
    String describe() {
      return (write ? "write" : "read") + " " + sectorsLabel + " sectors: submit_bh(); wait_on_buffer()";
    }
  }

  /**
   * {@code ide_intr} (drivers/ide/ide.c, 2.4.17): with {@code hdparm -u1} interrupts are
   * re-enabled first; in PIO mode the CPU copies the data; then the request completes and the
   * waiter wakes.
   */
  @Models(file = "drivers/ide/ide.c", function = "ide_intr", version = "2.4.17")
  @Models(file = "drivers/ide/ide.c", function = "ide_end_request", version = "2.4.17")
  static KernelPath ideInterrupt(IdeDisk disk) {
    KernelPath.Builder b = KernelPath.path("drivers/ide/ide.c", "ide_intr");
    if (disk.spec().unmaskIrq()) {
      b.localIrqEnable();
    }
    if (!disk.spec().dma()) {
      b.op(new FlowOps.DynamicCompute("PIO copy (insw)", (k, c) -> pioNs(c.machine().disk())));
    }
    b.effect("ide_end_request(): status read, end_buffer_io_sync(), wake_up()", c -> {
      DiskRequest r = c.machine().disk().acknowledge();
      if (r instanceof TaskIo io) {
        io.done = true;
        c.wakeUp(io.wait);
      }
    });
    if (disk.spec().unmaskIrq()) {
      b.localIrqDisable();
    }
    return b.build();
  }

  private static long pioNs(IdeDisk disk) {
    // The data of the request that just completed: the drive holds it until the status read.
    return disk.hasCompleted() ? disk.spec().pioCopyNs(disk.completedSectors()) : 0;
  }
}
