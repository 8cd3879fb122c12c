package dev.kernellab.paths.fs;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.paths.Calibration;

/**
 * One pipe of one kernel: models fs/pipe.c {@code pipe_read()} and {@code pipe_write()}
 * (2.4.17) for messages that fit the pipe's one page ({@code PIPE_BUF}), with the page's
 * capacity: a writer that finds the pipe full wakes the readers with
 * {@code wake_up_interruptible_sync} and sleeps in {@code pipe_wait}; a reader that finds it
 * empty while writers wait does the same; both ends end with a plain
 * {@code wake_up_interruptible} of {@code PIPE_WAIT}, which readers and writers share.
 *
 * <p>Holds per-kernel state (the messages in the pipe and {@code PIPE_WAIT}), so a pipe is
 * made by {@link Syscalls#newPipe} for one kernel and never shared.
 *
 * <pre>{@code
 * Pipe p = catalog.syscalls().newPipe("ping");
 * writer: .syscall(p.write)    reader: .syscall(p.read)
 * }</pre>
 */
@Models(file = "fs/pipe.c", function = "pipe_read", version = "2.4.17")
@Models(file = "fs/pipe.c", function = "pipe_write", version = "2.4.17")
public final class Pipe {

  /*
   * Implementation overview
   *
   * lmbench's pipe latency (8.1-8.6 us a round trip; A. Marathe, LKML 21 Feb 2003) is two writes,
   * two reads, two context switches and four system-call crossings. With the machine's 1.4 us
   * switch and 0.45 us crossing, 8.4 - 2.8 - 1.8 = 3.8 us remain for two reads and two writes: 1 us
   * a write (copy, wake-up), 0.9 us a read.
   */

  /** pipe_write of a small message: copy and wake-up. */
  public static final long PIPE_WRITE_NS = 1_000;
  /** pipe_read of a small message. */
  public static final long PIPE_READ_NS = 900;
  /**
   * Messages the pipe's page holds: PIPE_BUF 4096 bytes over 512-byte messages (the message
   * size is an assumption).
   */
  public static final long CAPACITY = 4096 / 512;
  /** PIPE_BUF on i386: the pipe's one page (include/linux/limits.h, 2.4.17). */
  public static final long PIPE_BUF = 4096;
  /**
   * pipe_write of a whole page: the small write's wake-up and bookkeeping and a page's
   * copy_from_user (Calibration.COPY_PAGE_NS, 10 us: assumption ~400 MB/s).
   */
  public static final long PAGE_WRITE_NS = PIPE_WRITE_NS + Calibration.COPY_PAGE_NS;
  /** pipe_read of a whole page: the small read's bookkeeping and a page's copy_to_user. */
  public static final long PAGE_READ_NS = PIPE_READ_NS + Calibration.COPY_PAGE_NS;

  private final WaitQueue wait;
  private final long capacity; // messages the page holds
  private long messages; // written and not yet read, 0..capacity
  private int writersWaiting; // PIPE_WAITING_WRITERS

  /** read(2) of one message: sleeps until there is one. */
  public final KernelPath read;
  /** write(2) of one message. */
  public final KernelPath write;

  Pipe(String name) {
    this(name, CAPACITY, PIPE_WRITE_NS, PIPE_READ_NS);
  }

  /**
   * A pipe whose messages are {@code PIPE_BUF / capacity} bytes, each write and read of one
   * costing {@code writeNs} and {@code readNs}.
   */
  Pipe(String name, long capacity, long writeNs, long readNs) {
    if (capacity < 1) {
      throw new IllegalArgumentException("a pipe holds at least one message, got " + capacity);
    }
    this.capacity = capacity;
    this.wait = new WaitQueue("PIPE_WAIT(" + name + ")");
    KernelPath kickWriters =
        KernelPath.path("fs/pipe.c", "pipe_read: wake the writers before sleeping")
            .wakeUpSync(wait)
            .build();
    KernelPath kickReaders =
        KernelPath.path("fs/pipe.c", "pipe_write: wake the readers before sleeping")
            .wakeUpSync(wait)
            .build();
    // The test and the update of PIPE_LEN are one step: PIPE_SEM serialises the two ends in
    // 2.4.17, so no two writers can both see room for one message (nor two readers one message).
    read =
        KernelPath.path("fs/pipe.c", "pipe_read")
            .callIf("PIPE_EMPTY && PIPE_WAITING_WRITERS", c -> messages == 0 && writersWaiting > 0, kickWriters)
            .waitEvent(wait, this::takeMessage)
            .compute(readNs)
            .wakeUp(wait)
            .build();
    write =
        KernelPath.path("fs/pipe.c", "pipe_write")
            .callIf("PIPE_FULL", c -> messages >= capacity, kickReaders)
            .effect("PIPE_WAITING_WRITERS++", c -> writersWaiting++)
            .waitEvent(wait, this::putMessage)
            .effect("PIPE_WAITING_WRITERS--", c -> writersWaiting--)
            .compute(writeNs)
            .wakeUp(wait)
            .build();
  }

  private boolean takeMessage() {
    if (messages > 0) {
      messages--;
      return true;
    }
    return false;
  }

  private boolean putMessage() {
    if (messages < capacity) {
      messages++;
      return true;
    }
    return false;
  }

  /** Messages in the pipe. */
  public long messages() {
    return messages;
  }
}
