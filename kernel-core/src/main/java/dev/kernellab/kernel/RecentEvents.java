package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.Locale;

/**
 * The last few dozen kernel events of a run, kept while debug checks are on so that a
 * {@link KernelBug} can print what led up to it, as an oops printed with the tail of an ftrace
 * ring buffer ({@code ftrace_dump_on_oops}) would.
 */
final class RecentEvents implements Tracer {

  /*
   * Implementation overview
   *
   * A fixed ring of parallel arrays, written at next % SIZE, so that recording allocates
   * nothing: each slot keeps the time, the CPU, the kind and up to two long-lived references
   * (task, path, lock) and one number. Text is made only when a bug report asks for it.
   */

  /** How many events a report shows. */
  static final int SIZE = 48;

  private enum Kind {
    SWITCH, WAKEUP, IRQ_ENTRY, IRQ_EXIT, SOFTIRQ_ENTRY, SOFTIRQ_EXIT, PREEMPT_OFF, PREEMPT_ON,
    IRQS_OFF, IRQS_ON, LOCK_ACQUIRE, LOCK_CONTEND, LOCK_RELEASE, PATH_ENTER, PATH_EXIT
  }

  private final long[] time = new long[SIZE];
  private final int[] cpu = new int[SIZE];
  private final Kind[] kind = new Kind[SIZE];
  private final Object[] a = new Object[SIZE];
  private final Object[] b = new Object[SIZE];
  private final long[] arg = new long[SIZE];
  private long next; // events recorded so far; the newest is at (next - 1) % SIZE

  private void record(long now, int c, Kind k, Object first, Object second, long n) {
    int i = (int) (next++ % SIZE);
    time[i] = now;
    cpu[i] = c;
    kind[i] = k;
    a[i] = first;
    b[i] = second;
    arg[i] = n;
  }

  @Override
  public void schedSwitch(long now, int c, TaskView prev, TaskView next) {
    record(now, c, Kind.SWITCH, prev, next, prev.state().ordinal());
  }

  @Override
  public void schedWakeup(long now, int c, TaskView task) {
    record(now, c, Kind.WAKEUP, task, null, task.cpu());
  }

  @Override
  public void irqEntry(long now, int c, int vector) {
    record(now, c, Kind.IRQ_ENTRY, null, null, vector);
  }

  @Override
  public void irqExit(long now, int c, int vector) {
    record(now, c, Kind.IRQ_EXIT, null, null, vector);
  }

  @Override
  public void softirqEntry(long now, int c, int pending) {
    record(now, c, Kind.SOFTIRQ_ENTRY, null, null, pending);
  }

  @Override
  public void softirqExit(long now, int c) {
    record(now, c, Kind.SOFTIRQ_EXIT, null, null, 0);
  }

  @Override
  public void preemptOff(long now, int c, PathView path) {
    record(now, c, Kind.PREEMPT_OFF, path, null, 0);
  }

  @Override
  public void preemptOn(long now, int c, PathView path, long lengthNs) {
    record(now, c, Kind.PREEMPT_ON, path, null, lengthNs);
  }

  @Override
  public void irqsOff(long now, int c, PathView path) {
    record(now, c, Kind.IRQS_OFF, path, null, 0);
  }

  @Override
  public void irqsOn(long now, int c, PathView path, long lengthNs) {
    record(now, c, Kind.IRQS_ON, path, null, lengthNs);
  }

  @Override
  public void lockAcquire(long now, int c, LockView lock, PathView path, long spunNs) {
    record(now, c, Kind.LOCK_ACQUIRE, lock, path, spunNs);
  }

  @Override
  public void lockContend(long now, int c, LockView lock, PathView path) {
    record(now, c, Kind.LOCK_CONTEND, lock, path, 0);
  }

  @Override
  public void lockRelease(long now, int c, LockView lock, PathView path, long heldNs) {
    record(now, c, Kind.LOCK_RELEASE, lock, path, heldNs);
  }

  @Override
  public void pathEnter(long now, int c, PathView path) {
    record(now, c, Kind.PATH_ENTER, path, null, 0);
  }

  @Override
  public void pathExit(long now, int c, PathView path) {
    record(now, c, Kind.PATH_EXIT, path, null, 0);
  }

  /** The recorded events, oldest first, one line each, indented by {@code indent}. */
  void appendTo(StringBuilder sb, String indent) {
    long first = Math.max(0, next - SIZE);
    for (long n = first; n < next; n++) {
      int i = (int) (n % SIZE);
      sb.append(indent)
          .append(String.format(Locale.ROOT, "%15d cpu%d  ", time[i], cpu[i]))
          .append(describe(i))
          .append('\n');
    }
  }

  private String describe(int i) {
    return switch (kind[i]) {
      case SWITCH -> "sched_switch " + a[i] + " [" + TaskState.values()[(int) arg[i]] + "] -> " + b[i];
      case WAKEUP -> "sched_wakeup " + a[i] + " (last ran on cpu" + arg[i] + ")";
      case IRQ_ENTRY -> "irq_entry vector 0x" + Long.toHexString(arg[i]);
      case IRQ_EXIT -> "irq_exit vector 0x" + Long.toHexString(arg[i]);
      case SOFTIRQ_ENTRY -> "softirq_entry pending 0x" + Long.toHexString(arg[i]);
      case SOFTIRQ_EXIT -> "softirq_exit";
      case PREEMPT_OFF -> "preempt_off in " + a[i];
      case PREEMPT_ON -> "preempt_on in " + a[i] + " after " + arg[i] + " ns";
      case IRQS_OFF -> "irqs_off in " + a[i];
      case IRQS_ON -> "irqs_on in " + a[i] + " after " + arg[i] + " ns";
      case LOCK_ACQUIRE -> "lock_acquire " + a[i] + " in " + b[i] + (arg[i] > 0 ? " after spinning " + arg[i] + " ns" : "");
      case LOCK_CONTEND -> "lock_contended " + a[i] + " in " + b[i];
      case LOCK_RELEASE -> "lock_release " + a[i] + " in " + b[i] + " held " + arg[i] + " ns";
      case PATH_ENTER -> "enter " + a[i];
      case PATH_EXIT -> "exit " + a[i];
    };
  }
}
