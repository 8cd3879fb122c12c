package dev.kernellab.paths;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.paths.fs.Pipe;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.net.Net;
import java.util.ArrayList;
import java.util.List;

/**
 * A realfeel-style probe and a mixed load over one catalog, for tests that run the catalog in
 * a real kernel: file I/O, pipes, loopback TCP, fork and exit, /proc, console, truncate and
 * nanosleep in a loop, a reader on the other ends, and a SCHED_FIFO probe reading the RTC.
 * Published in kernel-paths' test-jar; each test adds the tasks it wants, in its own order.
 */
public final class MixedLoadRig {

  private static final long MS = 1_000_000;

  /** Inter-wakeup periods the probe saw, ns, in order. */
  public final List<Long> periods = new ArrayList<>();
  /** The pipe between {@link #load} and {@link #reader}. */
  public final Pipe pipe;
  /** realfeel: {@code for (;;) { read(rtc); period = now - last; }}. */
  public final KernelPath realfeel;
  /** The mixed load, one pass of every syscall then 0.5 ms of user work, for ever. */
  public final KernelPath load;
  /** Reads the pipe and the TCP connection the load writes, for ever. */
  public final KernelPath reader;
  private long last;

  /** The probe and the load over {@code p}'s paths. */
  public MixedLoadRig(Kernel24Paths p) {
    realfeel =
        KernelPath.userProgram("realfeel")
            .loop("main", Long.MAX_VALUE, l -> l
                .syscall(p.rtc().read)
                .probe((c, t, now) -> {
                  if (last != 0) {
                    periods.add(now - last);
                  }
                  last = now;
                }))
            .build();
    pipe = p.syscalls().newPipe("ping");
    Net.Connection conn = p.net().newConnection("ttcp");
    KernelPath child =
        KernelPath.userProgram("child").compute(200_000).syscall(p.exit().sysExit).build();
    load =
        KernelPath.userProgram("load")
            .loop("main", Long.MAX_VALUE, l -> l
                .syscall(p.filemap().sysRead)
                .syscall(p.filemap().sysWrite)
                .syscall(p.syscalls().open)
                .syscall(p.syscalls().close)
                .syscall(p.memory().sysMunmap)
                .syscall(pipe.write)
                .syscall(conn.send)
                .syscall(p.proc().statm)
                .syscall(p.console().ttyWrite)
                .syscall(p.fork().sysFork("child", child))
                .syscall(p.filemap().truncateInodePages)
                .syscall(Timer.sysNanosleep(MS))
                .compute(500_000))
            .build();
    reader =
        KernelPath.userProgram("reader")
            .loop("main", Long.MAX_VALUE, l -> l.syscall(pipe.read).syscall(conn.recv))
            .build();
  }

  /** Starts the RTC at realfeel's 2048 Hz. */
  public static void startRtc(Kernel k) {
    k.machine().rtc().setPeriodicRate(2048);
    k.machine().rtc().setPeriodicInterrupt(true);
  }
}
