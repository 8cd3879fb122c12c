package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;
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
  public SchedEntity createEntity(TaskView t) {
    return d.createEntity(t);
  }

  @Override
  public void initIdle(TaskView idle, int cpu) {
    d.initIdle(idle, cpu);
  }

  @Override
  public void fork(TaskView parent, TaskView child) {
    d.fork(parent, child);
  }

  @Override
  public void wakeUpNewTask(TaskView child, TaskView parent) {
    d.wakeUpNewTask(child, parent);
  }

  @Override
  public boolean tryToWakeUp(TaskView p, boolean sync) {
    return d.tryToWakeUp(p, sync);
  }

  @Override
  public void deactivate(TaskView prev, int cpu) {
    d.deactivate(prev, cpu);
  }

  @Override
  public TaskView pickNext(int cpu, TaskView prev) {
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
  public boolean yield(TaskView current, int cpu) {
    return d.yield(current, cpu);
  }

  @Override
  public void setNice(TaskView p, int nice) {
    d.setNice(p, nice);
  }

  @Override
  public void setScheduler(TaskView p, SchedPolicy policy, int rtPriority) {
    d.setScheduler(p, policy, rtPriority);
  }

  @Override
  public void setInheritedPriority(TaskView p, int rtPriority) {
    d.setInheritedPriority(p, rtPriority);
  }

  @Override
  public boolean setCpusAllowed(TaskView p, long mask) {
    return d.setCpusAllowed(p, mask);
  }

  @Override
  public void reap(TaskView reaper, TaskView child) {
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
  public List<TaskView> queuedTasks() {
    return d.queuedTasks();
  }

  @Override
  public void checkInvariants() {
    d.checkInvariants();
  }
}
