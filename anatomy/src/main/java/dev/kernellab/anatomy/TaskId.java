package dev.kernellab.anatomy;

import dev.kernellab.kernel.spi.TaskView;
import java.util.Objects;

/**
 * A task as it was when a sample was explained: its name and pid, kept apart from the live
 * {@link TaskView}, which goes on changing (and may exit) after the sample.
 *
 * @param comm the task's name
 * @param pid its pid
 */
public record TaskId(String comm, int pid) {

  /** Checks the name. */
  public TaskId {
    Objects.requireNonNull(comm, "comm");
  }

  /** {@code task}'s name and pid now. */
  public static TaskId of(TaskView task) {
    return new TaskId(task.comm(), task.pid());
  }

  /** {@code comm[pid]}, as the kernel's own traces write a task. */
  @Override
  public String toString() {
    return comm + "[" + pid + "]";
  }
}
