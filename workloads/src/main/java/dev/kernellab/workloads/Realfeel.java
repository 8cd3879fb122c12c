package dev.kernellab.workloads;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.drivers.Rtc;
import java.util.List;

/**
 * realfeel (Mark Hahn, brain.mcmaster.ca/~hahn/realfeel.c): SCHED_FIFO at the top priority,
 * mlockall, the RTC's periodic interrupt at 2048 Hz, and a loop of blocking reads of /dev/rtc.
 *
 * <p>Two measures, both kept:
 *
 * <ul>
 *   <li>the <b>latency</b>: from the assertion of the RTC interrupt that the read consumed first
 *       to the instant realfeel is back in user mode (what Morton's rtc-debug/amlat measure:
 *       handler entry to user read, here from the hardware edge). On time when below one
 *       period: a later wake-up misses the next interrupt;
 *   <li>the <b>period error</b>: realfeel's own figure, the time between two wake-ups minus the
 *       ideal 1/2048 s, clamped at 0, kept in realfeel's 0.1 ms bins. One wake-up late by L
 *       gives one error of about L and the next ones near 0.
 * </ul>
 *
 * <p>mlockall has nothing to do in the model (no paging of user memory), and the program's TSC
 * reads cost nothing: the probe takes its time stamp at the instant it is back in user mode.
 */
public final class Realfeel {

  /** realfeel's rate: 2048 Hz, the most the program allows. */
  public static final int DEFAULT_HZ = 2048;

  private final Rtc rtc;
  private final int hz;
  private final long periodNs;
  private final LatencyRecorder latency;
  private SampleListener listener = (p, a, b, c) -> {};
  private final LatencyRecorder periodError;
  private final RealfeelHistogram bins = new RealfeelHistogram();
  private long lastWakeNs = -1;

  /** The probe's program. */
  public final KernelPath program;

  /** realfeel at {@code hz} over {@code paths}' RTC driver. */
  public Realfeel(Kernel24Paths paths, int hz) {
    if (hz < dev.kernellab.hw.Rtc.MIN_RATE_HZ || Integer.bitCount(hz) != 1 || hz > dev.kernellab.hw.Rtc.MAX_RATE_HZ) {
      throw new IllegalArgumentException("the RTC rate must be a power of two, 2..8192 Hz, got " + hz);
    }
    this.rtc = paths.rtc();
    this.hz = hz;
    this.periodNs = 1_000_000_000L / hz;
    this.latency = new LatencyRecorder(periodNs);
    this.periodError = new LatencyRecorder(periodNs);
    program =
        KernelPath.userProgram("realfeel")
            .loop("main", Long.MAX_VALUE, l -> l
                .syscall(rtc.read)
                .probe((c, t, now) -> {
                  latency.record(now - rtc.lastReadAssertNs(), now, c.id());
                  listener.sample(t, rtc.lastReadAssertNs(), now, c.id());
                  if (lastWakeNs >= 0) {
                    long error = Math.max(0, (now - lastWakeNs) - periodNs);
                    periodError.record(error, now, c.id());
                    bins.record(error);
                  }
                  lastWakeNs = now;
                }))
            .build();
  }

  /** The task: SCHED_FIFO 99 (sched_get_priority_max), allowed on every CPU. */
  public TaskSpec task() {
    return TaskSpec.user("realfeel", program).fifo(99);
  }

  /** {@code RTC_IRQP_SET} to the rate, {@code RTC_PIE_ON}. */
  public void start(Kernel k) {
    k.machine().rtc().setPeriodicRate(hz);
    k.machine().rtc().setPeriodicInterrupt(true);
  }

  /** The probe: the task {@code realfeel}, woken by the RTC's interrupt, from its assertion. */
  public ProbeSpec probe() {
    return new ProbeSpec(List.of("realfeel"), dev.kernellab.hw.Rtc.IRQ, ProbeSpec.Start.INTERRUPT_ASSERTION);
  }

  /** Tells {@code l} of every sample. */
  public void listen(SampleListener l) {
    listener = l;
  }

  /** Samples so far. */
  public long samples() {
    return latency.count();
  }

  /** The figures so far. */
  public ProbeResult result() {
    return new ProbeResult("realfeel", latency.summary(), latency.worst(), periodError.summary(), bins, List.of(),
        latency.distribution());
  }

  /** The latency recorder, for phased workloads and tests. */
  LatencyRecorder latency() {
    return latency;
  }
}
