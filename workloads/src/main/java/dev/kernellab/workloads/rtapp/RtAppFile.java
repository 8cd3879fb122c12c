package dev.kernellab.workloads.rtapp;

import dev.kernellab.kernel.spi.SchedPolicy;
import java.util.List;

/**
 * An rt-app workload description, typed: what {@link RtAppReader} made of a file. Times are in
 * the file's units (microseconds, the duration in seconds).
 *
 * @param source where it was read from (a path, for messages and the report)
 * @param global the {@code global} section, with rt-app's defaults for what the file leaves out
 * @param tasks the {@code tasks} section, in file order
 */
public record RtAppFile(String source, Global global, List<TaskDef> tasks) {

  /** Copies the list. */
  public RtAppFile {
    tasks = List.copyOf(tasks);
  }

  /** The number of threads: every task's instances. */
  public int threads() {
    return tasks.stream().mapToInt(TaskDef::instance).sum();
  }

  /**
   * The {@code global} section.
   *
   * @param durationS how long the threads run, seconds; -1 (rt-app's default) until stopped
   * @param calibrationNsPerLoop the {@code calibration} given as ns per loop, or 0 when it names
   *     a CPU to calibrate on ({@code "CPU0"}, the default)
   * @param defaultPolicy {@code default_policy}
   * @param piEnabled {@code pi_enabled}: priority-inheritance mutexes asked for
   * @param lockPages {@code lock_pages}: mlockall asked for (rt-app's default: true)
   * @param logdir {@code logdir}
   * @param logBasename {@code log_basename}: the logs' names begin with it
   * @param writesLogs false if {@code log_size} is {@code "disable"} or 0: rt-app then writes no
   *     log (src/rt-app_parse_config.c parse_global; rt-app.c tests {@code opts.logsize})
   * @param memBufferSize {@code mem_buffer_size}, bytes (rt-app's default 4 MiB)
   * @param ioDevice {@code io_device} (rt-app's default /dev/null)
   * @param cumulativeSlack {@code cumulative_slack}
   */
  public record Global(long durationS, long calibrationNsPerLoop, SchedPolicy defaultPolicy, boolean piEnabled,
      boolean lockPages, String logdir, String logBasename, boolean writesLogs, long memBufferSize, String ioDevice,
      boolean cumulativeSlack) {

    /**
     * rt-app's defaults for a key a {@code global} section leaves out (src/rt-app_parse_config.c
     * parse_global: no {@code log_size} means logs written to files).
     */
    public static final Global DEFAULTS =
        new Global(-1, 0, SchedPolicy.OTHER, false, true, "./", "rt-app", true, 4L << 20, "/dev/null", false);

    /**
     * A file without a {@code global} section: parse_global's first branch, the same defaults
     * but {@code logsize = 0}, so rt-app writes no log.
     */
    public static final Global NO_GLOBAL = new Global(DEFAULTS.durationS, DEFAULTS.calibrationNsPerLoop,
        DEFAULTS.defaultPolicy, DEFAULTS.piEnabled, DEFAULTS.lockPages, DEFAULTS.logdir, DEFAULTS.logBasename, false,
        DEFAULTS.memBufferSize, DEFAULTS.ioDevice, DEFAULTS.cumulativeSlack);
  }

  /**
   * One entry of {@code tasks}: {@code instance} threads running the same phases.
   *
   * @param name the key
   * @param instance threads of this task
   * @param delayUs {@code delay} before the first phase
   * @param loop how many times the phases run; -1 forever
   * @param policy the thread's policy
   * @param priority rt priority (1..99) for FIFO/RR, nice (-20..19) for OTHER, as rt-app reads
   *     {@code priority}
   * @param cpus the CPUs of {@code cpus}, or empty for no pinning
   * @param phases the phases in file order (one, unnamed, if the task has no {@code phases})
   */
  public record TaskDef(String name, int instance, long delayUs, long loop, SchedPolicy policy, int priority,
      List<Integer> cpus, List<Phase> phases) {

    /** Copies the lists. */
    public TaskDef {
      cpus = List.copyOf(cpus);
      phases = List.copyOf(phases);
    }

    /** True if some phase has a timer event: the task's threads are rt-app's periodic ones. */
    public boolean hasTimer() {
      return phases.stream().anyMatch(p -> p.events().stream().anyMatch(e -> e instanceof RtAppEvent.Timer));
    }
  }

  /**
   * A phase: its events run in order, {@code loop} times, each run one row of the thread's log.
   *
   * @param name the key in {@code phases}, or the task's name for a task without phases
   * @param loop runs of the phase before the next phase
   * @param events the events in file order
   */
  public record Phase(String name, long loop, List<RtAppEvent> events) {

    /** Copies the list. */
    public Phase {
      events = List.copyOf(events);
    }
  }
}
