package dev.kernellab.workloads.rtapp;

import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.workloads.rtapp.LenientJson.Arr;
import dev.kernellab.workloads.rtapp.LenientJson.Bool;
import dev.kernellab.workloads.rtapp.LenientJson.Member;
import dev.kernellab.workloads.rtapp.LenientJson.Num;
import dev.kernellab.workloads.rtapp.LenientJson.Obj;
import dev.kernellab.workloads.rtapp.LenientJson.Str;
import dev.kernellab.workloads.rtapp.LenientJson.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an rt-app workload file into an {@link RtAppFile}, as rt-app's
 * src/rt-app_parse_config.c reads it: an event is a key that begins with an event's name
 * ({@code run1}, {@code sleep_b}), in the order rt-app tests the prefixes; a task without
 * {@code phases} is its own single phase; {@code priority} is a nice value for SCHED_OTHER and an
 * rt priority for SCHED_FIFO/RR (default 10, rt-app's DEFAULT_THREAD_PRIORITY).
 *
 * <pre>{@code
 * RtAppFile f = RtAppReader.read(Path.of("example2.json"));
 * }</pre>
 *
 * <p>Stricter than rt-app where rt-app would run something else than the file says: a key it
 * would ignore is refused (a typo of {@code instance} would silently run one thread), and so is
 * every key Linux 2.4.17 cannot do, with the reason. Every refusal is one
 * {@link IllegalArgumentException} line that names the key's JSON path and line.
 */
public final class RtAppReader {

  /** rt-app's DEFAULT_THREAD_PRIORITY (src/rt-app_types.h): the rt priority of a FIFO/RR thread that gives none. */
  public static final int DEFAULT_RT_PRIORITY = 10;

  private static final Set<String> GLOBAL_KEYS = Set.of("duration", "calibration", "default_policy", "pi_enabled",
      "lock_pages", "logdir", "log_basename", "mem_buffer_size", "io_device", "cumulative_slack", "ftrace",
      "gnuplot", "log_size");
  // Keys of a task or phase that are not events; "loop" is both a task's and a phase's.
  private static final Set<String> TASK_KEYS = Set.of("instance", "delay", "loop", "phases", "policy", "priority", "cpus");
  private static final Set<String> PHASE_KEYS = Set.of("loop");

  /**
   * Keys 2.4.17 has no counterpart for, with the reason given when one is met. rt-app reads
   * {@code period} and {@code deadline} of a task as SCHED_DEADLINE's (legacy grammar).
   */
  private static final Map<String, String> REFUSED_KEYS = refusedKeys();

  private static Map<String, String> refusedKeys() {
    Map<String, String> m = new LinkedHashMap<>();
    String dl = "SCHED_DEADLINE parameters: Linux 2.4 has no deadline scheduler (SCHED_DEADLINE came with 3.14)";
    m.put("dl-runtime", dl);
    m.put("dl-period", dl);
    m.put("dl-deadline", dl);
    m.put("period", dl);
    m.put("deadline", dl);
    String uclamp = "utilization clamping (sched_setattr's util_min/util_max came with Linux 5.3); 2.4 has none";
    m.put("util_min", uclamp);
    m.put("util_max", uclamp);
    m.put("taskgroup", "a CPU cgroup: Linux 2.4 has no control groups (CONFIG_CGROUP_SCHED came with 2.6.24)");
    String numa = "a NUMA memory binding: Linux 2.4 has no set_mempolicy (2.6.7) and the simulated machine is not NUMA";
    m.put("nodes_membind", numa);
    m.put("membind_nodes", numa);
    return m;
  }

  private final String source;
  // Resources declared in a "resources" section: name -> type. Unordered lookups only.
  private final Map<String, String> declared = new LinkedHashMap<>();

  private RtAppReader(String source) {
    this.source = source;
  }

  /**
   * The workload of the file at {@code file}.
   *
   * @throws IllegalArgumentException if it cannot be read, is malformed, or asks for what the
   *     model cannot do: one line, naming the file and the key
   */
  public static RtAppFile read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("rt-app file " + file + ": cannot be read ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")", e);
    }
    return parse(file.toString(), text);
  }

  /** The workload of {@code text}, read from {@code source} (for messages). */
  public static RtAppFile parse(String source, String text) {
    RtAppReader r = new RtAppReader(source);
    try {
      return r.file(LenientJson.parse(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("rt-app file " + source + ": " + e.getMessage(), e);
    }
  }

  static IllegalArgumentException bad(Value at, String what) {
    return new IllegalArgumentException(at.path() + " (line " + at.line() + "): " + what);
  }

  private RtAppFile file(Obj root) {
    if (RtAppLegacy.isLegacy(root)) {
      return new RtAppLegacy(source).file(root);
    }
    Obj tasks = null;
    RtAppFile.Global global = RtAppFile.Global.NO_GLOBAL;
    for (Member m : root.members()) {
      switch (m.key()) {
        case "tasks" -> tasks = object(m.value());
        case "global" -> global = global(object(m.value()), false);
        case "resources" -> resources(object(m.value()));
        default -> throw bad(m.value(), "unknown key (an rt-app file has tasks, global and resources)");
      }
    }
    if (tasks == null) {
      throw new IllegalArgumentException("tasks: missing (an rt-app file needs a tasks section)");
    }
    List<RtAppFile.TaskDef> defs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Member m : tasks.members()) {
      if (!names.add(m.key())) {
        throw bad(m.value(), "a second task of the same name");
      }
    }
    for (Member m : tasks.members()) {
      defs.add(task(m.key(), object(m.value()), global, names));
    }
    if (defs.isEmpty()) {
      throw bad(tasks, "no tasks");
    }
    return new RtAppFile(source, global, defs);
  }

  private void resources(Obj res) {
    for (Member m : res.members()) {
      Obj r = object(m.value());
      Value type = r.first("type");
      String t = type == null ? "" : string(type);
      if (!List.of("mutex", "wait", "timer", "barrier").contains(t)) {
        throw bad(type == null ? r : type, "unknown resource type '" + t + "' (modelled: mutex, wait, timer, barrier)");
      }
      declared.put(m.key(), t);
    }
  }

  /**
   * The {@code global} section; {@code legacy} also accepts the 2014 grammar's own keys
   * ({@link RtAppLegacy#GLOBAL_KEYS}, which that reader reads).
   */
  static RtAppFile.Global global(Obj g, boolean legacy) {
    RtAppFile.Global d = RtAppFile.Global.DEFAULTS;
    long duration = d.durationS();
    long nsPerLoop = d.calibrationNsPerLoop();
    SchedPolicy policy = d.defaultPolicy();
    boolean pi = d.piEnabled();
    boolean lockPages = d.lockPages();
    String logdir = d.logdir();
    String basename = d.logBasename();
    boolean logs = d.writesLogs();
    long memBuffer = d.memBufferSize();
    String io = d.ioDevice();
    boolean cumulative = d.cumulativeSlack();
    for (Member m : g.members()) {
      Value v = m.value();
      refuseIfUnsupported(m);
      if (!GLOBAL_KEYS.contains(m.key()) && !(legacy && RtAppLegacy.GLOBAL_KEYS.contains(m.key()))) {
        throw bad(v, "unknown key of global");
      }
      switch (m.key()) {
        case "duration" -> {
          duration = integer(v);
          if (duration < -1) {
            throw bad(v, "a duration is seconds >= 0, or -1 for no end; got " + duration);
          }
        }
        case "calibration" -> {
          if (v instanceof Num) {
            nsPerLoop = integer(v);
            if (nsPerLoop <= 0) {
              throw bad(v, "ns per loop must be > 0, got " + nsPerLoop);
            }
          } else if (!string(v).matches("CPU[0-9]+")) {
            throw bad(v, "calibration is ns per loop or \"CPUn\", got \"" + string(v) + "\"");
          }
        }
        case "default_policy" -> policy = policy(v);
        case "pi_enabled" -> pi = bool(v);
        case "lock_pages" -> lockPages = bool(v);
        case "logdir" -> logdir = string(v);
        case "log_basename" -> {
          basename = string(v);
          // rt-app opens logdir/<log_basename>-<thread>.log; here it names a file of --out's
          if (!RtAppLogFile.isFileNameStart(basename)) {
            throw bad(v, "log_basename is the beginning of a file name (not empty, no '/', not starting with '.'),"
                + " got \"" + basename + "\"");
          }
        }
        case "log_size" -> logs = logSize(v);
        case "mem_buffer_size" -> {
          memBuffer = integer(v);
          if (memBuffer <= 0) {
            throw bad(v, "mem_buffer_size is bytes > 0, got " + memBuffer);
          }
        }
        case "io_device" -> io = string(v);
        case "cumulative_slack" -> cumulative = bool(v);
        default -> {
          // ftrace, gnuplot: rt-app's own output; accepted, with no effect here
          // (docs/rt-app.md): the trace is kernel-lab trace's. The 2014 grammar's keys: RtAppLegacy's.
        }
      }
    }
    return new RtAppFile.Global(duration, nsPerLoop, policy, pi, lockPages, logdir, basename, logs, memBuffer, io,
        cumulative);
  }

  /**
   * {@code log_size}: false if it turns the logs off. rt-app reads an integer as MB of an
   * in-memory buffer per thread (0: no log), {@code "file"} and {@code "auto"} as logging
   * straight to the file, {@code "disable"} as no log; the rows kept here are
   * {@link RtAppLog#ROWS_KEPT} whatever the buffer's size.
   */
  private static boolean logSize(Value v) {
    if (v instanceof Num) {
      long mb = integer(v);
      if (mb < 0) {
        throw bad(v, "log_size is MB >= 0, or \"file\", \"auto\" or \"disable\"; got " + mb);
      }
      return mb > 0;
    }
    String s = string(v);
    return switch (s) {
      case "file", "auto" -> true;
      case "disable" -> false;
      default -> throw bad(v, "log_size is MB, or \"file\", \"auto\" or \"disable\"; got \"" + s + "\"");
    };
  }

  static void refuseIfUnsupported(Member m) {
    String why = REFUSED_KEYS.get(m.key());
    if (why != null) {
      throw bad(m.value(), "not supported: " + why);
    }
  }

  private RtAppFile.TaskDef task(String name, Obj t, RtAppFile.Global g, Set<String> taskNames) {
    if (!name.matches("[A-Za-z0-9_.:+-]+")) {
      throw bad(t, "a task name is one word of letters, digits and _.:+- (it names the threads)");
    }
    int instance = 1;
    long delay = 0;
    Long loop = null;
    SchedPolicy policy = g.defaultPolicy();
    Value priority = null;
    List<Integer> cpus = List.of();
    Obj phases = null;
    for (Member m : t.members()) {
      refuseIfUnsupported(m);
      Value v = m.value();
      switch (m.key()) {
        case "instance" -> {
          long n = integer(v);
          if (n < 0 || n > 1_000) {
            throw bad(v, "instance is 0..1000 threads, got " + n);
          }
          instance = (int) n;
        }
        case "delay" -> delay = duration(v);
        case "loop" -> loop = loop(v);
        case "policy" -> policy = policy(v);
        case "priority" -> priority = v;
        case "cpus" -> cpus = cpus(v);
        case "phases" -> phases = object(v);
        default -> {
          if (!TASK_KEYS.contains(m.key()) && eventKind(m.key()) == null) {
            throw bad(v, "unknown event or key");
          }
        }
      }
    }
    int prio = priority(priority, policy);
    List<RtAppFile.Phase> ph = new ArrayList<>();
    long threadLoop;
    if (phases != null) {
      for (Member m : t.members()) {
        if (eventKind(m.key()) != null) {
          throw bad(m.value(), "an event beside phases: put it in a phase");
        }
      }
      for (Member m : phases.members()) {
        ph.add(phase(m.key(), object(m.value()), PHASE_KEYS, taskNames));
      }
      if (ph.isEmpty()) {
        throw bad(phases, "no phases");
      }
      threadLoop = loop == null ? -1 : loop;
    } else {
      // rt-app: the task is its one phase, run "loop" times by the phase (1 if absent), and
      // the thread runs that phase once if "loop" is given, forever if not.
      ph.add(phase(name, t, TASK_KEYS, taskNames));
      threadLoop = loop == null ? -1 : 1;
    }
    return new RtAppFile.TaskDef(name, instance, delay, threadLoop, policy, prio, cpus, ph);
  }

  private RtAppFile.Phase phase(String name, Obj p, Set<String> keys, Set<String> taskNames) {
    long loop = 1;
    List<RtAppEvent> events = new ArrayList<>();
    for (Member m : p.members()) {
      refuseIfUnsupported(m);
      String kind = eventKind(m.key());
      if (kind != null) {
        events.add(event(kind, m, taskNames));
      } else if (m.key().equals("loop")) {
        loop = loop(m.value());
      } else if (keys == PHASE_KEYS && List.of("policy", "priority", "cpus").contains(m.key())) {
        throw bad(m.value(), "not supported yet: a policy, priority or affinity change between phases"
            + " (sched_setscheduler at run time; 2.4.17 has no sched_setaffinity at all)");
      } else if (!keys.contains(m.key())) {
        throw bad(m.value(), "unknown event or key");
      }
    }
    if (events.isEmpty()) {
      throw bad(p, "no events (rt-app refuses a phase without events)");
    }
    return new RtAppFile.Phase(name, loop, events);
  }

  /**
   * The event a key names, by rt-app's prefix rule and in its order
   * (parse_task_event_data): {@code runtime} before {@code run} is decided inside the run case,
   * {@code memrun} before {@code mem}. Null if the key is no event.
   */
  static String eventKind(String key) {
    for (String e : List.of("run", "sleep", "memrun", "mem", "iorun", "lock", "unlock", "signal", "broad", "wait",
        "sync", "barrier", "timer", "resume", "suspend", "yield", "fork", "sem_post", "sem_wait")) {
      if (key.startsWith(e)) {
        return e.equals("run") && key.startsWith("runtime") ? "runtime" : e;
      }
    }
    return null;
  }

  private RtAppEvent event(String kind, Member m, Set<String> taskNames) {
    String key = m.key();
    Value v = m.value();
    return switch (kind) {
      case "run" -> new RtAppEvent.Run(key, duration(v), false);
      case "runtime" -> new RtAppEvent.Run(key, duration(v), true);
      case "sleep" -> new RtAppEvent.Sleep(key, duration(v));
      case "mem" -> new RtAppEvent.Mem(key, bytes(v));
      case "iorun" -> new RtAppEvent.IoRun(key, bytes(v));
      case "lock" -> new RtAppEvent.Lock(key, resource(v, "mutex"));
      case "unlock" -> new RtAppEvent.Unlock(key, resource(v, "mutex"));
      case "signal" -> new RtAppEvent.Signal(key, resource(v, "wait"));
      case "broad" -> new RtAppEvent.Broad(key, resource(v, "wait"));
      case "wait" -> {
        Obj o = object(v);
        yield new RtAppEvent.Wait(key, resource(field(o, "ref"), "wait"), resource(field(o, "mutex"), "mutex"));
      }
      case "sync" -> {
        Obj o = object(v);
        yield new RtAppEvent.Sync(key, resource(field(o, "ref"), "wait"), resource(field(o, "mutex"), "mutex"));
      }
      case "barrier" -> new RtAppEvent.Barrier(key, resource(v, "barrier"));
      case "timer" -> timer(key, object(v));
      case "resume" -> {
        String task = string(v);
        if (!taskNames.contains(task)) {
          throw bad(v, "unknown resource: no task named '" + task + "' to resume");
        }
        yield new RtAppEvent.Resume(key, task);
      }
      // rt-app ignores suspend's value: a thread suspends on the condition of its own task
      case "suspend" -> new RtAppEvent.Suspend(key, taskOf(v));
      // rt-app reads no value (the tutorial's "String. Can be empty"): any value is the same call
      case "yield" -> new RtAppEvent.Yield(key);
      default -> throw bad(v, "not supported: the " + kind + " event (rt-app " + kind
          + ") is not modelled (docs/rt-app.md)");
    };
  }

  private static String taskOf(Value v) {
    String path = v.path();
    // tasks.<task>.suspend or tasks.<task>.phases.<phase>.suspend
    String rest = path.substring("tasks.".length());
    return rest.substring(0, rest.indexOf('.'));
  }

  private RtAppEvent.Timer timer(String key, Obj o) {
    Value ref = o.first("ref");
    Value period = o.first("period");
    if (ref == null || period == null) {
      throw bad(o, "a timer needs a ref and a period");
    }
    for (Member m : o.members()) {
      if (!List.of("ref", "period", "mode").contains(m.key())) {
        throw bad(m.value(), "unknown key of a timer (ref, period, mode)");
      }
    }
    String r = string(ref);
    boolean unique = r.startsWith("unique"); // rt-app: strncmp(ref, "unique", 6)
    if (!unique) {
      resource(ref, "timer");
    }
    long p = duration(period);
    if (p == 0) {
      throw bad(period, "a timer's period must be > 0 us");
    }
    Value mode = o.first("mode");
    boolean absolute = false;
    if (mode != null) {
      String md = string(mode);
      if (!md.equals("absolute") && !md.equals("relative")) {
        throw bad(mode, "a timer's mode is absolute or relative, got '" + md + "'");
      }
      absolute = md.equals("absolute");
    }
    return new RtAppEvent.Timer(key, r, unique, p, absolute);
  }

  private static Value field(Obj o, String key) {
    Value v = o.first(key);
    if (v == null) {
      throw bad(o, "needs a " + key);
    }
    return v;
  }

  /** A resource name; if the file declares its resources, one of that type. */
  private String resource(Value v, String type) {
    String name = string(v);
    if (name.isEmpty()) {
      throw bad(v, "an empty resource name");
    }
    String t = declared.get(name);
    if (!declared.isEmpty() && t == null) {
      throw bad(v, "unknown resource '" + name + "' (not in the resources section)");
    }
    if (t != null && !t.equals(type)) {
      throw bad(v, "unknown resource: '" + name + "' is declared as a " + t + ", not a " + type);
    }
    return name;
  }

  static SchedPolicy policy(Value v) {
    String p = string(v);
    return switch (p) {
      case "SCHED_OTHER" -> SchedPolicy.OTHER;
      case "SCHED_FIFO" -> SchedPolicy.FIFO;
      case "SCHED_RR" -> SchedPolicy.RR;
      case "SCHED_DEADLINE" -> throw bad(v, "not supported: SCHED_DEADLINE (Linux 3.14); 2.4 has SCHED_OTHER, SCHED_FIFO, SCHED_RR");
      case "SCHED_BATCH" -> throw bad(v, "not supported: SCHED_BATCH (Linux 2.6.16); 2.4 has SCHED_OTHER, SCHED_FIFO, SCHED_RR");
      case "SCHED_IDLE" -> throw bad(v, "not supported: SCHED_IDLE (Linux 2.6.23); 2.4 has SCHED_OTHER, SCHED_FIFO, SCHED_RR");
      default -> throw bad(v, "unknown policy '" + p + "'");
    };
  }

  static int priority(Value v, SchedPolicy policy) {
    if (v == null) {
      return policy.isRealTime() ? DEFAULT_RT_PRIORITY : 0;
    }
    long p = integer(v);
    if (policy.isRealTime() && (p < 1 || p > 99)) {
      throw bad(v, "a SCHED_FIFO/RR priority is 1..99, got " + p);
    }
    if (!policy.isRealTime() && (p < -20 || p > 19)) {
      throw bad(v, "a SCHED_OTHER priority is a nice value, -20..19, got " + p);
    }
    return (int) p;
  }

  static List<Integer> cpus(Value v) {
    if (!(v instanceof Arr a)) {
      throw bad(v, "cpus is an array of CPU numbers, got " + v.kind());
    }
    List<Integer> out = new ArrayList<>();
    for (Value e : a.elements()) {
      long c = integer(e);
      if (c < 0 || c > 63) {
        throw bad(e, "a CPU number is 0..63, got " + c);
      }
      if (!out.contains((int) c)) {
        out.add((int) c);
      }
    }
    if (out.isEmpty()) {
      throw bad(v, "an empty cpus list");
    }
    return out;
  }

  static long loop(Value v) {
    long n = integer(v);
    if (n < -1) {
      throw bad(v, "loop is a count >= 0, or -1 for ever; got " + n);
    }
    return n;
  }

  static long duration(Value v) {
    long us = integer(v);
    if (us < 0) {
      throw bad(v, "a negative duration: " + us + " us");
    }
    return us;
  }

  private static long bytes(Value v) {
    long n = integer(v);
    if (n < 0) {
      throw bad(v, "a negative size: " + n + " bytes");
    }
    return n;
  }

  static Obj object(Value v) {
    if (v instanceof Obj o) {
      return o;
    }
    throw bad(v, "expected an object, got " + v.kind());
  }

  static String string(Value v) {
    if (v instanceof Str s) {
      return s.text();
    }
    throw bad(v, "expected a string, got " + v.kind());
  }

  static boolean bool(Value v) {
    if (v instanceof Bool b) {
      return b.value();
    }
    throw bad(v, "expected true or false, got " + v.kind());
  }

  /** An integer, as rt-app reads one with json_object_get_int: a C int. */
  static long integer(Value v) {
    if (v instanceof Num n && n.isInteger()) {
      try {
        long x = Long.parseLong(n.text());
        if (x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE) {
          return x;
        }
      } catch (NumberFormatException e) {
        // falls through to the refusal
      }
      throw bad(v, "out of the range of a C int: " + n.text());
    }
    throw bad(v, "expected an integer, got " + (v instanceof Num n ? n.text() : v.kind()));
  }
}
