package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Where tasks come from and go: boot-time tasks, {@code do_fork}, the reaping of a zombie, the
 * task list and pid allocation, and the per-task objects made on first use (the timeout timer
 * of {@code schedule_timeout}, the block request).
 */
final class TaskLifecycle {

  private final Kernel k;
  private final Simulation sim;
  private final Scheduler scheduler;
  private final List<Task> tasks = new ArrayList<>(); // live tasks, pid order
  private final List<Task> tasksView = Collections.unmodifiableList(tasks);
  private int nextPid = 1;

  TaskLifecycle(Kernel k, Simulation sim, Scheduler scheduler) {
    this.k = k;
    this.sim = sim;
    this.scheduler = scheduler;
  }

  /** Live tasks in pid order, read-only. */
  List<Task> tasks() {
    return tasksView;
  }

  /** The comm of {@code cpu}'s idle task. */
  static String idleComm(int cpu) {
    return "swapper/" + cpu;
  }

  /** The comm of {@code cpu}'s ksoftirqd (2.4.17 kernel/softirq.c {@code ksoftirqd_CPU%d}). */
  static String ksoftirqdComm(int cpu) {
    return "ksoftirqd_CPU" + cpu;
  }

  /** The idle task of {@code cpu} ({@code init_idle}), running {@code idlePath}. */
  Task newIdle(int cpu, KernelPath idlePath) {
    Task idle = newTask(0, idleComm(cpu), null, true, 1L << cpu, "idle" + cpu);
    idle.setCpu(cpu);
    idle.setSchedEntity(scheduler.createEntity(idle));
    scheduler.initIdle(idle, cpu);
    idle.context.push(idlePath, false);
    return idle;
  }

  private Task newTask(int pid, String comm, Mm mm, boolean idle, long allowed, String stream) {
    // a task's stream is "task.<pid>" (pids only grow: an indexed family remembers one number)
    // or, for the idle tasks, "task.idle<cpu>"
    return new Task(pid, comm, mm, idle, allowed,
        stream == null ? sim.randoms().stream("task", pid) : sim.randoms().stream("task." + stream));
  }

  /** Creates a task from {@code spec} and makes it runnable (a boot-time task). */
  Task spawn(TaskSpec spec) {
    int cpus = k.cpuCount();
    if (spec.cpu() < 0 || spec.cpu() >= cpus) {
      throw new IllegalArgumentException(
          spec.comm() + ": no cpu" + spec.cpu() + " on a " + cpus + "-CPU machine");
    }
    int pid = nextPid++;
    Mm mm = spec.isUser() ? new Mm(pid, spec.residentPages()) : null;
    long allowed = spec.cpusAllowed() & (cpus == 64 ? -1L : (1L << cpus) - 1);
    if (allowed == 0) {
      throw new IllegalArgumentException(spec.comm() + ": cpus_allowed names no CPU of this machine");
    }
    Task t = newTask(pid, spec.comm(), mm, false, allowed, null);
    t.setPolicy(spec.policy(), spec.rtPriority());
    t.setNice(spec.nice());
    t.setCpu(spec.mayRunOnOrFirst(allowed));
    t.setSchedEntity(scheduler.createEntity(t));
    prepareNewContext(t, spec.program());
    tasks.add(t);
    int saved = k.sched.enterCpu(t.cpu());
    scheduler.wakeUpNewTask(t, null);
    k.sched.enterCpu(saved);
    return t;
  }

  private void prepareNewContext(Task t, KernelPath program) {
    t.context.clear();
    t.context.push(program, program.isUser());
    ExecContext.Frame f = t.context.push(k.programs.retFromFork, false);
    f.scratch = 1; // the first run pays a context switch
    // do_fork: a child starts with preempt_count 1, dropped by schedule_tail() on its first run.
    t.preemptCount = PreemptCount.PREEMPT_OFFSET;
  }

  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  void fork(KernelCpu c, String comm, KernelPath program) {
    Task parent = c.current;
    int pid = nextPid++;
    Mm mm = program.isUser() ? (parent.mm() == null ? new Mm(pid) : parent.mm().copy(pid)) : null;
    Task child = newTask(pid, comm, mm, false, parent.cpusAllowed(), null);
    child.setPolicy(parent.policy(), parent.rtPriority());
    child.setNice(parent.nice());
    child.setCpu(c.id);
    child.parent = parent;
    child.setSchedEntity(scheduler.createEntity(child));
    prepareNewContext(child, program);
    tasks.add(child);
    scheduler.fork(parent, child);
    scheduler.wakeUpNewTask(child, parent);
  }

  /**
   * {@code release_task} (kernel/exit.c): the model reaps a zombie at its last switch, as if the
   * parent's {@code wait4()} returned at once; {@code sched_exit} therefore hands the child's
   * slice back to the parent a little earlier than a real parent would collect it.
   */
  @Models(file = "kernel/exit.c", function = "release_task", version = "2.4.17")
  void reap(Task zombie) {
    Task reaper = zombie.parent != null && zombie.parent.state() != TaskState.DEAD ? zombie.parent : null;
    if (reaper != null) {
      scheduler.reap(reaper, zombie);
    }
    zombie.setState(TaskState.DEAD);
    tasks.remove(zombie);
    if (zombie.timeout != null) {
      k.timers.forget(zombie.timeout);
    }
  }

  KernelTimer timeoutTimer(Task t) {
    if (t.timeout == null) {
      t.timeout = new KernelTimer("timeout." + t.pid(), c -> c.wakeUpProcess(t));
    }
    return t.timeout;
  }

  IoOps.TaskIo taskIo(Task t) {
    if (t.io == null) {
      t.io = new IoOps.TaskIo(t);
    }
    return t.io;
  }

  Optional<Task> byPid(int pid) {
    for (Task t : tasks) {
      if (t.pid() == pid) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  Optional<Task> byComm(String comm) {
    for (Task t : tasks) {
      if (t.comm().equals(comm)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
