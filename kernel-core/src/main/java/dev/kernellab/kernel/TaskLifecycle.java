package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Simulation;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;
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

  /** The comm of {@code cpu}'s timer softirq thread under threaded softirqs (6.12 {@code ktimers/%u}). */
  static String ktimersComm(int cpu) {
    return "ktimers/" + cpu;
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

  /**
   * do_fork: a child named {@code comm} running {@code program}. With {@code vfork}
   * (CLONE_VM | CLONE_VFORK) the child shares the parent's mm, copy_mm taking a reference
   * only, and its vfork_done names the parent, which the caller puts to sleep until the
   * child's {@link #mmRelease}; otherwise the child gets dup_mmap's copy.
   */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  @Models(file = "kernel/fork.c", function = "copy_mm", version = "2.4.17")
  void fork(KernelCpu c, String comm, KernelPath program, boolean vfork) {
    Task parent = c.current;
    int pid = nextPid++;
    Mm mm;
    if (!program.isUser()) {
      mm = null;
    } else if (parent.mm() == null) {
      mm = new Mm(pid);
    } else if (vfork) {
      mm = parent.mm();
      mm.get();
    } else {
      mm = parent.mm().copy(pid);
    }
    Task child = newTask(pid, comm, mm, false, parent.cpusAllowed(), null);
    child.setPolicy(parent.policy(), parent.rtPriority());
    child.setNice(parent.nice());
    child.setCpu(c.id);
    child.parent = parent;
    child.setSchedEntity(scheduler.createEntity(child));
    prepareNewContext(child, program);
    if (vfork) {
      child.vforkDone = parent;
      parent.vforkWaiting = true;
    }
    tasks.add(child);
    scheduler.fork(parent, child);
    scheduler.wakeUpNewTask(child, parent);
  }

  /**
   * mm_release: if {@code t} is a vforked child whose parent still sleeps in do_fork, complete
   * the parent's wait (tsk->vfork_done) and return the parent to wake; else null. Called by
   * exec (exec_mmap) and exit (__exit_mm); the second call finds nothing to do.
   */
  @Models(file = "kernel/fork.c", function = "mm_release", version = "2.4.17")
  Task mmRelease(Task t) {
    Task parent = t.vforkDone;
    if (parent == null) {
      return null;
    }
    t.vforkDone = null;
    parent.vforkWaiting = false;
    return parent;
  }

  /**
   * exec_mmap's branch for an mm that other tasks use: {@code t} moves to a new, empty mm
   * (mm_alloc, activate_mm) and drops its reference to the old one (mmput), which the others
   * keep whole. Changes nothing when {@code t} is the mm's only user (exec then reuses it:
   * exit_mmap on the same mm_struct) or has none.
   */
  @Models(file = "fs/exec.c", function = "exec_mmap", version = "2.4.17")
  void replaceSharedMm(Task t) {
    Mm old = t.mm();
    if (old == null || old.users() == 1) {
      return;
    }
    old.put();
    t.setMm(new Mm(t.pid()));
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
