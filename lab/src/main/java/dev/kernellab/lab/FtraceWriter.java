package dev.kernellab.lab;

import dev.kernellab.hw.Vectors;
import dev.kernellab.kernel.PreemptCount;
import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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
  private final boolean withDat;
  private TraceDat dat; // made at boot, when the CPU count is known
  private final Map<Integer, String> cmdlines = new TreeMap<>(); // saved_cmdlines: each pid's last comm
  private KernelView kernel;
  private long entries;
  private String[] running = new String[0]; // chrome: the task slice open on each CPU

  FtraceWriter(long fromNs, long toNs, boolean withChrome) {
    this(fromNs, toNs, withChrome, false);
  }

  /** Also records a trace-cmd data file ({@link #traceDat()}) when {@code withDat}. */
  FtraceWriter(long fromNs, long toNs, boolean withChrome, boolean withDat) {
    this.fromNs = fromNs;
    this.toNs = toNs;
    this.withChrome = withChrome;
    this.withDat = withDat;
  }

  /** Writes no path's entry or exit (ftrace's function tracer is not modelled): those need not be built. */
  @Override
  public void interest(TraceInterest mine) {
    mine.dropEverywhere(TraceInterest.Detail.PATHS);
    mine.dropEverywhere(TraceInterest.Detail.LOOP_EXITS_IRQS_OFF);
  }

  @Override
  public void boot(KernelView k) {
    this.kernel = k;
    running = new String[k.cpuCount()];
    dat = withDat ? new TraceDat(k.cpuCount()) : null;
  }

  private boolean in(long now) {
    return kernel != null && now >= fromNs && now <= toNs;
  }

  /**
   * One event: a line of the text and, when a {@code .dat} is written, its record with the
   * same task, CPU, time, latency columns and fields ({@code values}, in its format's order).
   */
  private void line(long now, int cpu, TraceDat.Format event, String fields, Object... values) {
    CpuView c = kernel.cpu(cpu);
    TaskView t = c.current();
    boolean irqsOff = !c.interruptsEnabled();
    boolean resched = t.needResched();
    int count = t.preemptCount();
    boolean hardirq = PreemptCount.inIrq(count);
    boolean softirq = PreemptCount.inSoftirq(count);
    char ctx = hardirq ? (softirq ? 'H' : 'h') : softirq ? 's' : '.';
    int depth = PreemptCount.preemptDepth(count);
    char pd = depth == 0 ? '.' : depth < 16 ? Character.forDigit(depth, 16) : 'f';
    String task = (t.isIdle() ? "<idle>" : t.comm()) + "-" + t.pid();
    long us = (now + 500) / 1_000; // ns2usecs() of kernel/trace/trace.h rounds to the nearest
    text.append(String.format(Locale.ROOT, "%16s [%03d] %c%c%c%c %6d.%06d: %s: %s%n", task, cpu,
        irqsOff ? 'd' : '.', resched ? 'N' : '.', ctx, pd, us / 1_000_000L, us % 1_000_000,
        event.name(), fields));
    entries++;
    if (dat != null) {
      int flags = (irqsOff ? TraceDat.FLAG_IRQS_OFF : 0) | (resched ? TraceDat.FLAG_NEED_RESCHED : 0)
          | (hardirq ? TraceDat.FLAG_HARDIRQ : 0) | (softirq ? TraceDat.FLAG_SOFTIRQ : 0);
      dat.record(cpu, now, event, flags, depth, t.pid(), values);
      if (!t.isIdle()) {
        cmdlines.put(t.pid(), t.comm());
      }
    }
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

  private static int prio(TaskView t) {
    return t.policy().isRealTime() ? 99 - t.rtPriority() : 120 + t.nice();
  }

  /** The comm as sched events carry it: at most TASK_COMM_LEN - 1 = 15 bytes. */
  private static String comm(TaskView t) {
    String c = t.comm();
    return c.length() > 15 ? c.substring(0, 15) : c;
  }

  /** The state's bit in include/linux/sched.h of today's kernels, which sched_switch prints. */
  private static long stateBits(TaskView t) {
    return switch (t.state()) {
      case RUNNING -> 0;
      case INTERRUPTIBLE -> 1;
      case UNINTERRUPTIBLE -> 2;
      case STOPPED -> 4;
      case DEAD -> 16;
      case ZOMBIE -> 32;
    };
  }

  private static String state(TaskView t) {
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

  private static String caller(PathView p) {
    return p == null ? "?" : p.site() != null ? p.site().key() : p.location();
  }

  @Override
  public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
    if (!in(now)) {
      return;
    }
    line(now, cpu, TraceDat.SCHED_SWITCH, String.format(Locale.ROOT,
        "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
        comm(prev), prev.pid(), prio(prev), state(prev), comm(next), next.pid(), prio(next)),
        comm(prev), prev.pid(), prio(prev), stateBits(prev), comm(next), next.pid(), prio(next));
    if (running[cpu] != null) {
      chromeEvent("E", running[cpu], now, cpu);
    }
    running[cpu] = next.comm() + "-" + next.pid();
    chromeEvent("B", running[cpu], now, cpu);
  }

  @Override
  public void schedWakeup(long now, int cpu, TaskView task) {
    if (in(now)) {
      line(now, cpu, TraceDat.SCHED_WAKEUP, String.format(Locale.ROOT, "comm=%s pid=%d prio=%d target_cpu=%03d",
          comm(task), task.pid(), prio(task), task.cpu()), comm(task), task.pid(), prio(task), task.cpu());
      chromeEvent("i", "wakeup " + task.comm() + "-" + task.pid(), now, cpu);
    }
  }

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    if (in(now)) {
      line(now, cpu, TraceDat.IRQ_HANDLER_ENTRY, "irq=" + irqNumber(vector) + " name=" + irqName(vector),
          irqNumber(vector), irqName(vector));
      chromeEvent("B", "irq " + irqName(vector), now, cpu);
    }
  }

  @Override
  public void irqExit(long now, int cpu, int vector) {
    if (in(now)) {
      line(now, cpu, TraceDat.IRQ_HANDLER_EXIT, "irq=" + irqNumber(vector) + " ret=handled", irqNumber(vector), 1);
      chromeEvent("E", "irq " + irqName(vector), now, cpu);
    }
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    if (in(now)) {
      int vec = Integer.numberOfTrailingZeros(pending);
      line(now, cpu, TraceDat.SOFTIRQ_ENTRY, "vec=" + vec + " [action=" + actions(pending) + "]", vec, actions(pending));
      chromeEvent("B", "softirq " + actions(pending), now, cpu);
    }
  }

  @Override
  public void softirqExit(long now, int cpu) {
    if (in(now)) {
      line(now, cpu, TraceDat.SOFTIRQ_EXIT, "");
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
  public void irqsOff(long now, int cpu, PathView path) {
    if (in(now)) {
      line(now, cpu, TraceDat.IRQ_DISABLE, "caller=" + caller(path), caller(path));
    }
  }

  @Override
  public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
    if (in(now)) {
      line(now, cpu, TraceDat.IRQ_ENABLE, "caller=" + caller(path) + " off=" + lengthNs / 1_000 + "us",
          caller(path), lengthNs / 1_000);
    }
  }

  @Override
  public void preemptOff(long now, int cpu, PathView path) {
    if (in(now)) {
      line(now, cpu, TraceDat.PREEMPT_DISABLE, "caller=" + caller(path), caller(path));
    }
  }

  @Override
  public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
    if (in(now)) {
      line(now, cpu, TraceDat.PREEMPT_ENABLE, "caller=" + caller(path) + " off=" + lengthNs / 1_000 + "us",
          caller(path), lengthNs / 1_000);
    }
  }

  @Override
  public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
    if (in(now)) {
      String spun = spunNs > 0 ? " spun=" + spunNs / 1_000 + "us" : "";
      line(now, cpu, TraceDat.LOCK_ACQUIRE, lock.name() + " caller=" + caller(path) + spun,
          lock.name(), caller(path), spun);
    }
  }

  @Override
  public void lockContend(long now, int cpu, LockView lock, PathView path) {
    if (in(now)) {
      line(now, cpu, TraceDat.LOCK_CONTENDED, lock.name() + " caller=" + caller(path), lock.name(), caller(path));
    }
  }

  @Override
  public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
    if (in(now)) {
      line(now, cpu, TraceDat.LOCK_RELEASE, lock.name() + " caller=" + caller(path) + " held=" + heldNs / 1_000 + "us",
          lock.name(), caller(path), heldNs / 1_000);
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

  /** The trace-cmd data file of the same events; only when asked for at construction. */
  byte[] traceDat() {
    if (dat == null) {
      throw new IllegalStateException("no .dat was asked for, or the kernel did not boot");
    }
    return dat.bytes(cmdlines);
  }

  /** Chrome's trace-event JSON. */
  String chromeJson() {
    return "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n" + chrome + "\n]}\n";
  }

  long entries() {
    return entries;
  }
}
