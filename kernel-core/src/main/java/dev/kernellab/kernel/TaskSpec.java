package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskSpecView;
import java.util.Objects;

/**
 * A task to start at boot: its name, program and scheduling parameters.
 *
 * <pre>{@code
 * TaskSpec probe = TaskSpec.user("realfeel", REALFEEL).fifo(99);
 * TaskSpec hog = TaskSpec.user("hog", HOG).nice(5).onCpu(1);
 * TaskSpec kupdated = TaskSpec.kernelThread("kupdated", KUPDATE_LOOP);
 * }</pre>
 *
 * @param comm the command name
 * @param program a user program or, for kernel threads, a kernel path
 * @param policy scheduling policy
 * @param rtPriority 1..99 for real-time, 0 otherwise
 * @param nice -20..19
 * @param cpu the CPU whose runqueue it starts on
 * @param cpusAllowed affinity mask
 * @param residentPages size of its address space (user tasks), for paths that scale with it;
 *     0, the default, leaves it unsaid, and such paths use their catalog's default process
 */
public record TaskSpec(
    String comm,
    KernelPath program,
    SchedPolicy policy,
    int rtPriority,
    int nice,
    int cpu,
    long cpusAllowed,
    long residentPages) implements TaskSpecView {

  /** Validates. */
  public TaskSpec {
    if (residentPages < 0) {
      throw new IllegalArgumentException(comm + ": resident pages must be >= 0, got " + residentPages);
    }
    Objects.requireNonNull(comm, "comm");
    if (comm.isBlank() || comm.chars().anyMatch(ch -> Character.isISOControl(ch) || Character.isWhitespace(ch))) {
      // a task's name is one word in every trace line (ftrace's comm-pid column)
      throw new IllegalArgumentException("a task's name is one word without blanks or control characters, got \""
          + comm.replace("\n", "\\n") + "\"");
    }
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(policy, "policy");
    if (policy.isRealTime() ? rtPriority < 1 || rtPriority > 99 : rtPriority != 0) {
      throw new IllegalArgumentException(
          comm + ": rt_priority must be 1..99 for SCHED_FIFO/RR and 0 for SCHED_OTHER, got "
              + rtPriority);
    }
    if (nice < Task.MIN_NICE || nice > Task.MAX_NICE) {
      throw new IllegalArgumentException(comm + ": nice must be -20..19, got " + nice);
    }
    if (cpusAllowed == 0) {
      throw new IllegalArgumentException(comm + ": empty cpus_allowed");
    }
  }

  /** A SCHED_OTHER user task, nice 0, on CPU 0. */
  public static TaskSpec user(String comm, KernelPath program) {
    Objects.requireNonNull(program, "program");
    if (!program.isUser()) {
      throw new IllegalArgumentException(comm + ": a user task needs a user program");
    }
    return new TaskSpec(comm, program, SchedPolicy.OTHER, 0, 0, 0, -1L, 0);
  }

  /** A kernel thread (no mm), nice 0, on CPU 0. */
  public static TaskSpec kernelThread(String comm, KernelPath program) {
    Objects.requireNonNull(program, "program");
    if (program.isUser()) {
      throw new IllegalArgumentException(comm + ": a kernel thread runs a kernel path");
    }
    return new TaskSpec(comm, program, SchedPolicy.OTHER, 0, 0, 0, -1L, 0);
  }

  /** {@link #cpu()} if {@code allowed} permits it, else the lowest allowed CPU. */
  int mayRunOnOrFirst(long allowed) {
    return (allowed & (1L << cpu)) != 0 ? cpu : Long.numberOfTrailingZeros(allowed);
  }

  /** True if the program runs in user mode (a process with an mm). */
  @Override
  public boolean isUser() {
    return program.isUser();
  }

  /** The same task as SCHED_FIFO at {@code prio}. */
  public TaskSpec fifo(int prio) {
    return new TaskSpec(comm, program, SchedPolicy.FIFO, prio, nice, cpu, cpusAllowed, residentPages);
  }

  /** The same task as SCHED_RR at {@code prio}. */
  public TaskSpec rr(int prio) {
    return new TaskSpec(comm, program, SchedPolicy.RR, prio, nice, cpu, cpusAllowed, residentPages);
  }

  /** The same task at nice {@code n}. */
  public TaskSpec nice(int n) {
    return new TaskSpec(comm, program, policy, rtPriority, n, cpu, cpusAllowed, residentPages);
  }

  /** The same task starting on {@code c}. */
  public TaskSpec onCpu(int c) {
    return new TaskSpec(comm, program, policy, rtPriority, nice, c, cpusAllowed, residentPages);
  }

  /** The same task with affinity {@code mask}. */
  public TaskSpec allowedOn(long mask) {
    return new TaskSpec(comm, program, policy, rtPriority, nice, cpu, mask, residentPages);
  }

  /** The same task with an address space of {@code pages} pages. */
  public TaskSpec residentPages(long pages) {
    return new TaskSpec(comm, program, policy, rtPriority, nice, cpu, cpusAllowed, pages);
  }
}
