package dev.kernellab.kernel;

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
  private final List<List<Task>> queues = new ArrayList<>();

  private static final class Entity extends SchedEntity {
    int sliceLeft = SLICE_TICKS;
    boolean queued;

    Entity(Task t) {
      super(t);
    }
  }

  private static Entity e(Task t) {
    return (Entity) t.schedEntity();
  }

  private static int rank(Task t) {
    if (t.isIdle()) {
      return -1;
    }
    return t.policy().isRealTime() ? 100 + t.rtPriority() : 0;
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
  public SchedEntity createEntity(Task t) {
    return new Entity(t);
  }

  @Override
  public void initIdle(Task idle, int cpu) {}

  @Override
  public void fork(Task parent, Task child) {}

  @Override
  public void wakeUpNewTask(Task child, Task parent) {
    child.setState(TaskState.RUNNING);
    enqueue(child, placement(child));
    preemptIfBetter(child);
  }

  @Override
  public boolean tryToWakeUp(Task p, boolean sync) {
    if (p.state() == TaskState.RUNNING || p.state() == TaskState.ZOMBIE || p.state() == TaskState.DEAD) {
      return false;
    }
    p.setState(TaskState.RUNNING);
    if (e(p).queued) {
      return false;
    }
    enqueue(p, placement(p));
    preemptIfBetter(p);
    return true;
  }

  private int placement(Task p) {
    return p.mayRunOn(p.cpu()) ? p.cpu() : Long.numberOfTrailingZeros(p.cpusAllowed());
  }

  private void preemptIfBetter(Task p) {
    Task cur = host.current(p.cpu());
    if (rank(p) > rank(cur)) {
      host.reschedule(p.cpu());
    }
  }

  private void enqueue(Task p, int cpu) {
    p.setCpu(cpu);
    queues.get(cpu).add(p);
    e(p).queued = true;
  }

  private void dequeue(Task p) {
    queues.get(p.cpu()).remove(p);
    e(p).queued = false;
  }

  @Override
  public void deactivate(Task prev, int cpu) {
    dequeue(prev);
  }

  @Override
  public Task pickNext(int cpu, Task prev) {
    Task best = host.idle(cpu);
    for (Task t : queues.get(cpu)) {
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
    Task cur = host.current(cpu);
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
      cur.setNeedResched(true);
    }
  }

  @Override
  public boolean yield(Task current, int cpu) {
    dequeue(current);
    enqueue(current, cpu);
    return true;
  }

  @Override
  public void setNice(Task p, int nice) {}

  @Override
  public void setScheduler(Task p, SchedPolicy policy, int rtPriority) {
    if (e(p).queued) {
      dequeue(p);
      enqueue(p, p.cpu());
    }
  }

  @Override
  public boolean setCpusAllowed(Task p, long mask) {
    p.setCpusAllowed(mask);
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
  public void reap(Task reaper, Task child) {}

  @Override
  public int nrRunning(int cpu) {
    return queues.get(cpu).size();
  }

  @Override
  public List<Task> queuedTasks() {
    List<Task> all = new ArrayList<>();
    queues.forEach(all::addAll);
    return all;
  }

  @Override
  public void checkInvariants() {
    for (int c = 0; c < queues.size(); c++) {
      for (Task t : queues.get(c)) {
        if (t.cpu() != c || !e(t).queued) {
          throw new IllegalStateException(t + " on queue " + c + " but cpu=" + t.cpu());
        }
      }
    }
  }
}
