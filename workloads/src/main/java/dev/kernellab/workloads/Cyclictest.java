package dev.kernellab.workloads;

import dev.kernellab.kernel.KernelBuilder;
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
  /**
   * The granularity of a 2.4 timer sleep at {@code hz}: two jiffies. 2.4.17's
   * {@code sys_nanosleep} (kernel/timer.c) rounds the time left up to whole jiffies and adds
   * one, and the timer list runs at a tick, so a thread sleeping on the timer list wakes up to
   * two jiffies after its expiry with no other latency at all. A sample within it is on time:
   * the kernel added nothing of its own beyond the timer's rounding.
   */
  public static long timerGranularityNs(int hz) {
    return 2 * (1_000_000_000L / hz);
  }

  /** cyclictest's usual priority for its first thread, {@code -p}: 80 (assumption: rt-tests' docs). */
  public static final int PRIORITY = 80;

  private final List<KernelPath> programs = new ArrayList<>();
  private final LatencyRecorder latency;
  private SampleListener listener = (p, a, b, c) -> {};
  private final long intervalNs;

  /** {@code threads} threads at {@code intervalNs} on a kernel of {@link KernelBuilder#DEFAULT_HZ}. */
  public Cyclictest(int threads, long intervalNs) {
    this(threads, intervalNs, KernelBuilder.DEFAULT_HZ);
  }

  /**
   * {@code threads} threads at {@code intervalNs} on a kernel whose timer runs at {@code hz}: a
   * sample is on time when it is within the timer's granularity ({@link #timerGranularityNs}).
   */
  public Cyclictest(int threads, long intervalNs, int hz) {
    if (threads < 1 || intervalNs <= 0) {
      throw new IllegalArgumentException("cyclictest needs >= 1 thread and an interval > 0");
    }
    if (hz <= 0) {
      throw new IllegalArgumentException("cyclictest needs the kernel's HZ (> 0), got " + hz);
    }
    this.intervalNs = intervalNs;
    this.latency = new LatencyRecorder(timerGranularityNs(hz));
    for (int i = 0; i < threads; i++) {
      long interval = intervalNs + i * DISTANCE_NS;
      long[] next = {-1};
      long[] left = {0}; // the time to the expiry, read in user space before the call
      programs.add(
          KernelPath.userProgram("cyclictest" + i)
              .probe((c, t, now) -> next[0] = now + interval)
              .loop("main", Long.MAX_VALUE, l -> l
                  .probe((c, t, now) -> left[0] = next[0] - now)
                  .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
                      .compute(Timer.NANOSLEEP_SETUP_NS)
                      .nanosleep(c -> left[0])
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

  /** The probe: the threads, woken from the timer list that the PIT's tick runs, from their expiry. */
  public ProbeSpec probe() {
    List<String> comms = new ArrayList<>();
    tasks().forEach(t -> comms.add(t.comm()));
    return new ProbeSpec(comms, dev.kernellab.hw.Pit.IRQ, ProbeSpec.Start.TIMER_EXPIRY);
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
