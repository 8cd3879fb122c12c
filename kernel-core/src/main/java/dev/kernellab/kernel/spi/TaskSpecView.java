package dev.kernellab.kernel.spi;

/**
 * What the service-provider interface shows of a task to be started at boot, the kernel's
 * {@code TaskSpec}: a patch builds one with the path language and hands it to
 * {@link Patching#task}. Only {@code TaskSpec} implements it.
 */
public interface TaskSpecView {

  /** The task's name, as {@code ps} shows it. */
  String comm();

  /** The program it runs. */
  PathView program();

  /** Its scheduling policy. */
  SchedPolicy policy();

  /** True for a user process, false for a kernel thread. */
  boolean isUser();
}
