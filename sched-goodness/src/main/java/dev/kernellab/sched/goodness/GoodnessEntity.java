package dev.kernellab.sched.goodness;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models include/linux/sched.h: the 2.4 scheduler's fields of {@code struct task_struct}
 * (2.4.17): {@code counter}, the {@code SCHED_YIELD} bit of {@code policy}, {@code run_list}
 * and {@code cpus_runnable}.
 *
 * <p>The generic fields the 2.4 scheduler also reads ({@code nice}, {@code policy},
 * {@code rt_priority}, {@code processor}, {@code cpus_allowed}, {@code mm}) live on {@link TaskView}.
 * Read-only to users: {@link #counter()} is what a report or a test inspects.
 */
@Models(file = "include/linux/sched.h", function = "struct task_struct", version = "2.4.17")
public final class GoodnessEntity extends SchedEntity {

  /*
   * Implementation overview
   *
   * counter is both the time slice left (in ticks) and the dynamic priority: goodness() starts
   * from it, the tick takes one off, the epoch recalculation halves it and adds a full slice.
   *
   * The run_list links make this entity a node of the intrusive, doubly linked global runqueue
   * list (RunqueueList): queuing and dequeuing allocate nothing, as list_add/list_del do not.
   *
   * cpus_runnable is kept as the kernel keeps it, a CPU mask: all ones while the task runs
   * nowhere, the single bit of its CPU while it runs. can_schedule(p, cpu) is then one AND.
   */

  /** Every CPU: the value of cpus_runnable while the task runs nowhere. */
  static final long RUNS_NOWHERE = -1L;

  int counter; // ticks left; >= 0 for every task but idle tasks (IDLE_COUNTER)
  boolean schedYield; // policy & SCHED_YIELD: set by sched_yield, cleared when schedule() has run
  long cpusRunnable = RUNS_NOWHERE; // ~0 while not running, else 1 << the CPU running it

  // run_list: both null and onRunqueue false iff the task is on no list; head.prev and
  // tail.next are null (the list owns no sentinel node).
  GoodnessEntity prev;
  GoodnessEntity next;
  boolean onRunqueue;
  int nrCpu; // while queued: the CPU whose nr_running share counts this task

  GoodnessEntity(TaskView task, int counter) {
    super(task);
    this.counter = counter;
  }

  /** {@code counter}: ticks left in this epoch, and the base of goodness(). */
  public int counter() {
    return counter;
  }

  /** True while the {@code SCHED_YIELD} bit is set (between sched_yield and the next pick). */
  public boolean schedYield() {
    return schedYield;
  }

  /** {@code task_on_runqueue(p)}: the task is on the global runqueue list. */
  @Models(file = "include/linux/sched.h", function = "task_on_runqueue", version = "2.4.17")
  public boolean onRunqueue() {
    return onRunqueue;
  }

  /** {@code task_has_cpu(p)}: the task is running on some CPU. */
  @Models(file = "include/linux/sched.h", function = "task_has_cpu", version = "2.4.17")
  public boolean hasCpu() {
    return cpusRunnable != RUNS_NOWHERE;
  }

  /**
   * {@code can_schedule(p, cpu)} (SMP): p may run on {@code cpu} and is not running on another
   * CPU.
   */
  @Models(file = "kernel/sched.c", function = "can_schedule", version = "2.4.17")
  boolean canSchedule(int cpu) {
    return (cpusRunnable & task().cpusAllowed() & (1L << cpu)) != 0;
  }

  /** {@code task_set_cpu(p, cpu)}: p now runs on {@code cpu}. */
  @Models(file = "include/linux/sched.h", function = "task_set_cpu", version = "2.4.17")
  void setCpu(SchedulerHost host, int cpu) {
    cpusRunnable = 1L << cpu;
    host.setCpu(task(), cpu);
  }

  /** {@code task_release_cpu(p)}: p runs nowhere (it was switched out). */
  @Models(file = "include/linux/sched.h", function = "task_release_cpu", version = "2.4.17")
  void releaseCpu() {
    cpusRunnable = RUNS_NOWHERE;
  }

  /** The fields of {@code t}, which must have been created by a {@link GoodnessScheduler}. */
  static GoodnessEntity of(TaskView t) {
    return (GoodnessEntity) t.schedEntity();
  }

  @Override
  public String toString() {
    return task() + "{counter=" + counter + (schedYield ? ", SCHED_YIELD" : "")
        + (onRunqueue ? ", queued" : "") + (hasCpu() ? ", running" : "") + "}";
  }
}
