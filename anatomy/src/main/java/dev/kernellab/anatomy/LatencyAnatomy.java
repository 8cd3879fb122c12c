package dev.kernellab.anatomy;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.workloads.ProbeSpec;
import dev.kernellab.workloads.SampleListener;
import dev.kernellab.workloads.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The anatomy of a probe's latency samples, in the spirit of ftrace's {@code wakeup_rt} tracer
 * and rtla timerlat's auto-analysis: a tracer that splits every sample into its {@link Part}s,
 * names the {@link Cause} of each, and keeps the worst few.
 *
 * <pre>{@code
 * Kernel24Paths paths = Kernel24Paths.withDefaults();
 * KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler("goodness").patch("preempt");
 * paths.install(b);
 * paths.installDaemons(b);
 * Workload.Run run = Workloads.create("stress").install(paths, b);
 * LatencyAnatomy anatomy = LatencyAnatomy.attach(b, run);
 * KernelView k = b.build();
 * run.start(k);
 * k.run(10_000_000_000L);
 * Cause culprit = anatomy.worst().get(0).culprit();
 * }</pre>
 *
 * <p>It learns what it needs from the kernel and the workload, never from names: the probe's
 * tasks, line and start from the workload's {@link ProbeSpec}, whether the kernel is
 * preemptible from its preemption model, a patch's reschedule points from the sites it hooked,
 * and a patch's own causes from the paths that declare them. It keeps a few longs per CPU and
 * per probe task, allocates nothing per event, and builds objects only for a sample that enters
 * the worst few.
 */
public final class LatencyAnatomy implements Tracer, SampleListener {

  /*
   * Implementation overview
   *
   * Events are remembered as they come, in fixed fields and arrays:
   *
   *   - the last entry of the probe's vector, with the assertion it handled (the IO-APIC's last
   *     assertion of the line at entry), and per probe task the first entry since its last
   *     sample (an interrupt probe's sample starts at that entry's assertion) and the last
   *     entry before its wake-up (a timer probe is woken from that tick's timer list);
   *   - per CPU, the last irqs-on with its path and task and the length of the stretch it ended;
   *   - per probe task, its wake-up since its last sample and the switch to it;
   *   - per CPU, the state at the start of its current stretch (WaitLedger.Stretch), and per
   *     probe task waiting for that CPU, a ledger of who held it.
   *
   * When the probe reports a sample, these give the parts: for a sample from an assertion at S
   * ending at E, with the first entry e, the wake-up w and the switch s,
   *
   *     S ---- e ---------- w ------------- s --------- E
   *     interrupt latency  handler   wait for the CPU   switch to user
   *
   * and for a sample from a timer's expiry S, the waking tick's assertion a comes first:
   * S -- a (timer granularity) -- e (interrupt latency) -- w -- s -- E. A missing event (the
   * probe was already runnable) gives its part zero. The wait's holders come from the ledger,
   * which the stretches fill exactly from w to s, so they add up to the wait; its cause is the
   * longest holder's. The cause of an interrupt latency is the interrupts-off stretch that
   * covered the assertion, if one did.
   *
   * Where the probe's line is threaded (KernelView.irqThread), the hard interrupt wakes the
   * line's thread at tw, the thread is switched in at ts, and its handler wakes the probe:
   *
   *     S -- e ------ tw ------------------ ts -------- w ---- s ---- E
   *          handler   wait for the handler  handler     wait   switch
   *                    thread                thread
   *
   * A timer probe's tick does the same where softirqs are threaded: it wakes the CPU's ktimers
   * thread, whose timer list wakes the probe. Each such relay thread is followed as a probe task
   * is (relayWakeAt, relaySwitchAt, relayLedger, on the CPU it was woken for; a switch-in
   * elsewhere on SMP still ends the wait, whose holders are those of the CPU it waited for),
   * with the probe line's entry that woke it. The cycle of the relay running where the probe is
   * woken is copied at that wake-up, so a later interrupt's cycle cannot replace it before that
   * task's sample; a probe woken by anything else has none. A waiter that joins a CPU
   * others already wait for first closes the CPU's current stretch, which is theirs.
   *
   * A ledger also keeps each holder's own policy and real-time priority, and the priority the
   * waiter was scheduled at (a loan counts) when its wait began: a holder in task context whose
   * own real-time priority is not below a real-time waiter's, and that ran what a higher
   * priority would have preempted, is named as such (Cause.PriorityNotLower, around what it
   * ran), since no scheduler preempts it for that waiter; a holder on a lent priority keeps its
   * loan's chain of lenders.
   *
   * Only the stretches of a CPU a probe waits for go to a ledger, so the per-stretch events
   * (paths entered and left, locks, preempt count changes) are asked for on a CPU only while a
   * probe waits for it (TraceInterest, raised at the wake-up, dropped when the last waiter
   * leaves); the kernel skips them elsewhere. The one exception is the end of a loop with
   * interrupts off, whose iteration count an interrupts-off stretch keeps on every CPU: that
   * detail is wanted always. Events another tracer asked for still come, and change nothing.
   *
   * References: ftrace's wakeup_rt tracer (kernel/trace/trace_sched_wakeup.c), rtla timerlat
   * --auto-analysis (tools/tracing/rtla), which split a wake-up latency the same way for today's
   * kernels.
   */

  /** How many of the worst samples {@link #attach} keeps. */
  public static final int DEFAULT_KEPT = 8;

  private final ProbeSpec spec;
  private final int kept;
  private KernelView kernel;
  private boolean preemptible;
  private int probeVector = -1;
  private TaskView[] probes = new TaskView[0];

  // the probe line's last entry
  private long lastEntryAt = -1;
  private long lastEntryAssert;

  // per CPU
  private IrqsOff[] lastIrqsOn = new IrqsOff[0]; // the stretch the CPU's last irqs-on ended
  private long[] irqsOffIterations = new long[0]; // of a loop that ended in the stretch running now
  private final IrqsOff lastEntryOff = new IrqsOff(); // lastIrqsOn of the probe line's last entry's CPU, then
  private WaitLedger.Stretch[] stretch = new WaitLedger.Stretch[0];
  private int[] waiters = new int[0]; // probe tasks waiting for each CPU
  private TraceInterest interest; // this tracer's, once the kernel gave it; null before

  // per probe task, since its last sample
  private long[] firstEntryAt = new long[0];
  private IrqsOff[] firstEntryOff = new IrqsOff[0];
  private IrqsOff[] wakeEntryOff = new IrqsOff[0];
  private long[] wakeAt = new long[0];
  private long[] wakeEntryAt = new long[0];
  private long[] wakeEntryAssert = new long[0];
  private long[] switchAt = new long[0];
  private int[] waitCpu = new int[0]; // the CPU it waits for, while it waits; -1 otherwise
  private WaitLedger[] ledger = new WaitLedger[0];

  private final List<SampleAnatomy> worst = new ArrayList<>();

  // the threads a probe's wake-up is relayed through, where a patch threads them: the probe
  // line's handler thread, or for a timer's expiry each CPU's timer softirq thread. Per relay,
  // its current cycle from wake-up to switch-in, with what held its CPU meanwhile, and the
  // probe line's entry that woke it; -1 where none
  private TaskView[] relays = new TaskView[0];
  private long[] relayWakeAt = new long[0];
  private long[] relaySwitchAt = new long[0];
  private int[] relayCpu = new int[0];
  private WaitLedger[] relayLedger = new WaitLedger[0];
  private long[] relayEntryAt = new long[0];
  private long[] relayEntryAssert = new long[0];
  private IrqsOff[] relayEntryOff = new IrqsOff[0];
  private TaskView[] runningOn = new TaskView[0]; // per CPU, the task switched in last
  // per probe task: the relay's cycle that woke it, copied at its wake-up; null, -1 where none did
  private TaskView[] wakeRelay = new TaskView[0];
  private long[] wakeRelayWakeAt = new long[0];
  private long[] wakeRelaySwitchAt = new long[0];
  private WaitLedger[] wakeRelayLedger = new WaitLedger[0];

  private int relayIndex(TaskView t) {
    for (int r = 0; r < relays.length; r++) {
      if (relays[r] == t) {
        return r;
      }
    }
    return -1;
  }

  /**
   * An anatomy of the samples of {@code probe}, keeping the {@code kept} worst. Attach it to a
   * kernel ({@link KernelBuilder#tracer}) and to the probe ({@code listen}); {@link #attach}
   * does both for a workload.
   */
  public LatencyAnatomy(ProbeSpec probe, int kept) {
    this.spec = Objects.requireNonNull(probe, "probe");
    if (kept < 1) {
      throw new IllegalArgumentException("an anatomy keeps at least 1 sample, got " + kept);
    }
    this.kept = kept;
  }

  /**
   * An anatomy of {@code run}'s probe, keeping the {@link #DEFAULT_KEPT} worst samples, attached
   * to the kernel {@code b} builds as a tracer and to the run as its sample listener.
   */
  public static LatencyAnatomy attach(KernelBuilder b, Workload.Run run) {
    LatencyAnatomy a = new LatencyAnatomy(run.probe(), DEFAULT_KEPT);
    b.tracer(a);
    run.listen(a);
    return a;
  }

  /** The probe explained. */
  public ProbeSpec probe() {
    return spec;
  }

  @Override
  public void interest(TraceInterest mine) {
    interest = mine;
    mine.dropEverywhere(TraceInterest.Detail.PATHS);
    mine.dropEverywhere(TraceInterest.Detail.LOCKS);
    mine.dropEverywhere(TraceInterest.Detail.PREEMPT);
  }

  /** A probe task now waits for {@code cpu} (the first one): its stretches are wanted in full. */
  private void wantStretches(int cpu) {
    if (interest != null) {
      interest.want(TraceInterest.Detail.PATHS, cpu);
      interest.want(TraceInterest.Detail.LOCKS, cpu);
      interest.want(TraceInterest.Detail.PREEMPT, cpu);
    }
  }

  /** No probe task waits for {@code cpu} any more. */
  private void dropStretches(int cpu) {
    if (interest != null) {
      interest.drop(TraceInterest.Detail.PATHS, cpu);
      interest.drop(TraceInterest.Detail.LOCKS, cpu);
      interest.drop(TraceInterest.Detail.PREEMPT, cpu);
    }
  }

  @Override
  public void boot(KernelView k) {
    if (kernel != null) {
      throw new IllegalStateException("this anatomy is attached to a kernel already");
    }
    int n = spec.tasks().size();
    TaskView[] found = new TaskView[n];
    for (int i = 0; i < n; i++) {
      String comm = spec.tasks().get(i);
      found[i] = k.task(comm).orElseThrow(() -> new IllegalArgumentException(
          "the probe's task " + comm + " is not a boot task of this kernel"));
    }
    kernel = k;
    probes = found;
    preemptible = k.preemptionModel().preemptsKernelCode();
    probeVector = k.machine().ioApic().vectorOf(spec.irq());
    // a probe that starts at its line's assertion and whose line is threaded is woken by the
    // line's thread; one that starts at a timer's expiry by the tick's softirq, in the CPU's
    // timer softirq thread where softirqs are threaded
    int cpus = k.cpuCount();
    List<TaskView> through = new ArrayList<>();
    if (spec.start() == ProbeSpec.Start.TIMER_EXPIRY) {
      for (int c = 0; c < cpus; c++) {
        k.timerSoftirqThread(c).ifPresent(through::add);
      }
    } else {
      k.irqThread(spec.irq()).ifPresent(through::add);
    }
    relays = through.toArray(new TaskView[0]);
    int nr = relays.length;
    relayWakeAt = filled(nr, -1);
    relaySwitchAt = filled(nr, -1);
    relayCpu = new int[nr];
    java.util.Arrays.fill(relayCpu, -1);
    relayLedger = new WaitLedger[nr];
    relayEntryAt = filled(nr, -1);
    relayEntryAssert = new long[nr];
    relayEntryOff = new IrqsOff[nr];
    for (int r = 0; r < nr; r++) {
      relayLedger[r] = new WaitLedger();
      relayEntryOff[r] = new IrqsOff();
    }
    runningOn = new TaskView[cpus];
    lastIrqsOn = new IrqsOff[cpus];
    for (int c = 0; c < cpus; c++) {
      lastIrqsOn[c] = new IrqsOff();
    }
    irqsOffIterations = new long[cpus];
    stretch = new WaitLedger.Stretch[cpus];
    for (int c = 0; c < cpus; c++) {
      stretch[c] = new WaitLedger.Stretch();
    }
    waiters = new int[cpus];
    firstEntryAt = filled(n, -1);
    firstEntryOff = new IrqsOff[n];
    wakeEntryOff = new IrqsOff[n];
    wakeAt = filled(n, -1);
    wakeEntryAt = filled(n, -1);
    wakeEntryAssert = new long[n];
    switchAt = filled(n, -1);
    waitCpu = new int[n];
    java.util.Arrays.fill(waitCpu, -1);
    ledger = new WaitLedger[n];
    wakeRelay = new TaskView[n];
    wakeRelayWakeAt = filled(n, -1);
    wakeRelaySwitchAt = filled(n, -1);
    wakeRelayLedger = new WaitLedger[n];
    for (int i = 0; i < n; i++) {
      ledger[i] = new WaitLedger();
      wakeRelayLedger[i] = new WaitLedger();
      firstEntryOff[i] = new IrqsOff();
      wakeEntryOff[i] = new IrqsOff();
    }
  }

  private static long[] filled(int n, long v) {
    long[] a = new long[n];
    java.util.Arrays.fill(a, v);
    return a;
  }

  private int probeIndex(TaskView t) {
    for (int i = 0; i < probes.length; i++) {
      if (probes[i] == t) {
        return i;
      }
    }
    return -1;
  }

  // ---- events ----

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    account(now, cpu);
    if (vector == probeVector) {
      lastEntryAt = now;
      lastEntryAssert = kernel.machine().ioApic().lastAssertNs(spec.irq());
      lastEntryOff.copy(lastIrqsOn[cpu]);
      for (int i = 0; i < probes.length; i++) {
        if (firstEntryAt[i] < 0) {
          firstEntryAt[i] = now;
          firstEntryOff[i].copy(lastIrqsOn[cpu]);
        }
      }
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
  public void preemptOff(long now, int cpu, PathView path) {
    account(now, cpu);
  }

  @Override
  public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
    account(now, cpu);
  }

  @Override
  public void irqsOff(long now, int cpu, PathView path) {
    account(now, cpu);
    if (cpu < irqsOffIterations.length) {
      irqsOffIterations[cpu] = 0;
      // the kernel tells of local_irq_disable before it clears the flag: the stretch that
      // starts now is the one that runs with interrupts off
      stretch[cpu].irqsOff = true;
    }
  }

  @Override
  public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
    account(now, cpu);
    if (cpu < lastIrqsOn.length) {
      IrqsOff o = lastIrqsOn[cpu];
      o.onAt = now;
      o.lengthNs = lengthNs;
      o.path = path;
      o.task = kernel.cpu(cpu).current();
      o.iterations = irqsOffIterations[cpu];
      o.declared = kernel.cpu(cpu).declaredCause();
      stretch[cpu].irqsOff = false; // told before the flag is set again, as irqsOff
    }
  }

  @Override
  public void pathEnter(long now, int cpu, PathView path) {
    account(now, cpu);
  }

  @Override
  public void pathExit(long now, int cpu, PathView path) {
    if (path.site() == null || cpu >= stretch.length) {
      account(now, cpu);
      return;
    }
    long n = kernel.cpu(cpu).exitedLoopIterations();
    if (!kernel.cpu(cpu).interruptsEnabled()) {
      irqsOffIterations[cpu] = Math.max(irqsOffIterations[cpu], n);
    }
    account(now, cpu, stretch[cpu].path == path ? n : 0);
  }

  @Override
  public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
    account(now, cpu);
  }

  @Override
  public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
    account(now, cpu);
    if (cpu < stretch.length) {
      // told before the CPU drops the lock from its held locks: the stretch that starts now
      // runs under the lock taken before it, if any
      stretch[cpu].released(lock, kernel.cpu(cpu));
    }
  }

  @Override
  public void schedWakeup(long now, int cpu, TaskView task) {
    int r = relayIndex(task);
    if (r >= 0) {
      relayWoken(r, now, task);
      return;
    }
    int i = probeIndex(task);
    if (i < 0 || wakeAt[i] >= 0) {
      return;
    }
    wakeAt[i] = now;
    int by = cpu < runningOn.length ? relayIndex(runningOn[cpu]) : -1;
    if (by >= 0) {
      wakeRelay[i] = relays[by];
      wakeRelayWakeAt[i] = relayWakeAt[by];
      wakeRelaySwitchAt[i] = relaySwitchAt[by];
      wakeRelayLedger[i].copyFrom(relayLedger[by]);
    } else {
      wakeRelay[i] = null;
      wakeRelayWakeAt[i] = -1;
      wakeRelaySwitchAt[i] = -1;
    }
    if (by >= 0 && spec.start() == ProbeSpec.Start.TIMER_EXPIRY) {
      // the tick that woke the timer softirq thread, not the last tick before the thread ran
      wakeEntryAt[i] = relayEntryAt[by];
      wakeEntryAssert[i] = relayEntryAssert[by];
      wakeEntryOff[i].copy(relayEntryOff[by]);
    } else {
      wakeEntryAt[i] = lastEntryAt;
      wakeEntryAssert[i] = lastEntryAssert;
      wakeEntryOff[i].copy(lastEntryOff);
    }
    int c = task.cpu();
    joinWaiters(now, c);
    waitCpu[i] = c;
    ledger[i].waitedBy(task);
  }

  /**
   * A waiter (a probe task or the handler thread) starts waiting for {@code cpu} now, before it
   * is told its ledger: the CPU's stretch so far belongs to those waiting already, and its own
   * starts now.
   */
  private void joinWaiters(long now, int cpu) {
    if (waiters[cpu] > 0) {
      account(now, cpu);
    } else {
      stretch[cpu].start(now, kernel.cpu(cpu));
      wantStretches(cpu);
    }
    waiters[cpu]++;
  }

  /** A waiter of {@code cpu} is done waiting. */
  private void leaveWaiters(int cpu) {
    if (--waiters[cpu] == 0) {
      dropStretches(cpu);
    }
  }

  /**
   * Relay {@code r} is woken: a new cycle starts unless the last one has not reached the CPU
   * yet (a second interrupt before the thread ran only sets its bit again). The probe line's
   * last entry is the one that woke it.
   */
  private void relayWoken(int r, long now, TaskView task) {
    if (relayWakeAt[r] >= 0 && relaySwitchAt[r] < 0) {
      return;
    }
    relayWakeAt[r] = now;
    relaySwitchAt[r] = -1;
    relayLedger[r].waitedBy(task);
    relayEntryAt[r] = lastEntryAt;
    relayEntryAssert[r] = lastEntryAssert;
    relayEntryOff[r].copy(lastEntryOff);
    joinWaiters(now, task.cpu());
    relayCpu[r] = task.cpu();
  }

  @Override
  public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
    if (cpu < runningOn.length) {
      runningOn[cpu] = next;
    }
    int r = relayIndex(next);
    if (r >= 0 && relayWakeAt[r] >= 0 && relaySwitchAt[r] < 0) {
      account(now, relayCpu[r]);
      relaySwitchAt[r] = now;
      leaveWaiters(relayCpu[r]);
      relayCpu[r] = -1;
    }
    int i = probeIndex(next);
    if (i >= 0 && switchAt[i] < 0 && wakeAt[i] >= 0) {
      // the wait ends now, on whatever CPU the probe waited for
      account(now, waitCpu[i]);
      switchAt[i] = now;
      stopWaiting(i);
    }
    account(now, cpu);
  }

  private void stopWaiting(int i) {
    int c = waitCpu[i];
    if (c >= 0) {
      leaveWaiters(c);
      waitCpu[i] = -1;
    }
  }

  /**
   * The state of {@code cpu} changes now: the stretch since the last change goes to the ledger
   * of every probe task, and of the handler thread, waiting for that CPU, and the next one
   * starts.
   */
  private void account(long now, int cpu) {
    account(now, cpu, 0);
  }

  /** {@link #account(long, int)}, where the stretch's loop ended after {@code loopIterations}. */
  private void account(long now, int cpu, long loopIterations) {
    // only a CPU a probe waits for is of interest, and only since the wake-up: the stretch
    // before it belongs to the interrupt and its handler, which are parts of their own
    if (cpu >= waiters.length || waiters[cpu] == 0) {
      return;
    }
    WaitLedger.Stretch s = stretch[cpu];
    if (now > s.from) {
      for (int i = 0; i < probes.length; i++) {
        if (waitCpu[i] == cpu) {
          ledger[i].add(s, now - s.from, loopIterations);
        }
      }
      for (int r = 0; r < relays.length; r++) {
        if (relayCpu[r] == cpu) {
          relayLedger[r].add(s, now - s.from, loopIterations);
        }
      }
    } else if (loopIterations > 0) {
      // a loop whose body ends in an operation that takes no time (a spin_lock_irq, an effect)
      // ends in a stretch of no length: its count still goes to the slot its body held
      for (int i = 0; i < probes.length; i++) {
        if (waitCpu[i] == cpu) {
          ledger[i].countIterations(s, loopIterations);
        }
      }
      for (int r = 0; r < relays.length; r++) {
        if (relayCpu[r] == cpu) {
          relayLedger[r].countIterations(s, loopIterations);
        }
      }
    }
    s.start(now, kernel.cpu(cpu));
  }

  // ---- samples ----

  @Override
  public void sample(TaskView p, long startNs, long endNs, int cpu) {
    int i = probeIndex(p);
    if (i < 0) {
      throw new IllegalStateException(p + " took a sample but is not one of the probe's tasks " + spec.tasks());
    }
    long latency = endNs - startNs;
    if (worst.size() < kept || latency > worst.get(kept - 1).latencyNs()) {
      SampleAnatomy a = anatomy(i, startNs, endNs, cpu);
      int at = 0;
      while (at < worst.size() && worst.get(at).latencyNs() >= latency) {
        at++;
      }
      worst.add(at, a);
      if (worst.size() > kept) {
        worst.remove(kept);
      }
    }
    firstEntryAt[i] = -1;
    wakeAt[i] = -1;
    switchAt[i] = -1;
    stopWaiting(i);
  }

  private SampleAnatomy anatomy(int i, long start, long end, int cpu) {
    List<Segment> parts = new ArrayList<>(7);
    long e;
    boolean woke;
    if (spec.start() == ProbeSpec.Start.TIMER_EXPIRY) {
      woke = wakeAt[i] >= start && wakeAt[i] <= end;
      long w = woke ? wakeAt[i] : start;
      e = woke && wakeEntryAt[i] >= 0 ? clamp(wakeEntryAt[i], start, w) : w;
      long tick = woke && wakeEntryAt[i] >= 0 ? clamp(wakeEntryAssert[i], start, e) : e;
      parts.add(Segment.of(Part.TIMER_GRANULARITY, tick - start,
          new Cause.TimerRounding(start, tick, kernel.hz())));
      parts.add(Segment.of(Part.INTERRUPT_LATENCY, e - tick, irqCause(tick, e, wakeEntryOff[i])));
    } else {
      e = firstEntryAt[i] >= start && firstEntryAt[i] <= end ? firstEntryAt[i] : start;
      woke = wakeAt[i] >= e && wakeAt[i] <= end;
      parts.add(Segment.of(Part.INTERRUPT_LATENCY, e - start, irqCause(start, e, firstEntryOff[i])));
    }
    long w = woke ? wakeAt[i] : e;
    long s = switchAt[i] >= w && switchAt[i] <= end ? switchAt[i] : w;
    long tw = wakeRelayWakeAt[i];
    long ts = wakeRelaySwitchAt[i];
    if (woke && wakeRelay[i] != null && tw >= e && ts >= tw && ts <= w) {
      // the hard interrupt woke the line's thread (or the timer softirq thread), which woke the probe
      parts.add(Segment.of(Part.HANDLER, tw - e, new Cause.Handler(spec.irq())));
      parts.add(waitSegment(Part.WAIT_FOR_HANDLER_THREAD, wakeRelayLedger[i], ts - tw));
      parts.add(Segment.of(Part.HANDLER_THREAD, w - ts, spec.start() == ProbeSpec.Start.TIMER_EXPIRY
          ? new Cause.SoftirqThread(TaskId.of(wakeRelay[i])) : new Cause.Handler(spec.irq())));
    } else {
      parts.add(Segment.of(Part.HANDLER, w - e, new Cause.Handler(spec.irq())));
    }
    parts.add(woke ? waitSegment(Part.WAIT_FOR_CPU, ledger[i], s - w)
        : Segment.of(Part.WAIT_FOR_CPU, s - w, new Cause.AlreadyRunnable(spec.start())));
    parts.add(Segment.of(Part.SWITCH_TO_USER, end - s, new Cause.ReturnToUser()));
    return new SampleAnatomy(end - start, end, cpu, TaskId.of(probes[i]), parts);
  }

  private static long clamp(long v, long lo, long hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  /**
   * Why the interrupt asserted at {@code start} entered only at {@code entry}: the
   * interrupts-off stretch {@code off} that ended just before the entry, if it covered the
   * assertion.
   */
  private static Cause irqCause(long start, long entry, IrqsOff off) {
    if (entry - start <= 0) {
      return new Cause.TakenAtOnce();
    }
    if (off.path != null && off.onAt <= entry && off.onAt - off.lengthNs <= start) {
      TaskId task = TaskId.of(off.task);
      if (off.declared != null) {
        return new Cause.Declared(off.declared, task, off.path, off.lengthNs, off.iterations);
      }
      return new Cause.InterruptsOff(task, off.path, off.lengthNs, off.iterations);
    }
    return new Cause.EarlierInterrupt();
  }

  /** An interrupts-off stretch of a CPU, ended by an irqs-on: a few fields, copied, never allocated per event. */
  private static final class IrqsOff {
    long onAt = -1;
    long lengthNs;
    long iterations;
    PathView path;
    TaskView task;
    dev.kernellab.kernel.spi.LatencyCause declared;

    void copy(IrqsOff o) {
      onAt = o.onAt;
      lengthNs = o.lengthNs;
      iterations = o.iterations;
      path = o.path;
      task = o.task;
      declared = o.declared;
    }
  }

  /** A wait of {@code ns}, part {@code part}, split by the ledger {@code l} of what held the CPU. */
  private Segment waitSegment(Part part, WaitLedger l, long ns) {
    if (l.total() != ns) {
      throw new IllegalStateException("the wait's ledger holds " + l.total() + " ns of a " + ns + " ns wait");
    }
    Integer[] order = new Integer[l.slots];
    for (int k = 0; k < l.slots; k++) {
      order[k] = k;
    }
    java.util.Arrays.sort(order, Comparator.comparingLong(k -> l.firstSeen[k]));
    List<Cause.Holding> holders = new ArrayList<>(l.slots + 1);
    Cause.Holding longest = null;
    for (int k : order) {
      if (l.ns[k] == 0) {
        continue;
      }
      Cause.Holding h = priority(l, k, holding(l, k));
      holders.add(h);
      if (longest == null || h.ns() > longest.ns()) {
        longest = h;
      }
    }
    if (l.otherNs > 0) {
      holders.add(new Cause.OtherHolders(l.otherCount, l.otherNs));
    }
    if (longest == null) {
      return new Segment(part, ns,
          holders.isEmpty() ? new Cause.SwitchedAtOnce() : holders.get(0), holders);
    }
    return new Segment(part, ns, longest, holders);
  }

  /**
   * {@code h}, the holding of slot {@code k} of {@code l}, as a {@link Cause.PriorityNotLower}
   * where a real-time waiter waited for a task that ran there on its own real-time priority,
   * not lower than the one the waiter was scheduled at, and where a higher priority would have
   * preempted what it ran ({@link Cause.PriorityNotLower#preemptibleByPriority}): in task
   * context only (an interrupt or the softirqs on its way out preempt whatever task is below
   * them, whatever its priority), and not the idle task.
   */
  private static Cause.Holding priority(WaitLedger l, int k, Cause.Holding h) {
    if (l.waiter == null || l.waiterPriority == 0 || l.context[k] != WaitLedger.TASK
        || l.task[k].isIdle() || l.policy[k] == null || !l.policy[k].isRealTime()
        || l.rtPriority[k] < l.waiterPriority || !Cause.PriorityNotLower.preemptibleByPriority(h)) {
      return h;
    }
    return new Cause.PriorityNotLower(h, TaskId.of(l.task[k]), l.policy[k], l.rtPriority[k],
        TaskId.of(l.waiter), l.waiterPriority);
  }

  /** What slot {@code k} of {@code l} was, from the state it ran in. */
  private Cause.Holding holding(WaitLedger l, int k) {
    TaskId task = TaskId.of(l.task[k]);
    PathView path = l.path[k];
    long ns = l.ns[k];
    long n = l.iterations[k];
    if (l.declared[k] != null) {
      return new Cause.Declared(l.declared[k], task, path, ns, n);
    }
    if (l.context[k] == WaitLedger.HARDIRQ) {
      return new Cause.InterruptHandler(path, task, ns);
    }
    if (l.context[k] == WaitLedger.SOFTIRQ) {
      return new Cause.SoftirqRunning(path, task, ns);
    }
    if (l.task[k].isIdle()) {
      return new Cause.Idle(task, ns);
    }
    if (l.user[k] || path == null) {
      return new Cause.UserMode(task, ns);
    }
    if (preemptible) {
      LockView lock = l.lock[k];
      if (lock != null) {
        return lock.isBigKernelLock()
            ? new Cause.BigKernelLockHeld(task, path, lock, ns, n)
            : new Cause.SpinlockHeld(task, path, lock, ns, n, kernel.spinlocksSleep() && !lock.isReaderWriter());
      }
      if (l.bhDepth[k] > 0) {
        return new Cause.BottomHalvesOff(task, path, ns, n);
      }
      if (l.preemptDepth[k] > 0) {
        return new Cause.PreemptCountHeld(task, path, l.preemptDepth[k], ns, n);
      }
      if (l.irqsOff[k]) {
        return new Cause.InterruptsOff(task, path, ns, n);
      }
      if (l.lent[k] > 0) {
        List<Cause.Loan> chain = new ArrayList<>(l.chainLength[k]);
        for (int j = 0; j < l.chainLength[k]; j++) {
          chain.add(new Cause.Loan(TaskId.of(l.lender[k * WaitLedger.CHAIN + j]),
              l.lenderLock[k * WaitLedger.CHAIN + j]));
        }
        return new Cause.LentPriority(task, path, l.lent[k], ns, n, chain);
      }
    }
    boolean hooked = path.site() != null && kernel.hookAt(path.site()).isPresent();
    return new Cause.NotPreemptible(task, path, ns, preemptible, hooked, java.util.Optional.ofNullable(l.lock[k]), n);
  }

  /** The worst samples so far, worst first. */
  public List<SampleAnatomy> worst() {
    return List.copyOf(worst);
  }
}
