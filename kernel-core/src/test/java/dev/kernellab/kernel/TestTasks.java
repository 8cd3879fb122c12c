package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import java.util.SplittableRandom;

/**
 * Creates tasks outside a running kernel, for scheduler tests at the seam. Published in
 * kernel-core's test-jar.
 */
public final class TestTasks {

  private TestTasks() {}

  /** A user task (own mm) with the given policy; allowed on every CPU. */
  public static Task user(int pid, String comm, SchedPolicy policy, int rtPriority, int nice) {
    Task t = new Task(pid, comm, new Mm(pid, 100), false, -1L, new SplittableRandom(pid));
    t.setPolicy(policy, rtPriority);
    t.setNice(nice);
    return t;
  }

  /** A SCHED_OTHER user task of nice 0. */
  public static Task other(int pid) {
    return user(pid, "task" + pid, SchedPolicy.OTHER, 0, 0);
  }

  /** A SCHED_OTHER user task of nice 0 whose {@code processor} is {@code cpu}. */
  public static Task other(int pid, int cpu) {
    Task t = other(pid);
    t.setCpu(cpu);
    return t;
  }

  /** The idle task of {@code cpu}. */
  public static Task idle(int cpu) {
    Task t = new Task(0, "swapper/" + cpu, null, true, 1L << cpu, new SplittableRandom(-cpu));
    t.setCpu(cpu);
    return t;
  }

  /** Attaches the scheduler's fields to {@code t} (what the kernel does at task creation). */
  public static void attachEntity(Scheduler s, Task t) {
    t.setSchedEntity(s.createEntity(t));
  }

  /** Sets the preempt count, for tests of code that reads it. */
  public static void setPreemptCount(Task t, int count) {
    t.preemptCount = count;
  }
}
