package dev.kernellab.workloads;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.kernel.Timer;
import java.util.ArrayList;
import java.util.List;

/**
 * cyclictest (rt-tests, Thomas Gleixner): SCHED_FIFO threads that each sleep until an absolute
 * expiry, take latency = wake time - expiry, and set the next expiry one interval later
 * (overrun periods skipped). Threads after the first are spaced by a distance of 500 us.
 *
 * <p>2.4.17 has no {@code clock_nanosleep}: the thread sleeps with {@code nanosleep} for the
 * time left to the expiry, and 2.4.17's {@code sys_nanosleep} (kernel/timer.c) either
 * busy-waits with {@code udelay} (a real-time task asking for 2 ms or less: exact, at the
 * price of the CPU) or sleeps whole jiffies plus one (at HZ 100, up to 20 ms late). Both are
 * what the kernel did, and the latency shows it.
 */
public final class Cyclictest {

  /** cyclictest's default interval, {@code -i}: 1000 us. */
  public static final long DEFAULT_INTERVAL_NS = 1_000_000;
  /** cyclictest's default distance between threads' intervals, {@code -d}: 500 us. */
  public static final long DISTANCE_NS = 500_000;
  /** cyclictest's usual priority for its first thread, {@code -p}: 80 (assumption: rt-tests' docs). */
  public static final int PRIORITY = 80;

  private final List<KernelPath> programs = new ArrayList<>();
  private final LatencyRecorder latency;
  private SampleListener listener = (p, a, b, c) -> {};
  private final long intervalNs;

  /** {@code threads} threads at {@code intervalNs}. */
  public Cyclictest(int threads, long intervalNs) {
    if (threads < 1 || intervalNs <= 0) {
      throw new IllegalArgumentException("cyclictest needs >= 1 thread and an interval > 0");
    }
    this.intervalNs = intervalNs;
    this.latency = new LatencyRecorder(intervalNs);
    for (int i = 0; i < threads; i++) {
      long interval = intervalNs + i * DISTANCE_NS;
      long[] next = {-1};
      programs.add(
          KernelPath.userProgram("cyclictest" + i)
              .probe((c, t, now) -> next[0] = now + interval)
              .loop("main", Long.MAX_VALUE, l -> l
                  .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
                      .compute(Timer.NANOSLEEP_SETUP_NS)
                      .nanosleep(c -> next[0] - c.now())
                      .build())
                  .probe((c, t, now) -> {
                    latency.record(now - next[0], now, c.id());
                    listener.sample(t, next[0], now, c.id());
                    next[0] += interval;
                    while (next[0] <= now) {
                      next[0] += interval; // an overrun: cyclictest skips the missed periods
                    }
                  }))
              .build());
    }
  }

  /** The threads: SCHED_FIFO, the first at {@link #PRIORITY}, the next ones one lower each. */
  public List<TaskSpec> tasks() {
    List<TaskSpec> out = new ArrayList<>();
    for (int i = 0; i < programs.size(); i++) {
      out.add(TaskSpec.user("cyclictest" + i, programs.get(i)).fifo(Math.max(1, PRIORITY - i)));
    }
    return out;
  }

  /** Tells {@code l} of every sample. */
  public void listen(SampleListener l) {
    listener = l;
  }

  /** Samples so far. */
  public long samples() {
    return latency.count();
  }

  /** The interval of the first thread. */
  public long intervalNs() {
    return intervalNs;
  }

  /** The figures so far. */
  public ProbeResult result() {
    return new ProbeResult("cyclictest", latency.summary(), latency.worst(), null, null, List.of(),
        latency.distribution());
  }
}
