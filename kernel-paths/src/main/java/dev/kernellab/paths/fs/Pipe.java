package dev.kernellab.paths.fs;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.WaitQueue;

/**
 * One pipe of one kernel: models fs/pipe.c {@code pipe_read()} and {@code pipe_write()}
 * (2.4.17) for messages that fit the pipe's one page.
 *
 * <p>Holds per-kernel state (the messages in the pipe and {@code PIPE_WAIT}), so a pipe is
 * made by {@link Syscalls#newPipe} for one kernel and never shared.
 *
 * <pre>{@code
 * Pipe p = catalog.syscalls().newPipe("ping");
 * writer: .syscall(p.write)    reader: .syscall(p.read)
 * }</pre>
 */
public final class Pipe {

  /*
   * Implementation overview
   *
   * lmbench's pipe latency (8.1-8.6 us a round trip, reference 5.6) is two writes, two reads,
   * two context switches and four system-call crossings. With the machine's 1.4 us switch and
   * 0.45 us crossing, 8.4 - 2.8 - 1.8 = 3.8 us remain for two reads and two writes: 1 us a
   * write (copy, wake-up), 0.9 us a read.
   */

  /** pipe_write of a small message: copy and wake-up. */
  public static final long PIPE_WRITE_NS = 1_000;
  /** pipe_read of a small message. */
  public static final long PIPE_READ_NS = 900;

  private final WaitQueue wait;
  private long messages; // written and not yet read

  /** read(2) of one message: sleeps until there is one. */
  public final KernelPath read;
  /** write(2) of one message. */
  public final KernelPath write;

  Pipe(String name) {
    this.wait = new WaitQueue("PIPE_WAIT(" + name + ")");
    read =
        KernelPath.path("fs/pipe.c", "pipe_read")
            .waitEvent(wait, () -> messages > 0)
            .effect("PIPE_LEN -= len", c -> messages--)
            .compute(PIPE_READ_NS)
            .build();
    write =
        KernelPath.path("fs/pipe.c", "pipe_write")
            .compute(PIPE_WRITE_NS)
            .effect("PIPE_LEN += len", c -> messages++)
            .wakeUp(wait)
            .build();
  }

  /** Messages in the pipe. */
  public long messages() {
    return messages;
  }
}
