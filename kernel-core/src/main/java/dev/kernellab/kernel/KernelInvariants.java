package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What must hold of a kernel between any two events, checked on request
 * ({@link Kernel#checkInvariants()}): the scheduler's own invariants, and that no task is lost
 * or duplicated: each runs on at most one CPU, each runnable task is queued exactly once, the
 * queues hold only live tasks, every lock a CPU lists as held is held by that CPU, and the big
 * kernel lock, when held, is held by a CPU's current task with a lock_depth.
 *
 * <p>In the kernel these are the runqueue sanity checks that {@code CONFIG_DEBUG_KERNEL}
 * builds carry in spirit (2.4.17 {@code schedule()}'s {@code BUG_ON}s, 2.5's runqueue
 * assertions), made exhaustive because a model can afford to look at everything.
 */
final class KernelInvariants {

  private KernelInvariants() {}

  static void check(Kernel k, KernelCpu[] cpus, List<Task> tasks) {
    try {
      k.scheduler().checkInvariants();
    } catch (RuntimeException e) {
      throw k.bug(cpus[0], "scheduler invariant", e.toString());
    }
    Set<Task> alive = Collections.newSetFromMap(new IdentityHashMap<>());
    alive.addAll(tasks);
    Map<Task, Integer> runningOn = new IdentityHashMap<>();
    for (KernelCpu c : cpus) {
      Integer other = runningOn.put(c.current, c.id);
      if (other != null && !c.current.isIdle()) {
        throw k.bug(c, "task on two CPUs", c.current + " is current on cpu" + other + " and cpu" + c.id);
      }
      if (!c.current.isIdle() && !alive.contains(c.current)) {
        throw k.bug(c, "dead task running", c.current + " (" + c.current.state() + ") is current but not alive");
      }
      for (int i = 0; i < c.heldCount; i++) {
        SpinLock l = c.held[i];
        if (!l.isReaderWriter() && l.writerCpu != c.id && l.nested == 0) {
          throw k.bug(c, "held-lock list corrupt", l + " listed as held on cpu" + c.id + " but held by cpu" + l.writerCpu);
        }
      }
    }
    SpinLock bkl = k.bkl.flag();
    if (bkl != null && bkl.writerCpu >= 0 && cpus[bkl.writerCpu].current.lockDepth < 0) {
      // schedule() drops kernel_flag for a holder that leaves the CPU: the holder is current.
      throw k.bug(cpus[bkl.writerCpu], "big kernel lock without a holder",
          bkl + " is held on cpu" + bkl.writerCpu + " whose current task " + cpus[bkl.writerCpu].current
              + " has lock_depth -1");
    }
    if (bkl != null && bkl.sleeper.owner != null) {
      // A sleeping kernel_flag is owned by a task at depth >= 0, or by one that was preempted
      // holding it, whose preempt_schedule() hides its depth.
      Task owner = bkl.sleeper.owner;
      if (owner.lockDepth < 0 && (owner.preemptCount & PreemptCount.PREEMPT_ACTIVE) == 0) {
        throw k.bug(cpus[owner.cpu()], "big kernel lock without a holder",
            bkl + " is owned by " + owner + ", which has lock_depth -1 and was not preempted");
      }
    }
    Map<Task, Integer> queued = new IdentityHashMap<>();
    for (TaskView v : k.scheduler().queuedTasks()) {
      Task t = Task.own(v);
      if (queued.merge(t, 1, Integer::sum) > 1) {
        throw k.bug(cpus[t.cpu()], "task queued twice", t + " appears twice on the runqueues");
      }
      if (!alive.contains(t)) {
        throw k.bug(cpus[t.cpu()], "dead task queued", t + " (" + t.state() + ") is on a runqueue but not alive");
      }
      // Off its CPU, a queued task is runnable, or was preempted (PREEMPT_ACTIVE keeps it
      // queued whatever its state).
      if (!runningOn.containsKey(t)
          && t.state() != TaskState.RUNNING
          && (t.preemptCount & PreemptCount.PREEMPT_ACTIVE) == 0) {
        throw k.bug(cpus[t.cpu()], "sleeper left queued",
            t + " is " + t.state() + ", not running and not preempted, but still on a runqueue");
      }
    }
    for (Task t : tasks) {
      if (t.state() == TaskState.RUNNING && !queued.containsKey(t)) {
        throw k.bug(cpus[t.cpu()], "runnable task lost",
            t + " is TASK_RUNNING but on no runqueue"
                + (runningOn.containsKey(t) ? " (current on cpu" + runningOn.get(t) + ")" : ""));
      }
    }
  }
}
