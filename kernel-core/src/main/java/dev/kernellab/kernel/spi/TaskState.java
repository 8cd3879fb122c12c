package dev.kernellab.kernel.spi;

/**
 * The states of {@code task_struct->state}, include/linux/sched.h (2.4.17).
 */
public enum TaskState {
  /** TASK_RUNNING: runnable or running; on a runqueue. */
  RUNNING,
  /** TASK_INTERRUPTIBLE: asleep, a signal or a wake-up ends the sleep. */
  INTERRUPTIBLE,
  /** TASK_UNINTERRUPTIBLE: asleep, only a wake-up ends the sleep (disk I/O). */
  UNINTERRUPTIBLE,
  /** TASK_STOPPED. */
  STOPPED,
  /** TASK_ZOMBIE: exited, waiting to be reaped. */
  ZOMBIE,
  /** TASK_DEAD (this model): reaped; the task is gone. */
  DEAD;

  /** True for the two sleeping states. */
  public boolean isSleeping() {
    return this == INTERRUPTIBLE || this == UNINTERRUPTIBLE;
  }
}
