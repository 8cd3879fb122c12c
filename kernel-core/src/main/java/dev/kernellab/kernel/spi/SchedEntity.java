package dev.kernellab.kernel.spi;

/**
 * A scheduler's private per-task fields ({@code counter} for 2.4; {@code prio},
 * {@code sleep_avg}, {@code time_slice}, {@code array} for O(1)).
 *
 * <p>In C these fields live in {@code task_struct} itself; here each scheduler subclasses this
 * class and hangs one instance on every task ({@link TaskView#schedEntity()}), so kernel-core knows
 * no concrete scheduler's fields.
 */
public abstract class SchedEntity {

  private final TaskView task;

  /** Creates the fields of {@code task}. */
  protected SchedEntity(TaskView task) {
    this.task = task;
  }

  /** The task these fields belong to. */
  public final TaskView task() {
    return task;
  }
}
