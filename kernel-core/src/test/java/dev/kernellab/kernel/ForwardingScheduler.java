package dev.kernellab.kernel;

import java.util.List;

/** Delegates every call; tests override single methods. Published in the test-jar. */
public class ForwardingScheduler implements Scheduler {

  private final Scheduler d;

  /** Forwards to {@code delegate}. */
  public ForwardingScheduler(Scheduler delegate) {
    this.d = delegate;
  }

  @Override
  public String name() {
    return d.name();
  }

  @Override
  public boolean supportsCpuCount(int cpus) {
    return d.supportsCpuCount(cpus);
  }

  @Override
  public void attach(SchedulerHost host) {
    d.attach(host);
  }

  @Override
  public SchedEntity createEntity(Task t) {
    return d.createEntity(t);
  }

  @Override
  public void initIdle(Task idle, int cpu) {
    d.initIdle(idle, cpu);
  }

  @Override
  public void fork(Task parent, Task child) {
    d.fork(parent, child);
  }

  @Override
  public void wakeUpNewTask(Task child, Task parent) {
    d.wakeUpNewTask(child, parent);
  }

  @Override
  public boolean tryToWakeUp(Task p, boolean sync) {
    return d.tryToWakeUp(p, sync);
  }

  @Override
  public void deactivate(Task prev, int cpu) {
    d.deactivate(prev, cpu);
  }

  @Override
  public Task pickNext(int cpu, Task prev) {
    return d.pickNext(cpu, prev);
  }

  @Override
  public long scheduleCostNs(int cpu) {
    return d.scheduleCostNs(cpu);
  }

  @Override
  public long unlockedScheduleCostNs(int cpu) {
    return d.unlockedScheduleCostNs(cpu);
  }

  @Override
  public boolean clearsNeedReschedBeforeSelection() {
    return d.clearsNeedReschedBeforeSelection();
  }

  @Override
  public boolean switchesUnderRunqueueLock() {
    return d.switchesUnderRunqueueLock();
  }

  @Override
  public long wakeUpCostNs() {
    return d.wakeUpCostNs();
  }

  @Override
  public void tick(int cpu, boolean userTick) {
    d.tick(cpu, userTick);
  }

  @Override
  public boolean yield(Task current, int cpu) {
    return d.yield(current, cpu);
  }

  @Override
  public void setNice(Task p, int nice) {
    d.setNice(p, nice);
  }

  @Override
  public void setScheduler(Task p, SchedPolicy policy, int rtPriority) {
    d.setScheduler(p, policy, rtPriority);
  }

  @Override
  public boolean setCpusAllowed(Task p, long mask) {
    return d.setCpusAllowed(p, mask);
  }

  @Override
  public void reap(Task reaper, Task child) {
    d.reap(reaper, child);
  }

  @Override
  public void loadBalance(int cpu, boolean idle) {
    d.loadBalance(cpu, idle);
  }

  @Override
  public int nrRunning(int cpu) {
    return d.nrRunning(cpu);
  }

  @Override
  public List<Task> queuedTasks() {
    return d.queuedTasks();
  }

  @Override
  public void checkInvariants() {
    d.checkInvariants();
  }
}
