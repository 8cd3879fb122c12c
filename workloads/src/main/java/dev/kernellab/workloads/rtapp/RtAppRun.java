package dev.kernellab.workloads.rtapp;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Task;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.workloads.LatencyRecorder;
import dev.kernellab.workloads.ProbeResult;
import dev.kernellab.workloads.ProbeSpec;
import dev.kernellab.workloads.SampleListener;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.WorkloadResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An rt-app file installed in one kernel: its threads, the resources they share (timers,
 * mutexes, conditions, barriers), the wake-up latencies of its timer events and the threads'
 * logs. The probe is every thread that has a timer event; its samples are rt-app's
 * {@code wu_lat}, in nanoseconds, from the timer's expiry.
 */
final class RtAppRun implements Workload.Run {

  /** A timer resource: its next expiry (rt-app's t_next). */
  static final class TimerState {
    final String name;
    boolean init;
    long next;

    TimerState(String name) {
      this.name = name;
    }
  }

  /** A barrier resource: rt-app's waiting count (users - 1 at start), its mutex and condition. */
  static final class BarrierState {
    final String name;
    int waiting;
    final LinuxThreads.Mutex mutex;
    final LinuxThreads.Cond cond;

    BarrierState(String name, int users, LinuxThreads threads) {
      this.name = name;
      this.waiting = users - 1; // rt-app starts it at -1 and adds each user (init_barrier_resource)
      this.mutex = threads.mutex("barrier:" + name);
      this.cond = threads.cond("barrier:" + name);
    }
  }

  final RtAppFile file;
  final Kernel24Paths paths;
  final LinuxThreads threads = new LinuxThreads();
  final List<RtAppThread> all = new ArrayList<>();
  private final List<LinuxThreads.Waiter> waiters = new ArrayList<>();
  private final Map<String, TimerState> timers = new LinkedHashMap<>();
  private final Map<RtAppThread, Map<String, TimerState>> uniqueTimers = new LinkedHashMap<>();
  private final Map<String, BarrierState> barriers = new LinkedHashMap<>();
  private final Map<RtAppThread, KernelPath> sigsuspend = new LinkedHashMap<>();
  private final Map<RtAppThread, KernelPath> kill = new LinkedHashMap<>();
  private final LatencyRecorder latency;
  private final Map<String, LatencyRecorder> perTask = new LinkedHashMap<>();
  private SampleListener listener = (p, a, b, c) -> { };
  private VfsFile ioFile;
  long tZero;
  private boolean started;
  long progress;

  RtAppRun(RtAppFile file, Kernel24Paths paths, int hz) {
    this.file = file;
    this.paths = paths;
    // Two jiffies: the granularity of a 2.4 nanosleep (whole jiffies plus one, run from the
    // tick), as for cyclictest (Cyclictest.timerGranularityNs).
    long granularity = 2 * (1_000_000_000L / hz);
    this.latency = new LatencyRecorder(granularity);
    int n = file.threads();
    int index = 0;
    for (RtAppFile.TaskDef d : file.tasks()) {
      for (int i = 0; i < d.instance(); i++) {
        RtAppThread t = new RtAppThread(this, d, index++, n);
        all.add(t);
        waiters.add(t.waiter);
      }
      if (d.hasTimer()) {
        perTask.put(d.name(), new LatencyRecorder(granularity));
      }
    }
    for (RtAppFile.TaskDef d : file.tasks()) {
      for (RtAppFile.Phase p : d.phases()) {
        for (RtAppEvent e : p.events()) {
          if (e instanceof RtAppEvent.Barrier b) {
            BarrierState s = barriers.get(b.name());
            if (s == null) {
              barriers.put(b.name(), new BarrierState(b.name(), d.instance(), threads));
            } else {
              s.waiting += d.instance();
            }
          }
        }
      }
    }
  }

  /** The first thread to run sets rt-app's t_zero, which every thread's timers start from. */
  void started(long now) {
    if (!started) {
      started = true;
      tZero = now;
    }
  }

  TimerState timer(String name) {
    return timers.computeIfAbsent(name, TimerState::new);
  }

  TimerState uniqueTimer(RtAppThread owner, String ref) {
    return uniqueTimers.computeIfAbsent(owner, k -> new LinkedHashMap<>()).computeIfAbsent(ref, TimerState::new);
  }

  BarrierState barrier(String name) {
    return barriers.get(name);
  }

  KernelPath sigsuspend(RtAppThread t) {
    return sigsuspend.computeIfAbsent(t, k -> LinuxThreads.sigsuspend(k.waiter));
  }

  KernelPath kill(RtAppThread t) {
    return kill.computeIfAbsent(t, k -> LinuxThreads.kill(k.waiter, waiters));
  }

  boolean devNull() {
    return file.global().ioDevice().equals("/dev/null");
  }

  VfsFile ioFile() {
    return ioFile;
  }

  void sample(RtAppThread thread, Task t, long expiry, long now, int cpu) {
    latency.record(now - expiry, now, cpu);
    perTask.get(thread.def.name()).record(now - expiry, now, cpu);
    listener.sample(t, expiry, now, cpu);
  }

  /** The threads' logs, in thread order. */
  List<RtAppLog> logs() {
    return all.stream().map(t -> t.log).toList();
  }

  @Override
  public void start(Kernel k) {
    if (!devNull() && all.stream().anyMatch(t -> t.def.phases().stream()
        .anyMatch(p -> p.events().stream().anyMatch(e -> e instanceof RtAppEvent.IoRun)))) {
      String name = file.global().ioDevice();
      ioFile = paths.pageCache().create(name.substring(name.lastIndexOf('/') + 1), 0);
    }
  }

  @Override
  public WorkloadResult result(Kernel k) {
    List<ProbeResult.PhaseResult> tasks = new ArrayList<>();
    for (Map.Entry<String, LatencyRecorder> e : perTask.entrySet()) {
      long over = all.stream().filter(t -> t.def.name().equals(e.getKey())).mapToLong(t -> t.overruns).sum();
      tasks.add(new ProbeResult.PhaseResult(e.getKey(), e.getValue().summary(), over));
    }
    ProbeResult wu = new ProbeResult("rt-app wu_lat", latency.summary(), latency.worst(), null, null, tasks,
        latency.distribution());
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("threads", (long) all.size());
    counters.put("timer_wakeups", all.stream().mapToLong(t -> t.wakeUps).sum());
    counters.put("timer_overruns", all.stream().mapToLong(t -> t.overruns).sum());
    counters.put("log_rows", progress);
    counters.put("pi_enabled", file.global().piEnabled() ? 1L : 0L);
    counters.put("mutex_inversions", threads.inversions.count);
    counters.put("mutex_inversion_worst_us", threads.inversions.worstNs / 1_000);
    return new WorkloadResult(file.source(), List.of(wu), null, null, counters);
  }

  @Override
  public long progress() {
    return progress;
  }

  /**
   * None: an rt-app thread may wait for ever by design (a suspend nobody resumes, a finite
   * loop that has ended, the file's own duration), so no thread is one the kernel must keep
   * running.
   */
  @Override
  public List<String> mustRun() {
    return List.of();
  }

  @Override
  public void listen(SampleListener l) {
    listener = l;
  }

  @Override
  public ProbeSpec probe() {
    List<String> comms = new ArrayList<>();
    for (RtAppThread t : all) {
      if (t.def.hasTimer()) {
        comms.add(t.comm);
      }
    }
    if (comms.isEmpty()) {
      // no timer event: no wu_lat samples; the probe names the threads, which take none
      all.forEach(t -> comms.add(t.comm));
    }
    return new ProbeSpec(comms, dev.kernellab.hw.Pit.IRQ, ProbeSpec.Start.TIMER_EXPIRY);
  }
}
