package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately simple scheduler for kernel-core's own tests: per-CPU lists, real-time tasks
 * by rt_priority first, then everybody else round-robin with a fixed slice. No real policy of
 * any kernel version belongs in kernel-core; this one exists so the generic half can be tested
 * without one. Published in the test-jar.
 */
public final class SimpleRoundRobinScheduler implements Scheduler {

  /** Ticks a SCHED_OTHER or SCHED_RR task runs before it goes to the tail. */
  public static final int SLICE_TICKS = 5;

  private SchedulerHost host;
  private final List<List<TaskView>> queues = new ArrayList<>();

  private static final class Entity extends SchedEntity {
    int sliceLeft = SLICE_TICKS;
    boolean queued;

    Entity(TaskView t) {
      super(t);
    }
  }

  private static Entity e(TaskView t) {
    return (Entity) t.schedEntity();
  }

  private static int rank(TaskView t) {
    if (t.isIdle()) {
      return -1;
    }
    int rt = t.effectiveRtPriority();
    return rt > 0 ? 100 + rt : 0;
  }

  @Override
  public String name() {
    return "simple-rr";
  }

  @Override
  public boolean supportsCpuCount(int cpus) {
    return true;
  }

  @Override
  public void attach(SchedulerHost h) {
    this.host = h;
    for (int c = 0; c < h.cpuCount(); c++) {
      queues.add(new ArrayList<>());
    }
  }

  @Override
  public SchedEntity createEntity(TaskView t) {
    return new Entity(t);
  }

  @Override
  public void initIdle(TaskView idle, int cpu) {}

  @Override
  public void fork(TaskView parent, TaskView child) {}

  @Override
  public void wakeUpNewTask(TaskView child, TaskView parent) {
    host.setRunning(child);
    enqueue(child, placement(child));
    preemptIfBetter(child);
  }

  @Override
  public boolean tryToWakeUp(TaskView p, boolean sync) {
    if (p.state() == TaskState.RUNNING || p.state() == TaskState.ZOMBIE || p.state() == TaskState.DEAD) {
      return false;
    }
    host.setRunning(p);
    if (e(p).queued) {
      return false;
    }
    enqueue(p, placement(p));
    preemptIfBetter(p);
    return true;
  }

  private int placement(TaskView p) {
    return p.mayRunOn(p.cpu()) ? p.cpu() : Long.numberOfTrailingZeros(p.cpusAllowed());
  }

  private void preemptIfBetter(TaskView p) {
    TaskView cur = host.current(p.cpu());
    if (rank(p) > rank(cur)) {
      host.reschedule(p.cpu());
    }
  }

  private void enqueue(TaskView p, int cpu) {
    host.setCpu(p, cpu);
    queues.get(cpu).add(p);
    e(p).queued = true;
  }

  private void dequeue(TaskView p) {
    queues.get(p.cpu()).remove(p);
    e(p).queued = false;
  }

  @Override
  public void deactivate(TaskView prev, int cpu) {
    dequeue(prev);
  }

  @Override
  public TaskView pickNext(int cpu, TaskView prev) {
    TaskView best = host.idle(cpu);
    for (TaskView t : queues.get(cpu)) {
      if (rank(t) > rank(best)) {
        best = t;
      }
    }
    return best;
  }

  @Override
  public long scheduleCostNs(int cpu) {
    return host.costs().l2HitNs() * 10;
  }

  @Override
  public long wakeUpCostNs() {
    return host.costs().l2HitNs() * 10;
  }

  @Override
  public void tick(int cpu, boolean userTick) {
    TaskView cur = host.current(cpu);
    if (cur.isIdle() || cur.policy() == SchedPolicy.FIFO) {
      return;
    }
    Entity en = e(cur);
    if (--en.sliceLeft <= 0) {
      en.sliceLeft = SLICE_TICKS;
      if (en.queued) {
        dequeue(cur);
        enqueue(cur, cpu);
      }
      host.setNeedResched(cur, true);
    }
  }

  @Override
  public boolean yield(TaskView current, int cpu) {
    dequeue(current);
    enqueue(current, cpu);
    return true;
  }

  @Override
  public void setNice(TaskView p, int nice) {}

  @Override
  public void setScheduler(TaskView p, SchedPolicy policy, int rtPriority) {
    if (e(p).queued) {
      dequeue(p);
      enqueue(p, p.cpu());
    }
  }

  /** The loan counts in the rank from the next pick on; nothing is requeued. */
  @Override
  public void setInheritedPriority(TaskView p, int rtPriority) {
    host.setInheritedPriority(p, rtPriority);
  }

  @Override
  public boolean setCpusAllowed(TaskView p, long mask) {
    host.setCpusAllowed(p, mask);
    if (p.mayRunOn(p.cpu())) {
      return false;
    }
    boolean current = host.current(p.cpu()) == p;
    if (e(p).queued && !current) {
      dequeue(p);
      enqueue(p, placement(p));
    }
    return current;
  }

  @Override
  public void reap(TaskView reaper, TaskView child) {}

  @Override
  public int nrRunning(int cpu) {
    return queues.get(cpu).size();
  }

  @Override
  public List<TaskView> queuedTasks() {
    List<TaskView> all = new ArrayList<>();
    queues.forEach(all::addAll);
    return all;
  }

  @Override
  public void checkInvariants() {
    for (int c = 0; c < queues.size(); c++) {
      for (TaskView t : queues.get(c)) {
        if (t.cpu() != c || !e(t).queued) {
          throw new IllegalStateException(t + " on queue " + c + " but cpu=" + t.cpu());
        }
      }
    }
  }
}
