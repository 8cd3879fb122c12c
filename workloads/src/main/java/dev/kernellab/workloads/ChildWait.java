package dev.kernellab.workloads;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.WaitQueue;

/**
 * A parent that forks children and waits for them, as make and the stress harness do:
 * {@code wait4} sleeps in TASK_INTERRUPTIBLE on the parent's {@code wait_chldexit} until a child
 * exits (kernel/exit.c {@code sys_wait4}, {@code do_notify_parent}, 2.4.17). The model counts a
 * parent's running children and wakes it from the child's exit path.
 */
final class ChildWait {

  private final WaitQueue chldexit;
  private int running;

  /** The count kept for one parent, named for traces. */
  ChildWait(String parent) {
    this.chldexit = new WaitQueue("wait_chldexit(" + parent + ")");
  }

  /** The parent's side just before the fork: one more child running. */
  KernelPath forked() {
    return KernelPath.path("kernel/fork.c", "do_fork: nr_running child")
        .effect("one more child", c -> running++)
        .build();
  }

  /** The child's side, last before sys_exit: {@code do_notify_parent()} wakes the parent. */
  @Models(file = "kernel/signal.c", function = "do_notify_parent", version = "2.4.17")
  KernelPath exiting() {
    return KernelPath.path("kernel/exit.c", "do_notify_parent")
        .effect("a child less", c -> running--)
        .wakeUp(chldexit)
        .build();
  }

  /** {@code wait4()} until at most {@code limit} children still run. */
  @Models(file = "kernel/exit.c", function = "sys_wait4", version = "2.4.17")
  KernelPath waitUntilAtMost(int limit) {
    return KernelPath.path("kernel/exit.c", "sys_wait4")
        .waitEvent(chldexit, () -> running <= limit)
        .build();
  }

  /** Children running now. */
  int running() {
    return running;
  }
}
