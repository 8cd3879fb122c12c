package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.Vectors;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import java.util.List;

/**
 * A kernel's side of scheduling: the {@link SchedulerHost} its scheduler (and only its
 * scheduler) sees, the kernel's half of {@code schedule()} around the scheduler's pick
 * (accounting, tracing, reaping a zombie at its last switch), and the wake-ups.
 */
final class KernelScheduling extends TaskWritingHost {

  private final Kernel k;
  private final Scheduler scheduler;
  private int thisCpu;

  KernelScheduling(Kernel k, Scheduler scheduler) {
    this.k = k;
    this.scheduler = scheduler;
  }

  /** Makes {@code cpu} the CPU executing kernel code; returns the one it replaces. */
  int enterCpu(int cpu) {
    int saved = thisCpu;
    thisCpu = cpu;
    return saved;
  }

  // ---- schedule() -----------------------------------------------------------------------------

  void callSchedule(KernelCpu c, ExecContext ctx) {
    checkTaskContext(c, ctx);
    ctx.push(k.programs.schedulePath, false);
  }

  /** schedule() runs only in a task's context: from an interrupt or softirq it is an oops. */
  void checkTaskContext(KernelCpu c, ExecContext ctx) {
    if (ctx.kind != ExecContext.Kind.TASK) {
      throw k.bug(c, "Scheduling in interrupt",
          "schedule() called from " + ctx.kind + " context in " + ctx.currentPath());
    }
  }

  /**
   * schedule()'s state switch under the runqueue lock ({@link GenericSchedule#begin}). Done
   * with the pick, or when a recalculation drops the lock, whichever comes first
   * (SchedOps.PolicyCost).
   */
  void scheduleBegin(KernelCpu c) {
    c.scheduleBegun = true;
    GenericSchedule.begin(scheduler, c.current, c.id);
  }

  /** The pick and the switch; returns true if the CPU switched to another task. */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  boolean switchTasks(KernelCpu c) {
    if (!c.scheduleBegun) {
      scheduleBegin(c);
    }
    c.scheduleBegun = false;
    Task prev = c.current;
    Task next = GenericSchedule.pick(scheduler, prev, c.id);
    if (next == prev) {
      return false;
    }
    long now = k.now();
    prev.runtimeNs += now - c.switchedInNs;
    if (prev.state() == TaskState.RUNNING
        || (prev.preemptCount & PreemptCount.PREEMPT_ACTIVE) != 0) {
      prev.involuntarySwitches++;
    } else {
      prev.voluntarySwitches++;
    }
    c.switchedInNs = now;
    next.setCpu(c.id);
    c.current = next;
    if (k.tracer != null) {
      k.tracer.schedSwitch(now, c.id, prev, next);
    }
    if (prev.state() == TaskState.ZOMBIE) {
      k.lifecycle.reap(prev);
    }
    return true;
  }

  // ---- wake-ups -------------------------------------------------------------------------------

  int wakeUpQueue(KernelCpu c, WaitQueue wq) {
    return wakeUpQueue(c, wq, false);
  }

  @Models(file = "kernel/sched.c", function = "__wake_up_common", version = "2.4.17")
  int wakeUpQueue(KernelCpu c, WaitQueue wq, boolean sync) {
    wq.checkKernel(k, c);
    int woken = 0;
    int i = 0;
    while (i < wq.waiterCount()) {
      Task t = wq.waiter(i);
      boolean exclusive = wq.isExclusive(i);
      if (wakeUpTask(c, t, sync)) {
        woken++;
        if (exclusive) {
          break;
        }
      }
      i++;
    }
    return woken;
  }

  boolean wakeUpTask(KernelCpu c, Task t) {
    return wakeUpTask(c, t, false);
  }

  boolean wakeUpTask(KernelCpu c, Task t, boolean sync) {
    int saved = enterCpu(c.id);
    boolean woke = scheduler.tryToWakeUp(t, sync);
    enterCpu(saved);
    if (woke && k.tracer != null) {
      k.tracer.schedWakeup(k.now(), c.id, t);
    }
    return woke;
  }

  /** Lends {@code t} an inherited priority, or ends the loan with 0 (rt_mutex_setprio). */
  void setInheritedPriority(KernelCpu c, Task t, int rtPriority) {
    int saved = enterCpu(c.id);
    scheduler.setInheritedPriority(t, rtPriority);
    enterCpu(saved);
  }

  // ---- SchedulerHost --------------------------------------------------------------------------

  @Override
  public int cpuCount() {
    return k.cpuCount();
  }

  @Override
  public int hz() {
    return k.hz();
  }

  @Override
  public long jiffies() {
    return k.jiffies();
  }

  @Override
  public long now() {
    return k.now();
  }

  @Override
  public CostTable costs() {
    return k.costs();
  }

  @Override
  public Task current(int cpu) {
    return k.current(cpu);
  }

  @Override
  public Task idle(int cpu) {
    return k.idle(cpu);
  }

  @Override
  public int thisCpu() {
    return thisCpu;
  }

  @Models(file = "kernel/sched.c", function = "resched_task", version = "2.5.5")
  @Override
  public void reschedule(int cpu) {
    Task t = k.current(cpu);
    boolean wasSet = t.needResched();
    t.setNeedResched(true);
    if (!wasSet && cpu != thisCpu) {
      k.machine().sendIpi(thisCpu, cpu, Vectors.RESCHEDULE_VECTOR);
    }
  }

  @Models(file = "kernel/sched.c", function = "reschedule_idle", version = "2.4.17")
  @Override
  public void rescheduleAndInterrupt(int cpu) {
    k.current(cpu).setNeedResched(true);
    if (cpu != thisCpu) {
      k.machine().sendIpi(thisCpu, cpu, Vectors.RESCHEDULE_VECTOR);
    }
  }

  @Override
  public List<Task> allTasks() {
    return k.allTasks();
  }
}
