package dev.kernellab.lab;

import dev.kernellab.hw.Vectors;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.PreemptCount;
import dev.kernellab.kernel.Softirq;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TraceInterest;
import dev.kernellab.kernel.Tracer;
import java.util.Locale;

/**
 * Writes the kernel's events between two instants in ftrace's text format: the {@code trace}
 * file's header and its latency-format columns (irqs-off, need-resched, hardirq/softirq,
 * preempt-depth), and the events sched_switch, sched_wakeup, irq_handler_entry/exit,
 * softirq_entry/exit, irq_disable/enable, preempt_disable/enable and lock_acquire/release/
 * contended with the fields ftrace gives them (kernel/trace in 2.6 and later: the model's
 * 2002 kernels had no ftrace; the format is what today's tools read).
 *
 * <p>Also writes Chrome's trace-event JSON when asked: one track per CPU, the running task as
 * a slice, interrupts nested in it, wake-ups as instants.
 */
final class FtraceWriter implements Tracer {

  private final long fromNs;
  private final long toNs;
  private final StringBuilder text = new StringBuilder(1 << 16);
  private final StringBuilder chrome = new StringBuilder(1 << 16);
  private final boolean withChrome;
  private Kernel kernel;
  private long entries;
  private String[] running = new String[0]; // chrome: the task slice open on each CPU

  FtraceWriter(long fromNs, long toNs, boolean withChrome) {
    this.fromNs = fromNs;
    this.toNs = toNs;
    this.withChrome = withChrome;
  }

  /** Writes no path's entry or exit (ftrace's function tracer is not modelled): those need not be built. */
  @Override
  public void interest(TraceInterest mine) {
    mine.dropEverywhere(TraceInterest.Detail.PATHS);
    mine.dropEverywhere(TraceInterest.Detail.LOOP_EXITS_IRQS_OFF);
  }

  @Override
  public void boot(Kernel k) {
    this.kernel = k;
    running = new String[k.cpuCount()];
  }

  private boolean in(long now) {
    return kernel != null && now >= fromNs && now <= toNs;
  }

  private void line(long now, int cpu, String event, String fields) {
    KernelCpu c = kernel.cpu(cpu);
    Task t = c.current();
    char irqsOff = c.interruptsEnabled() ? '.' : 'd';
    char resched = t.needResched() ? 'N' : '.';
    int count = t.preemptCount();
    char ctx = PreemptCount.inIrq(count) ? (PreemptCount.inSoftirq(count) ? 'H' : 'h')
        : PreemptCount.inSoftirq(count) ? 's' : '.';
    int depth = PreemptCount.preemptDepth(count);
    char pd = depth == 0 ? '.' : depth < 16 ? Character.forDigit(depth, 16) : 'f';
    String task = (t.isIdle() ? "<idle>" : t.comm()) + "-" + t.pid();
    text.append(String.format(Locale.ROOT, "%16s [%03d] %c%c%c%c %6d.%06d: %s: %s%n", task, cpu,
        irqsOff, resched, ctx, pd, now / 1_000_000_000L, now / 1_000 % 1_000_000, event, fields));
    entries++;
  }

  private void chromeEvent(String ph, String name, long now, int cpu) {
    if (!withChrome) {
      return;
    }
    if (chrome.length() > 0) {
      chrome.append(",\n");
    }
    chrome.append(String.format(Locale.ROOT, "{\"name\":\"%s\",\"ph\":\"%s\",\"ts\":%.3f,\"pid\":0,\"tid\":%d%s}",
        name.replace("\"", "'"), ph, now / 1e3, cpu, ph.equals("i") ? ",\"s\":\"t\"" : ""));
  }

  private static int prio(Task t) {
    return t.policy().isRealTime() ? 99 - t.rtPriority() : 120 + t.nice();
  }

  private static String state(Task t) {
    return switch (t.state()) {
      case RUNNING -> "R";
      case INTERRUPTIBLE -> "S";
      case UNINTERRUPTIBLE -> "D";
      case STOPPED -> "T";
      case ZOMBIE -> "Z";
      case DEAD -> "X";
    };
  }

  private String irqName(int vector) {
    if (vector == Vectors.RESCHEDULE_VECTOR) {
      return "IPI reschedule";
    }
    if (vector == Vectors.LOCAL_TIMER_VECTOR) {
      return "local timer";
    }
    if (vector == Vectors.CALL_FUNCTION_VECTOR) {
      return "IPI call function";
    }
    int irq = kernel.machine().ioApic().irqOf(vector);
    return switch (irq) {
      case 0 -> "timer";
      case 8 -> "rtc";
      case 14 -> "ide0";
      default -> "irq" + irq;
    };
  }

  private int irqNumber(int vector) {
    return kernel.machine().ioApic().isDeviceVector(vector) ? kernel.machine().ioApic().irqOf(vector) : vector;
  }

  private static String caller(KernelPath p) {
    return p == null ? "?" : p.site() != null ? p.site().key() : p.location();
  }

  @Override
  public void schedSwitch(long now, int cpu, Task prev, Task next) {
    if (!in(now)) {
      return;
    }
    line(now, cpu, "sched_switch", String.format(Locale.ROOT,
        "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
        prev.comm(), prev.pid(), prio(prev), state(prev), next.comm(), next.pid(), prio(next)));
    if (running[cpu] != null) {
      chromeEvent("E", running[cpu], now, cpu);
    }
    running[cpu] = next.comm() + "-" + next.pid();
    chromeEvent("B", running[cpu], now, cpu);
  }

  @Override
  public void schedWakeup(long now, int cpu, Task task) {
    if (in(now)) {
      line(now, cpu, "sched_wakeup", String.format(Locale.ROOT, "comm=%s pid=%d prio=%d target_cpu=%03d",
          task.comm(), task.pid(), prio(task), task.cpu()));
      chromeEvent("i", "wakeup " + task.comm() + "-" + task.pid(), now, cpu);
    }
  }

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    if (in(now)) {
      line(now, cpu, "irq_handler_entry", "irq=" + irqNumber(vector) + " name=" + irqName(vector));
      chromeEvent("B", "irq " + irqName(vector), now, cpu);
    }
  }

  @Override
  public void irqExit(long now, int cpu, int vector) {
    if (in(now)) {
      line(now, cpu, "irq_handler_exit", "irq=" + irqNumber(vector) + " ret=handled");
      chromeEvent("E", "irq " + irqName(vector), now, cpu);
    }
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    if (in(now)) {
      line(now, cpu, "softirq_entry", "vec=" + Integer.numberOfTrailingZeros(pending) + " [action=" + actions(pending) + "]");
      chromeEvent("B", "softirq " + actions(pending), now, cpu);
    }
  }

  @Override
  public void softirqExit(long now, int cpu) {
    if (in(now)) {
      line(now, cpu, "softirq_exit", "");
      chromeEvent("E", "softirq", now, cpu);
    }
  }

  private static String actions(int pending) {
    StringBuilder sb = new StringBuilder();
    for (Softirq s : Softirq.values()) {
      if ((pending & s.bit()) != 0) {
        sb.append(sb.length() == 0 ? "" : "|").append(s.name());
      }
    }
    return sb.toString();
  }

  @Override
  public void irqsOff(long now, int cpu, KernelPath path) {
    if (in(now)) {
      line(now, cpu, "irq_disable", "caller=" + caller(path));
    }
  }

  @Override
  public void irqsOn(long now, int cpu, KernelPath path, long lengthNs) {
    if (in(now)) {
      line(now, cpu, "irq_enable", "caller=" + caller(path) + " off=" + lengthNs / 1_000 + "us");
    }
  }

  @Override
  public void preemptOff(long now, int cpu, KernelPath path) {
    if (in(now)) {
      line(now, cpu, "preempt_disable", "caller=" + caller(path));
    }
  }

  @Override
  public void preemptOn(long now, int cpu, KernelPath path, long lengthNs) {
    if (in(now)) {
      line(now, cpu, "preempt_enable", "caller=" + caller(path) + " off=" + lengthNs / 1_000 + "us");
    }
  }

  @Override
  public void lockAcquire(long now, int cpu, SpinLock lock, KernelPath path, long spunNs) {
    if (in(now)) {
      line(now, cpu, "lock_acquire", lock.name() + " caller=" + caller(path)
          + (spunNs > 0 ? " spun=" + spunNs / 1_000 + "us" : ""));
    }
  }

  @Override
  public void lockContend(long now, int cpu, SpinLock lock, KernelPath path) {
    if (in(now)) {
      line(now, cpu, "lock_contended", lock.name() + " caller=" + caller(path));
    }
  }

  @Override
  public void lockRelease(long now, int cpu, SpinLock lock, KernelPath path, long heldNs) {
    if (in(now)) {
      line(now, cpu, "lock_release", lock.name() + " caller=" + caller(path) + " held=" + heldNs / 1_000 + "us");
    }
  }

  /** The ftrace text: header and events. */
  String text() {
    int cpus = kernel == null ? 1 : kernel.cpuCount();
    String header = String.format(Locale.ROOT, "# tracer: nop%n#%n# entries-in-buffer/entries-written: %d/%d   #P:%d%n#%n"
        + "#                                _-----=> irqs-off%n"
        + "#                               / _----=> need-resched%n"
        + "#                              | / _---=> hardirq/softirq%n"
        + "#                              || / _--=> preempt-depth%n"
        + "#                              ||| /     delay%n"
        + "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION%n"
        + "#              | |         |   ||||      |         |%n", entries, entries, cpus);
    return header + text;
  }

  /** Chrome's trace-event JSON. */
  String chromeJson() {
    return "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n" + chrome + "\n]}\n";
  }

  long entries() {
    return entries;
  }
}
