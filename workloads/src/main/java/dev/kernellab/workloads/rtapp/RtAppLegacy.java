package dev.kernellab.workloads.rtapp;

import static dev.kernellab.workloads.rtapp.RtAppReader.bad;
import static dev.kernellab.workloads.rtapp.RtAppReader.bool;
import static dev.kernellab.workloads.rtapp.RtAppReader.duration;
import static dev.kernellab.workloads.rtapp.RtAppReader.integer;
import static dev.kernellab.workloads.rtapp.RtAppReader.object;
import static dev.kernellab.workloads.rtapp.RtAppReader.string;

import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.workloads.rtapp.LenientJson.Arr;
import dev.kernellab.workloads.rtapp.LenientJson.Member;
import dev.kernellab.workloads.rtapp.LenientJson.Num;
import dev.kernellab.workloads.rtapp.LenientJson.Obj;
import dev.kernellab.workloads.rtapp.LenientJson.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * rt-app's 2014 grammar, the one its last {@code doc/taskset.json} (c87cce1, August 2014) is
 * written in, read into the same typed model as today's ({@link RtAppFile}, {@link RtAppEvent}).
 * rt-app's parser of that summer (src/rt-app_parse_config.c at 15b8a61, after 3bda96e "add phase
 * feature" and before 82dae3e "simplify the grammar") describes a thread or a phase by its
 * figures instead of a list of events:
 *
 * <pre>
 * exec E, period P, deadline D, sleep S   E us of work a period of P us (P defaults to E); with S
 *                                         (the default) the thread sleeps to the next period
 *                                         (clock_nanosleep, TIMER_ABSTIME, no drift); D only
 *                                         reports slack (SCHED_DEADLINE's, refused, would use it)
 * lock_order [r, ...]                     each r a "blockage": take the resources of its access
 *                                         list, busy-wait its duration, release them
 * resources { r: { duration, access } }   the task's use of the global resources
 * global resources { r: { type, target } }  mutex, wait, signal, broadcast, sync (signal and wait
 *                                         on target), sleep, run
 * </pre>
 *
 * <p>Implementation overview. Each blockage becomes the events rt-app's run() then did
 * (src/rt-app.c at 15b8a61): its access list is built as serialize_acl builds it (the resource,
 * then depth first the resources its {@code access} names, each once, then the resource moved to
 * the end), each element taken in order (mutex: lock; wait: wait on it with the mutex before it;
 * signal/broadcast: its target; sync: signal its target and wait on it with the mutex before it;
 * sleep: nanosleep of the blockage's duration; run: nothing), then, unless the last element was a
 * sleep, {@code run} of the blockage's duration, then the mutexes unlocked in reverse. The
 * period's work left ({@code exec} less the blockages' run durations) is one more {@code run};
 * then, with {@code sleep}, an absolute {@code unique} timer of the period. A task without
 * phases is one phase looping {@code loop} times (default for ever); a task with phases loops
 * them {@code loop} times (default for ever), each phase {@code loop} times (default for ever,
 * as that parser had it).
 *
 * <p>Where this differs from that rt-app, it refuses rather than guess: a periodic phase among
 * several (rt-app restarted the period at each phase change, which a timer event cannot say),
 * integer resource lists (the 2013 grammar), a resource named but not declared (rt-app looped for
 * ever looking for it), an access list that comes back to a resource already in it (rt-app
 * recursed for ever), a wait or a sync with no mutex before it (rt-app dereferenced a null
 * pointer). rt-app's duplicate check skipped the list's last element; this one does not.
 */
final class RtAppLegacy {

  /**
   * Keys of the 2014 grammar's {@code global} beside today's: {@code spacing} (ms between the threads'
   * starts, read here), and two that change nothing: AQUOSA's {@code fragment} (AQUOSA support
   * was removed in 54af1a6) and the {@code frag} of the last taskset.json, which no rt-app read.
   */
  static final Set<String> GLOBAL_KEYS = Set.of("frag", "fragment", "spacing");

  private static final Set<String> TASK_KEYS = Set.of("policy", "priority", "delay", "cpus", "loop", "phases");
  private static final Set<String> PHASE_KEYS =
      Set.of("loop", "exec", "period", "deadline", "sleep", "resources", "lock_order");
  private static final Set<String> TYPES = Set.of("mutex", "wait", "signal", "broadcast", "sync", "sleep", "run");

  /** A global resource: its type and, for signal, broadcast and sync, the wait it targets. */
  private record Resource(String name, String type, String target) {}

  private final String source;
  private final Map<String, Resource> resources = new LinkedHashMap<>();

  RtAppLegacy(String source) {
    this.source = source;
  }

  /** True if a task or a phase of {@code root} has {@code exec} or {@code lock_order}: the 2014 grammar. */
  static boolean isLegacy(Obj root) {
    Value tasks = root.first("tasks");
    if (!(tasks instanceof Obj t)) {
      return false;
    }
    for (Member task : t.members()) {
      if (task.value() instanceof Obj o) {
        if (describesAPhase(o)) {
          return true;
        }
        if (o.first("phases") instanceof Obj phases) {
          for (Member p : phases.members()) {
            if (p.value() instanceof Obj po && describesAPhase(po)) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  private static boolean describesAPhase(Obj o) {
    return o.first("exec") != null || o.first("lock_order") != null;
  }

  RtAppFile file(Obj root) {
    Obj tasks = null;
    Obj global = null;
    for (Member m : root.members()) {
      switch (m.key()) {
        case "tasks" -> tasks = object(m.value());
        case "global" -> global = object(m.value());
        case "resources" -> resources(m.value());
        default -> throw bad(m.value(), "unknown key (an rt-app file has tasks, global and resources)");
      }
    }
    if (tasks == null) {
      throw new IllegalArgumentException("tasks: missing (an rt-app file needs a tasks section)");
    }
    RtAppFile.Global g = global == null ? RtAppFile.Global.NO_GLOBAL : RtAppReader.global(global, true);
    Value spacingValue = global == null ? null : global.first("spacing");
    long spacingMs = spacingValue == null ? 0 : integer(spacingValue);
    if (spacingMs < 0) {
      throw bad(spacingValue, "spacing is ms >= 0, got " + spacingMs);
    }
    List<RtAppFile.TaskDef> defs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Member m : tasks.members()) {
      if (!names.add(m.key())) {
        throw bad(m.value(), "a second task of the same name");
      }
      defs.add(task(m.key(), object(m.value()), g, defs.size(), spacingMs));
    }
    if (defs.isEmpty()) {
      throw bad(tasks, "no tasks");
    }
    return new RtAppFile(source, g, defs);
  }

  private void resources(Value v) {
    if (v instanceof Num) {
      throw bad(v, "not supported: a number of resources (rt-app's 2013 grammar of numbered mutexes);"
          + " name them, each with its type");
    }
    for (Member m : object(v).members()) {
      Obj r = object(m.value());
      String type = "mutex"; // resource_to_string(0)
      String target = null;
      for (Member f : r.members()) {
        switch (f.key()) {
          case "type" -> {
            type = string(f.value());
            if (!TYPES.contains(type)) {
              throw bad(f.value(), "unknown resource type '" + type + "' (the 2014 grammar's: " + String.join(", ",
                  List.of("mutex", "wait", "signal", "broadcast", "sync", "sleep", "run")) + ")");
            }
          }
          case "target" -> target = string(f.value());
          default -> throw bad(f.value(), "unknown key of a resource (type, target)");
        }
      }
      if (List.of("signal", "broadcast", "sync").contains(type)) {
        if (target == null) {
          throw bad(r, "a " + type + " resource needs a target: the wait it signals");
        }
        resources.put(m.key(), new Resource(m.key(), type, target));
      } else {
        resources.put(m.key(), new Resource(m.key(), type, null));
      }
    }
    for (Resource r : resources.values()) {
      if (r.target() != null) {
        Resource t = resources.get(r.target());
        if (t == null || !t.type().equals("wait")) {
          throw bad(object(object(v).first(r.name())).first("target"),
              "the target of a " + r.type() + " is a resource of type wait; '" + r.target() + "' is "
                  + (t == null ? "not declared" : "a " + t.type()));
        }
      }
    }
  }

  private RtAppFile.TaskDef task(String name, Obj t, RtAppFile.Global g, int index, long spacingMs) {
    if (!name.matches("[A-Za-z0-9_.:+-]+")) {
      throw bad(t, "a task name is one word of letters, digits and _.:+- (it names the threads)");
    }
    SchedPolicy policy = g.defaultPolicy();
    Value priority = null;
    long delay = 0;
    List<Integer> cpus = List.of();
    Long loop = null;
    Obj phases = null;
    for (Member m : t.members()) {
      Value v = m.value();
      switch (m.key()) {
        case "policy" -> policy = RtAppReader.policy(v);
        case "priority" -> priority = v;
        case "delay" -> delay = duration(v);
        case "cpus" -> cpus = RtAppReader.cpus(v);
        case "loop" -> loop = RtAppReader.loop(v);
        case "phases" -> phases = object(v);
        default -> {
          if (!PHASE_KEYS.contains(m.key())) {
            throw bad(v, "unknown key of a task in rt-app's 2014 grammar");
          }
        }
      }
    }
    int prio = RtAppReader.priority(priority, policy);
    if (delay == 0 && spacingMs > 0) {
      delay = spacingMs * 1_000 * (index + 1); // 2014 rt-app's main(): spacing * 1000 * (i + 1) us
    }
    List<RtAppFile.Phase> ph = new ArrayList<>();
    long threadLoop;
    if (phases == null) {
      // parse_thread_data: data->loop = 1, and the task's own "loop" is its phase's
      ph.add(phase(name, t, TASK_KEYS));
      threadLoop = 1;
    } else {
      for (Member m : t.members()) {
        if (PHASE_KEYS.contains(m.key()) && !m.key().equals("loop")) {
          throw bad(m.value(), "a phase's key beside phases: put it in a phase");
        }
      }
      for (Member m : phases.members()) {
        ph.add(phase(m.key(), object(m.value()), Set.of()));
      }
      if (ph.isEmpty()) {
        throw bad(phases, "no phases");
      }
      if (ph.size() > 1) {
        for (Member m : phases.members()) {
          Value sleep = object(m.value()).first("sleep");
          if (sleep == null || bool(sleep)) {
            throw bad(sleep == null ? m.value() : sleep, "not supported: a periodic phase (sleep, the default)"
                + " among several: the 2014 rt-app restarted the period at each phase change, which a timer cannot say");
          }
        }
      }
      threadLoop = loop == null ? -1 : loop;
    }
    return new RtAppFile.TaskDef(name, 1, delay, threadLoop, policy, prio, cpus, ph);
  }

  /** parse_thread_phase_data: a phase's figures and blockages, as events; {@code also} are keys of the task around it. */
  private RtAppFile.Phase phase(String name, Obj p, Set<String> also) {
    long loop = -1;
    Value exec = null;
    Value period = null;
    Value deadline = null;
    boolean sleep = true;
    Obj taskResources = null;
    Arr lockOrder = null;
    for (Member m : p.members()) {
      Value v = m.value();
      switch (m.key()) {
        case "loop" -> loop = RtAppReader.loop(v);
        case "exec" -> exec = v;
        case "period" -> period = v;
        case "deadline" -> deadline = v;
        case "sleep" -> sleep = bool(v);
        case "resources" -> taskResources = object(v);
        case "lock_order" -> {
          if (!(v instanceof Arr a)) {
            throw bad(v, "lock_order is an array of resource names, got " + v.kind());
          }
          lockOrder = a;
        }
        default -> {
          if (!also.contains(m.key())) {
            throw bad(v, "unknown key of a phase in rt-app's 2014 grammar");
          }
        }
      }
    }
    if (exec == null) {
      throw bad(p, "a phase in rt-app's 2014 grammar needs its exec (us of work a period)");
    }
    long e = duration(exec);
    long per = period == null ? e : integer(period);
    if (per <= 0) {
      throw bad(period == null ? exec : period, "a period must be > 0 us, got " + per);
    }
    if (e > per) {
      throw bad(exec, "exec (" + e + " us) is longer than the period (" + per + " us)");
    }
    if (deadline != null) {
      long d = integer(deadline);
      if (d < e || d > per) {
        throw bad(deadline, "a deadline is between exec and the period, got " + d + " us");
      }
    }
    List<RtAppEvent> events = new ArrayList<>();
    long left = e;
    if (lockOrder != null) {
      for (Value r : lockOrder.elements()) {
        left = Math.max(0, left - blockage(r, taskResources, events));
      }
    } else if (taskResources != null) {
      throw bad(taskResources, "resources without a lock_order: the 2014 rt-app uses them only in that order");
    }
    if (left > 0) {
      events.add(new RtAppEvent.Run("exec", left, false));
    }
    if (sleep) {
      events.add(new RtAppEvent.Timer("period", "unique", true, per, true));
    }
    if (events.isEmpty()) {
      throw bad(p, "no work, no wait and no sleep: the phase would spin without time passing");
    }
    return new RtAppFile.Phase(name, loop, events);
  }

  /** One entry of lock_order as run() did it; returns the busy-wait it took from exec. */
  private long blockage(Value entry, Obj taskResources, List<RtAppEvent> events) {
    if (entry instanceof Num) {
      throw bad(entry, "not supported: a resource by number (rt-app's 2013 grammar); name it");
    }
    String name = string(entry);
    List<Resource> acl = new ArrayList<>();
    serialize(name, entry, taskResources, acl);
    acl.add(acl.remove(0)); // "the current resource is returned as the first element": moved to the end
    Value use = taskResources == null ? null : taskResources.first(name);
    long usage = 0;
    if (use != null) {
      Value d = object(use).first("duration");
      usage = d == null ? 0 : duration(d);
    }
    boolean busyWait = true;
    for (int i = 0; i < acl.size(); i++) {
      Resource r = acl.get(i);
      busyWait = !r.type().equals("sleep");
      switch (r.type()) {
        case "mutex" -> events.add(new RtAppEvent.Lock("lock", r.name()));
        case "wait" -> events.add(new RtAppEvent.Wait("wait", r.name(), mutexBefore(acl, i, entry)));
        case "signal" -> events.add(new RtAppEvent.Signal("signal", r.target()));
        case "broadcast" -> events.add(new RtAppEvent.Broad("broad", r.target()));
        case "sync" -> events.add(new RtAppEvent.Sync("sync", r.target(), mutexBefore(acl, i, entry)));
        case "sleep" -> {
          if (usage > 0) {
            events.add(new RtAppEvent.Sleep("sleep", usage));
          }
        }
        default -> {
          // run: nothing to take; the busy-wait below is the work
        }
      }
    }
    long ran = 0;
    if (busyWait && usage > 0) {
      events.add(new RtAppEvent.Run("run", usage, false));
      ran = usage;
    }
    for (int i = acl.size() - 1; i >= 0; i--) {
      if (acl.get(i).type().equals("mutex")) {
        events.add(new RtAppEvent.Unlock("unlock", acl.get(i).name()));
      }
    }
    return ran;
  }

  /** serialize_acl: {@code name}, then depth first what its {@code access} names, each once. */
  private void serialize(String name, Value at, Obj taskResources, List<Resource> acl) {
    Resource r = resources.get(name);
    if (r == null) {
      throw bad(at, "unknown resource '" + name + "' (not in the resources section)");
    }
    if (acl.contains(r)) {
      throw bad(at, "'" + name + "' is already in this access list: the 2014 rt-app would recurse for ever");
    }
    acl.add(r);
    Value use = taskResources == null ? null : taskResources.first(name);
    if (use == null) {
      return;
    }
    for (Member m : object(use).members()) {
      if (!m.key().equals("duration") && !m.key().equals("access")) {
        throw bad(m.value(), "unknown key of a task's resource (duration, access)");
      }
    }
    Value access = object(use).first("access");
    if (access == null) {
      return;
    }
    if (!(access instanceof Arr a)) {
      throw bad(access, "access is an array of resource names, got " + access.kind());
    }
    for (Value next : a.elements()) {
      if (next instanceof Num) {
        throw bad(next, "not supported: a resource by number (rt-app's 2013 grammar); name it");
      }
      serialize(string(next), next, taskResources, acl);
    }
  }

  /** The mutex a wait or a sync at {@code i} waits with: the element before it (get_resource's lock->prev). */
  private static String mutexBefore(List<Resource> acl, int i, Value at) {
    if (i == 0 || !acl.get(i - 1).type().equals("mutex")) {
      throw bad(at, "a " + acl.get(i).type() + " ('" + acl.get(i).name() + "') needs a mutex just before it in"
          + " its access list");
    }
    return acl.get(i - 1).name();
  }
}
