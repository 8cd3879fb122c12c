package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.List;

/**
 * The half of every {@link SchedulerHost} that writes {@code task_struct}: the fields a
 * scheduler owns, written on the kernel's own task behind the view the scheduler holds. The two
 * hosts (a kernel's and the standalone test driver) extend it, and nothing else can: the
 * constructor is package-private.
 */
abstract class TaskWritingHost implements SchedulerHost {

  TaskWritingHost() {}

  @Override
  public abstract Task current(int cpu);

  @Override
  public abstract Task idle(int cpu);

  @Override
  public abstract List<Task> allTasks();

  @Override
  public final void setNeedResched(TaskView t, boolean v) {
    Task.own(t).setNeedResched(v);
  }

  @Override
  public final void setCpu(TaskView t, int cpu) {
    Task.own(t).setCpu(cpu);
  }

  @Override
  public final void setRunning(TaskView t) {
    Task.own(t).setState(TaskState.RUNNING);
  }

  @Override
  public final void setNice(TaskView t, int nice) {
    Task.own(t).setNice(nice);
  }

  @Override
  public final void setPolicy(TaskView t, SchedPolicy policy, int rtPriority) {
    Task.own(t).setPolicy(policy, rtPriority);
  }

  @Override
  public final void setInheritedPriority(TaskView t, int rtPriority) {
    Task.own(t).setInheritedPriority(rtPriority);
  }

  @Override
  public final void setCpusAllowed(TaskView t, long mask) {
    Task.own(t).setCpusAllowed(mask);
  }
}
