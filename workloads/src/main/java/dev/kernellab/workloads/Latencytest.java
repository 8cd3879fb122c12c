package dev.kernellab.workloads;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.drivers.Rtc;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.Pipe;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.paths.kernel.Timer;
import java.util.ArrayList;
import java.util.List;

/**
 * Benno Senoner's latencytest (1999-2000) in its RTC form ({@code rtc_latency_test}, v0.42): a
 * SCHED_FIFO loop woken by the RTC at 2048 Hz that burns 80 % of each period (the synthesizer
 * of the audio version), while {@code do_tests} runs its five stress phases one after the
 * other: X11 drawing, /proc reads, a disk write of a large file, a copy of it, and a read of it
 * (the usual invocation {@code ./do_tests none 3 256 0 350000000}: a 350 MB file).
 *
 * <p>Per phase it reports what latencytest printed: the fraction of wake-ups within 1 ms of the
 * ideal (here: a latency, from the interrupt's assertion to the loop's return to user mode, of
 * at most 1 ms; which exact field Love's "on-time %" was is not documented), the overruns (a
 * latency past the audio buffer of 3 fragments, 3 periods: an audible drop-out) and the maximum.
 *
 * <p>Simplifications said out loud: the X11 phase is an x11perf client sending requests over a
 * local socket to an X server that draws in user mode; the bus stalls some video drivers of the
 * era caused (PCI retry, up to ~20 ms, Morton, LKML Jan 2001) are hardware the model lacks.
 */
final class Latencytest {

  /** latencytest's RTC rate: 2048 Hz (Benno's RTC runs). */
  static final int HZ = 2048;
  /** The CPU loop between two wake-ups: 80 % of the period (latencytest v0.4). */
  static final double BURN_FRACTION = 0.8;
  /** Fragments of the audio buffer: 3 (do_tests' "3 256"). */
  static final int FRAGMENTS = 3;
  /** "Within 1 ms of the ideal". */
  static final long ON_TIME_NS = 1_000_000;
  /** The phases, in do_tests' order. */
  static final List<String> PHASES = List.of("x11", "proc", "disk write", "disk copy", "disk read");
  /** Length of the timed phases (x11, /proc): assumption, 10 s each. */
  static final long TIMED_PHASE_NS = 10_000_000_000L;
  /** I/O size of the disk phases: 64 KiB per call (cp's and dd's buffer, assumption). */
  static final long CHUNK = 64 * 1024;
  /** x11perf's client work between two requests: assumption, 100 us. */
  static final long X_CLIENT_NS = 100_000;
  /** The X server's drawing per request, in user mode: assumption, 2 ms. */
  static final long X_DRAW_NS = 2_000_000;

  private final long periodNs = 1_000_000_000L / HZ;
  private final Rtc rtc;
  private final LatencyRecorder all = new LatencyRecorder(ON_TIME_NS);
  private SampleListener listener = (p, a, b, c) -> {};
  private final LatencyRecorder[] byPhase = new LatencyRecorder[PHASES.size()];
  private final long[] overruns = new long[PHASES.size()];
  private final List<TaskSpec> tasks = new ArrayList<>();
  private final long fileBytes;
  private final long timedPhaseNs;
  private int phase = -1; // the phase running now; -1 before the first, PHASES.size() after
  private long phaseEndNs;
  private VfsFile stress;
  private VfsFile copy;

  Latencytest(Kernel24Paths paths, long fileBytes) {
    this(paths, fileBytes, TIMED_PHASE_NS);
  }

  Latencytest(Kernel24Paths paths, long fileBytes, long timedPhaseNs) {
    this.rtc = paths.rtc();
    this.fileBytes = fileBytes;
    this.timedPhaseNs = timedPhaseNs;
    for (int i = 0; i < byPhase.length; i++) {
      byPhase[i] = new LatencyRecorder(ON_TIME_NS);
    }
    long burn = (long) (periodNs * BURN_FRACTION);
    tasks.add(TaskSpec.user("latencytest", KernelPath.userProgram("latencytest")
        .loop("main", Long.MAX_VALUE, l -> l
            .syscall(rtc.read)
            .probe((c, t, now) -> {
              long lat = now - rtc.lastReadAssertNs();
              all.record(lat, now, c.id());
              listener.sample(t, rtc.lastReadAssertNs(), now, c.id());
              if (phase >= 0 && phase < byPhase.length) {
                byPhase[phase].record(lat, now, c.id());
                if (lat > FRAGMENTS * periodNs) {
                  overruns[phase]++;
                }
              }
            })
            .compute(burn))
        .build()).fifo(99));
    Pipe xsocket = paths.syscalls().newPipe("X11 socket");
    tasks.add(TaskSpec.user("X", KernelPath.userProgram("X")
        .loop("requests", Long.MAX_VALUE, l -> l.syscall(xsocket.read).compute(X_DRAW_NS)).build()));
    FileIo io = new FileIo();
    long calls = (fileBytes + CHUNK - 1) / CHUNK;
    long[] at = {0};
    KernelPath.Builder doTests = KernelPath.userProgram("do_tests");
    doTests.probe((c, t, now) -> next(now))
        .loopWhile("x11", c -> c.now() < phaseEndNs, x -> x.compute(X_CLIENT_NS).syscall(xsocket.write))
        .probe((c, t, now) -> next(now))
        .loopWhile("proc", c -> c.now() < phaseEndNs, p -> p
            .syscall(paths.syscalls().open)
            .syscall(paths.proc().statm)
            .syscall(paths.proc().meminfo)
            .syscall(paths.syscalls().close))
        .probe((c, t, now) -> { next(now); at[0] = 0; })
        .loop("write", calls, w -> w
            .syscall(paths.filemap().sysWrite, c -> io.on(stress, at[0], CHUNK))
            .probe((c, t, now) -> at[0] += CHUNK))
        .syscall(paths.buffer().sysSync)
        .probe((c, t, now) -> { next(now); at[0] = 0; })
        .loop("copy", calls, w -> w
            .syscall(paths.filemap().sysRead, c -> io.on(stress, at[0], CHUNK))
            .syscall(paths.filemap().sysWrite, c -> io.on(copy, at[0], CHUNK))
            .probe((c, t, now) -> at[0] += CHUNK))
        .syscall(paths.buffer().sysSync)
        .probe((c, t, now) -> { next(now); at[0] = 0; })
        .loop("read", calls, w -> w
            .syscall(paths.filemap().sysRead, c -> io.on(copy, at[0], CHUNK))
            .probe((c, t, now) -> at[0] += CHUNK))
        .probe((c, t, now) -> next(now))
        .loop("done", Long.MAX_VALUE, d -> d.syscall(Timer.sysNanosleep(1_000_000_000L)));
    tasks.add(TaskSpec.user("do_tests", doTests.build()));
  }

  private void next(long now) {
    phase++;
    phaseEndNs = now + timedPhaseNs;
  }

  /** Creates the stress file and its copy (empty: the write phase fills the first), starts the RTC. */
  void start(Kernel k, PageCache pc) {
    stress = pc.create("stress", 0);
    copy = pc.create("stress.copy", 0);
    k.machine().rtc().setPeriodicRate(HZ);
    k.machine().rtc().setPeriodicInterrupt(true);
  }

  /** The probe: the loop task {@code latencytest}, woken by the RTC's interrupt, from its assertion. */
  ProbeSpec probe() {
    return new ProbeSpec(List.of("latencytest"), dev.kernellab.hw.Rtc.IRQ, ProbeSpec.Start.INTERRUPT_ASSERTION);
  }

  void listen(SampleListener l) {
    listener = l;
  }

  List<TaskSpec> tasks() {
    return tasks;
  }

  long samples() {
    return all.count();
  }

  /** The phase running, by name ("done" after the last). */
  String phaseName() {
    return phase < 0 ? "starting" : phase < PHASES.size() ? PHASES.get(phase) : "done";
  }

  long fileBytes() {
    return fileBytes;
  }

  ProbeResult result() {
    List<ProbeResult.PhaseResult> phases = new ArrayList<>();
    for (int i = 0; i < byPhase.length; i++) {
      phases.add(new ProbeResult.PhaseResult(PHASES.get(i), byPhase[i].summary(), overruns[i]));
    }
    return new ProbeResult("latencytest", all.summary(), all.worst(), null, null, phases, all.distribution());
  }
}
