package dev.kernellab.lab;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.PreemptCount;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.Tracer;
import dev.kernellab.workloads.SampleListener;
import java.util.ArrayList;
import java.util.List;

/**
 * A wake-up latency tracer in the spirit of ftrace's {@code wakeup_rt} and rtla timerlat's
 * auto-analysis: for every sample of the workload's probe it splits the latency into
 *
 * <ol>
 *   <li><b>interrupt latency</b>: the interrupt's assertion to its handler's entry (what had
 *       interrupts off, and in which path, or which handler ran first);
 *   <li><b>handler</b>: handler entry to the probe's wake-up (the driver, and softirqs or other
 *       interrupts it let in);
 *   <li><b>wait for the CPU</b>: the wake-up to the switch to the probe (which task held the
 *       CPU, in which kernel path and site, with which lock or preempt count);
 *   <li><b>switch to user</b>: the switch to the probe's return to user mode;
 * </ol>
 *
 * <p>whose lengths add up to the sample, and keeps the breakdown of the worst few.
 *
 * <p>It keeps a few longs per CPU and per sample and allocates only when a sample enters the
 * worst few.
 */
final class WakeupLatencyTracer implements Tracer, SampleListener {

  /*
   * Implementation overview
   *
   * Events are remembered as they come, in fixed fields and arrays:
   *
   *   - the first entry of the probe's interrupt vector since the probe's last sample (the
   *     sample starts at the first unread assertion, whose handler is that entry);
   *   - per CPU, the last irqs-on with its path and the length of the stretch it ended;
   *   - the probe's wake-up since its last sample, and its switch-in;
   *   - per CPU, the path running since its last change (every change of the running path is
   *     an event: a path entered or left, a lock taken or dropped, a switch, an interrupt) and,
   *     while the probe waits for a CPU (woken, not yet switched in), how long each path ran
   *     there, with the lock held and the task: a few slots, linear search.
   *
   * When the probe reports a sample, these give the four parts; a missing event (the probe
   * was already runnable) gives its part zero. The culprit of a wait is the path that ran
   * longest during it; of an interrupt latency, the path whose interrupts-off stretch covered
   * the assertion. Strings are made only for samples that enter the worst few.
   */

  private static final int KEPT = 8;
  private static final int SLOTS = 16;

  private final int probeIrq;
  private final boolean preemptible;
  private int probeVector = -1;
  private Kernel kernel;
  private Task probe;

  private long firstEntry = -1; // since the last sample
  private int firstEntryCpu;

  private long[] irqsOnAt = new long[0];
  private long[] irqsOffLength = new long[0];
  private KernelPath[] irqsOnPath = new KernelPath[0];

  private KernelPath[] lastTop = new KernelPath[0]; // what runs on each CPU since stretchStart
  private SpinLock[] lastLock = new SpinLock[0];
  private Task[] lastTask = new Task[0];
  private long[] stretchStart = new long[0];

  private long wakeAt = -1; // since the last sample
  private long switchAt = -1;
  private int waitCpu = -1; // the CPU the probe waits for, while it waits
  private Task waitHolder; // who ran there when the probe woke
  private boolean waitHolderInUser;
  private int waitHolderPreempt;
  private final KernelPath[] slotPath = new KernelPath[SLOTS];
  private final long[] slotNs = new long[SLOTS];
  private final SpinLock[] slotLock = new SpinLock[SLOTS];
  private final Task[] slotTask = new Task[SLOTS];
  private int slots;
  private int lastSlot; // the slot the last stretch went to
  private int prevSlot; // and the one before that

  private final List<Breakdown> worst = new ArrayList<>();

  /**
   * For the probe woken by interrupts on IRQ {@code probeIrq}; {@code preemptible} says whether
   * the kernel has CONFIG_PREEMPT (for the culprit's reason).
   */
  WakeupLatencyTracer(int probeIrq, boolean preemptible) {
    this.probeIrq = probeIrq;
    this.preemptible = preemptible;
  }

  void attach(Kernel k) {
    this.kernel = k;
    this.probeVector = k.machine().ioApic().vectorOf(probeIrq);
    int n = k.cpuCount();
    irqsOnAt = new long[n];
    irqsOffLength = new long[n];
    irqsOnPath = new KernelPath[n];
    lastTop = new KernelPath[n];
    lastLock = new SpinLock[n];
    lastTask = new Task[n];
    stretchStart = new long[n];
  }

  // ---- events ----

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    account(now, cpu);
    if (vector == probeVector && firstEntry < 0) {
      firstEntry = now;
      firstEntryCpu = cpu;
    }
  }

  @Override
  public void irqExit(long now, int cpu, int vector) {
    account(now, cpu);
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    account(now, cpu);
  }

  @Override
  public void softirqExit(long now, int cpu) {
    account(now, cpu);
  }

  @Override
  public void irqsOn(long now, int cpu, KernelPath path, long lengthNs) {
    if (cpu < irqsOnAt.length) {
      irqsOnAt[cpu] = now;
      irqsOffLength[cpu] = lengthNs;
      irqsOnPath[cpu] = path;
    }
  }

  @Override
  public void pathEnter(long now, int cpu, KernelPath path) {
    account(now, cpu);
  }

  @Override
  public void pathExit(long now, int cpu, KernelPath path) {
    account(now, cpu);
  }

  @Override
  public void lockAcquire(long now, int cpu, SpinLock lock, KernelPath path, long spunNs) {
    account(now, cpu);
  }

  @Override
  public void lockRelease(long now, int cpu, SpinLock lock, KernelPath path, long heldNs) {
    account(now, cpu);
  }

  @Override
  public void schedWakeup(long now, int cpu, Task task) {
    if (kernel == null || !isProbe(task) || wakeAt >= 0) {
      return;
    }
    wakeAt = now;
    KernelCpu c = kernel.cpu(task.cpu());
    waitCpu = c.id();
    waitHolder = c.current();
    waitHolderInUser = c.taskKernelPath() == null && !waitHolder.isIdle();
    waitHolderPreempt = PreemptCount.preemptDepth(waitHolder.preemptCount());
    slots = 0;
    startStretch(now, waitCpu);
  }

  @Override
  public void schedSwitch(long now, int cpu, Task prev, Task next) {
    account(now, cpu);
    if (isProbe(next) && switchAt < 0 && wakeAt >= 0) {
      switchAt = now;
      waitCpu = -1;
    }
  }

  private boolean isProbe(Task t) {
    return probe != null ? t == probe : t.policy().isRealTime();
  }

  /**
   * The running path of {@code cpu} changes now: the stretch since the last change goes to the
   * path that ran it (while the probe waits for that CPU), and the new one starts.
   */
  private void account(long now, int cpu) {
    // only the CPU the probe waits for is of interest, and only since the wake-up: the
    // stretch before it belongs to the interrupt and its handler, which are parts of their own
    if (kernel == null || cpu != waitCpu) {
      return;
    }
    long from = stretchStart[cpu];
    KernelPath top = lastTop[cpu];
    SpinLock lock = lastLock[cpu];
    Task task = lastTask[cpu];
    startStretch(now, cpu);
    if (now <= from || top == null) {
      return;
    }
    // A loop's body and the path it calls take turns: try the last two slots before the scan.
    int i;
    if (lastSlot < slots && slotPath[lastSlot] == top) {
      i = lastSlot;
    } else if (prevSlot < slots && slotPath[prevSlot] == top) {
      i = prevSlot;
    } else {
      i = 0;
      while (i < slots && slotPath[i] != top) {
        i++;
      }
    }
    if (i == slots) {
      if (slots < SLOTS) {
        slots++;
      } else {
        i = smallestSlot();
      }
      slotPath[i] = top;
      slotNs[i] = 0;
      slotLock[i] = null;
    }
    slotNs[i] += now - from;
    if (lock != null) {
      slotLock[i] = lock;
    }
    slotTask[i] = task;
    if (i != lastSlot) {
      prevSlot = lastSlot;
      lastSlot = i;
    }
  }

  /** A stretch of {@code cpu} starts now, run by what runs there now. */
  private void startStretch(long now, int cpu) {
    KernelCpu c = kernel.cpu(cpu);
    stretchStart[cpu] = now;
    lastTop[cpu] = c.runningPath();
    lastLock[cpu] = c.heldLockCount() > 0 ? c.heldLock(c.heldLockCount() - 1) : null;
    lastTask[cpu] = c.current();
  }

  private int smallestSlot() {
    int m = 0;
    for (int i = 1; i < SLOTS; i++) {
      if (slotNs[i] < slotNs[m]) {
        m = i;
      }
    }
    return m;
  }

  // ---- samples ----

  @Override
  public void sample(Task p, long startNs, long endNs, int cpu) {
    probe = p;
    long latency = endNs - startNs;
    if (worst.size() < KEPT || latency > worst.get(KEPT - 1).latencyNs()) {
      Breakdown b = breakdown(startNs, endNs, cpu);
      int at = 0;
      while (at < worst.size() && worst.get(at).latencyNs() >= latency) {
        at++;
      }
      worst.add(at, b);
      if (worst.size() > KEPT) {
        worst.remove(KEPT);
      }
    }
    firstEntry = -1;
    wakeAt = -1;
    switchAt = -1;
    waitCpu = -1;
  }

  private Breakdown breakdown(long start, long end, int cpu) {
    long e = firstEntry >= start && firstEntry <= end ? firstEntry : start;
    boolean woke = wakeAt >= e && wakeAt <= end;
    long w = woke ? wakeAt : e;
    long s = switchAt >= w && switchAt <= end ? switchAt : w;
    int slot = longestSlot();
    List<Breakdown.Part> parts = List.of(
        new Breakdown.Part("interrupt latency", e - start, irqCause(start, e, firstEntryCpu)),
        new Breakdown.Part("handler", w - e, "the driver's handler, and the softirqs and interrupts it let in"),
        new Breakdown.Part("wait for the CPU", s - w,
            woke ? waitCause(slot) : "the probe was already runnable (a period was pending at its read)"),
        new Breakdown.Part("switch to user", end - s, "schedule(), the context switch and the return to user mode"));
    Breakdown.Part dominant = parts.get(0);
    for (Breakdown.Part part : parts) {
      if (part.ns() > dominant.ns()) {
        dominant = part;
      }
    }
    String path = null;
    String site = null;
    String lock = null;
    String task = null;
    if (dominant.part().equals("wait for the CPU") && woke && slot >= 0) {
      path = slotPath[slot].location();
      site = slotPath[slot].site() == null ? null : slotPath[slot].site().key();
      lock = slotLock[slot] == null ? null : slotLock[slot].name();
      task = slotTask[slot] == null ? null : slotTask[slot].toString();
    } else if (dominant.part().equals("interrupt latency") && firstEntryCpu < irqsOnPath.length
        && irqsOnPath[firstEntryCpu] != null && irqsOnAt[firstEntryCpu] <= e) {
      KernelPath p = irqsOnPath[firstEntryCpu];
      path = p.location();
      site = p.site() == null ? null : p.site().key();
    }
    return new Breakdown(end - start, end, cpu, parts, path, site, lock, task, dominant.cause());
  }

  private int longestSlot() {
    int best = -1;
    for (int i = 0; i < slots; i++) {
      if (best < 0 || slotNs[i] > slotNs[best]) {
        best = i;
      }
    }
    return best;
  }

  private String irqCause(long start, long entry, int cpu) {
    if (entry - start <= 0) {
      return "taken at once";
    }
    if (cpu < irqsOnAt.length && irqsOnAt[cpu] <= entry && irqsOnAt[cpu] - irqsOffLength[cpu] <= start
        && irqsOnPath[cpu] != null) {
      return "interrupts off in " + irqsOnPath[cpu].location() + " for " + us(irqsOffLength[cpu]);
    }
    return "another interrupt's handler ran first, or interrupts were off in an interrupt";
  }

  private String waitCause(int slot) {
    if (waitHolder != null && waitHolder.isIdle()) {
      return "the CPU was idle: leaving the idle loop";
    }
    if (waitHolderInUser) {
      return waitHolder + " was in user mode: preempted on the interrupt's return";
    }
    Task who = slot >= 0 && slotTask[slot] != null ? slotTask[slot] : waitHolder;
    String where = slot >= 0 ? " in " + (slotPath[slot].site() != null ? slotPath[slot].site().key() : slotPath[slot].location())
        + " for " + us(slotNs[slot]) : "";
    if (slot >= 0 && slotLock[slot] != null && preemptible) {
      return "spinlock " + slotLock[slot].name() + " held by " + who + where;
    }
    if (preemptible && waitHolderPreempt > 0) {
      return "preempt_count " + waitHolderPreempt + " in " + who + where;
    }
    if (preemptible) {
      return who + " not preemptible" + where;
    }
    return "not preemptible: " + who + " in kernel mode until its next reschedule point" + where;
  }

  private static String us(long ns) {
    return String.format(java.util.Locale.ROOT, "%.1f us", ns / 1000.0);
  }

  /** The worst samples' breakdowns, worst first. */
  List<Breakdown> worst() {
    return List.copyOf(worst);
  }
}
