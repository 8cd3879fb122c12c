package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import java.util.ArrayList;
import java.util.List;

/**
 * A wait queue ({@code wait_queue_head_t}): tasks sleep on it until a waker calls
 * {@code wake_up}.
 *
 * <p>Models include/linux/wait.h and kernel/sched.c {@code __wake_up_common} (2.4.17):
 * waiters are woken in queue order; exclusive waiters (added with
 * {@code add_wait_queue_exclusive}) sit at the tail and a wake-up stops after
 * {@code nr_exclusive} of them.
 */
@Models(file = "include/linux/wait.h", function = "wait_queue_head_t", version = "2.4.17")
public final class WaitQueue {

  private final String name;
  // Sleepers in queue order, each once. An ArrayList of a few entries: wake-ups are rare next
  // to compute segments, and the list keeps its capacity across sleeps.
  private final List<Task> waiters = new ArrayList<>(4);
  private final List<Boolean> exclusive = new ArrayList<>(4);
  // The kernel whose tasks sleep here while any do: a queue with another kernel's sleepers
  // would have one kernel wake the other's tasks.
  private Kernel kernel;

  /** Creates an empty queue. */
  public WaitQueue(String name) {
    java.util.Objects.requireNonNull(name, "a wait queue's name");
    this.name = name;
  }

  /** The queue's name, for traces. */
  public String name() {
    return name;
  }

  /** Number of tasks waiting. */
  public int size() {
    return waiters.size();
  }

  /** True if {@code t} is on this queue. */
  public boolean contains(Task t) {
    return waiters.contains(t);
  }

  /**
   * Refuses {@code k} while another kernel's tasks sleep here; an empty queue passes to
   * {@code k} (a test's paths built once and run on several kernels in turn).
   */
  void checkKernel(Kernel k, KernelCpu c) {
    if (kernel != k) {
      if (kernel != null && !waiters.isEmpty()) {
        throw k.bug(c, "wait queue of another kernel", "wait queue " + name
            + " belongs to another kernel, whose tasks sleep on it: give each kernel its own");
      }
      kernel = k;
    }
  }

  @Models(file = "kernel/fork.c", function = "add_wait_queue", version = "2.4.17")
  @Models(file = "kernel/fork.c", function = "add_wait_queue_exclusive", version = "2.4.17")
  void add(Task t, boolean isExclusive) {
    if (waiters.contains(t)) {
      return;
    }
    if (isExclusive) {
      waiters.add(t);
      exclusive.add(Boolean.TRUE);
    } else {
      int firstExclusive = exclusive.indexOf(Boolean.TRUE);
      int at = firstExclusive < 0 ? waiters.size() : firstExclusive;
      waiters.add(at, t);
      exclusive.add(at, Boolean.FALSE);
    }
  }

  @Models(file = "kernel/fork.c", function = "remove_wait_queue", version = "2.4.17")
  void remove(Task t) {
    int i = waiters.indexOf(t);
    if (i >= 0) {
      waiters.remove(i);
      exclusive.remove(i);
    }
  }

  int waiterCount() {
    return waiters.size();
  }

  Task waiter(int i) {
    return waiters.get(i);
  }

  boolean isExclusive(int i) {
    return exclusive.get(i);
  }

  @Override
  public String toString() {
    return name;
  }
}
