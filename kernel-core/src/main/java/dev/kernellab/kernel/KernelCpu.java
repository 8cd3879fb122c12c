package dev.kernellab.kernel;

import dev.kernellab.hw.Cpu;
import dev.kernellab.hw.Machine;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Softirq;
import java.util.SplittableRandom;

/**
 * The kernel's per-CPU state: the running task, the idle task, the interrupt and softirq
 * contexts stacked above the task, and the pending softirqs ({@code irq_stat[cpu]} and
 * {@code cpu_curr} of 2.4). Also what an {@link Action} sees of the kernel while it runs.
 */
public final class KernelCpu implements CpuView {

  /** Deepest nesting of hardirq and softirq contexts above a task. */
  static final int MAX_CONTEXTS = 32;

  final Kernel kernel;
  final int id;
  final Cpu cpu;
  Task current;
  Task idle;
  final ExecContext[] contexts = new ExecContext[MAX_CONTEXTS];
  int contextDepth; // hardirq/softirq contexts above the task context
  int softirqPending;
  int timerSoftirqPending; // threaded softirqs: what a hard interrupt raised for ktimers (pending_timer_softirq)
  final SplittableRandom irqRandom;
  final Event kick;
  boolean dispatching;
  boolean scheduleBegun; // schedule()'s state switch is done for the pass in progress
  long switchedInNs;
  long irqsOffSinceNs;
  long preemptOffSinceNs;
  final SpinLock[] held = new SpinLock[64]; // locks held on this CPU, in acquisition order
  int heldCount;
  final OperationStep operationStep = new OperationStep(this);
  SpinLock irqsLeftOffBy; // the last lock taken with spin_lock_irq(save), released plainly
  KernelPath irqsLeftOffIn;
  long exitedLoopIterations; // iterations of the loop body whose frame was popped last
  long steps; // the interpreter's steps on this CPU (the soft-lockup guard)
  long lockupNs = -1; // the instant the guard last saw
  long lockupSteps; // steps when it first saw it
  // Tracers that want each detail event on this CPU now (TraceInterest); 0 with no tracer: the
  // kernel builds and fires such an event only when its count is not 0.
  int pathTracers;
  int irqsOffLoopTracers;
  int lockTracers;
  int preemptTracers;
  // a loop's count FastForward drew ahead (IterationScript, "The draw"): the loop takes it when it
  // runs in that context instead of drawing; null when none is waiting
  FlowOps.Loop forcedLoop;
  ExecContext forcedIn;
  private long forcedCount;

  KernelCpu(Kernel kernel, int id, Cpu cpu, SplittableRandom irqRandom) {
    this.kernel = kernel;
    this.id = id;
    this.cpu = cpu;
    this.irqRandom = irqRandom;
    this.kick = new Event("cpu" + id + ".kick", now -> kernel.interpreter.kicked(this));
    for (int i = 0; i < MAX_CONTEXTS; i++) {
      contexts[i] = new ExecContext(null, ExecContext.Kind.HARDIRQ);
    }
  }

  ExecContext top() {
    return contextDepth > 0 ? contexts[contextDepth - 1] : current.context;
  }

  /** The CPU number. */
  @Override
  public int id() {
    return id;
  }

  /** The task running on this CPU (interrupt handlers run on its stack). */
  @Override
  public Task current() {
    return current;
  }

  /** This CPU's idle task. */
  public Task idleTask() {
    return idle;
  }

  /** The kernel. */
  public Kernel kernel() {
    return kernel;
  }

  /** The machine, for driver actions (device registers). */
  public Machine machine() {
    return kernel.machine();
  }

  /** The hardware CPU: the kernel's own; actions and tracers read its state through this view. */
  Cpu hardware() {
    return cpu;
  }

  /** Simulated time, ns. */
  @Override
  public long now() {
    return kernel.now();
  }

  /** True inside a hardirq or softirq context (or with bottom halves disabled). */
  @Override
  public boolean inInterrupt() {
    return PreemptCount.inInterrupt(current.preemptCount);
  }

  /** The current task's preempt_count. */
  @Override
  public int preemptCount() {
    return current.preemptCount;
  }

  /** Wakes the waiters of {@code wq} as {@code wake_up} does; returns how many woke. */
  @Models(file = "include/linux/sched.h", function = "wake_up", version = "2.4.17")
  public int wakeUp(WaitQueue wq) {
    return kernel.sched.wakeUpQueue(this, wq);
  }

  /** {@code wake_up_process(t)}. */
  @Models(file = "kernel/sched.c", function = "wake_up_process", version = "2.4.17")
  public boolean wakeUpProcess(Task t) {
    return kernel.sched.wakeUpTask(this, t);
  }

  /**
   * The arguments the current task passed to the system call it is in, as the {@code type}
   * the call's body reads them as; null when there are none (no call, or a call made without
   * arguments, whose body then falls back on its defaults).
   *
   * @throws IllegalStateException if the call was made with arguments of another type: a user
   *     program passing the wrong arguments to a body, which would otherwise silently run it
   *     on its defaults (the kernel reports it as an oops)
   */
  public <T> T syscallArgs(Class<T> type) {
    Object a = current.syscallArgs;
    if (a == null) {
      return null;
    }
    if (!type.isInstance(a)) {
      throw new IllegalStateException(current + " called " + taskKernelPath() + " with arguments "
          + a.getClass().getSimpleName() + ", which it reads as " + type.getSimpleName());
    }
    return type.cast(a);
  }

  /**
   * The index (from 0) of the iteration of the innermost loop running here: the loop
   * variable, for a {@link Count} that walks a list (the vmas of an mm, the pages of a file).
   * 0 outside any loop.
   */
  public long loopIndex() {
    ExecContext ctx = top();
    for (int i = ctx.depth - 1; i >= 0; i--) {
      ExecContext.Frame f = ctx.frame(i);
      if (f.path.site() != null) {
        return f.iteration;
      }
    }
    return 0;
  }

  /** A draw from {@code d} with the random stream of the code running here (task or irq). */
  public long sample(Distribution d) {
    return d.sample(random(top()));
  }

  // ---- what is running here, for tracers that explain a latency (no allocation) ----

  /** The path the innermost context runs now (a loop body's path has the loop's site). */
  @Override
  public KernelPath runningPath() {
    return top().currentPath();
  }

  /**
   * The innermost frame of the current task's own context that is kernel code with a name
   * worth reporting: the deepest frame that is neither user code nor the kernel's own entry
   * and exit glue; null if the task is in user mode.
   */
  @Override
  public KernelPath taskKernelPath() {
    ExecContext ctx = current.context;
    for (int i = ctx.depth - 1; i >= 0; i--) {
      ExecContext.Frame f = ctx.frame(i);
      if (!f.user && f.path != null) {
        return f.path;
      }
    }
    return null;
  }

  /** True if the current task runs user code now (no kernel frame on top of its context). */
  @Override
  public boolean inUserMode() {
    return contextDepth == 0 && current.context.inUserMode();
  }

  /** True while an interrupt handler runs here: the innermost context is a hardirq's. */
  @Override
  public boolean inHardirqContext() {
    return contextDepth > 0 && contexts[contextDepth - 1].kind == ExecContext.Kind.HARDIRQ;
  }

  /**
   * True while {@code do_softirq} runs here on an interrupt's way out or at
   * {@code local_bh_enable}: the innermost context is a softirq's (ksoftirqd runs softirqs in
   * its own task context, and is a task).
   */
  @Override
  public boolean inSoftirqContext() {
    return contextDepth > 0 && contexts[contextDepth - 1].kind == ExecContext.Kind.SOFTIRQ;
  }

  /** Whether this CPU takes interrupts now (its interrupt flag). */
  @Override
  public boolean interruptsEnabled() {
    return cpu.interruptsEnabled();
  }

  /**
   * The innermost {@link LatencyCause} declared by a path running in the innermost context
   * (the running path, or a path that called it), or null where none is.
   */
  @Override
  public LatencyCause declaredCause() {
    ExecContext ctx = top();
    return ctx.isEmpty() ? null : ctx.top().declared;
  }

  /**
   * At a tracer's {@link Tracer#pathExit} of a loop body (a path with a {@link KernelPath#site()
   * site}): how many iterations that loop ran (the buffers completed, the ptes walked).
   */
  @Override
  public long exitedLoopIterations() {
    return exitedLoopIterations;
  }

  /** Hardirq and softirq contexts stacked above the task now. */
  @Override
  public int interruptDepth() {
    return contextDepth;
  }

  /** Spinlocks this CPU holds now. */
  @Override
  public int heldLockCount() {
    return heldCount;
  }

  /** The {@code i}-th lock this CPU holds, in the order taken (0 = outermost). */
  @Override
  public SpinLock heldLock(int i) {
    if (i < 0 || i >= heldCount) {
      throw new IndexOutOfBoundsException("cpu" + id + " holds " + heldCount + " locks, not " + (i + 1));
    }
    return held[i];
  }

  /** {@code raise_softirq(s)} on this CPU. */
  @Models(file = "kernel/softirq.c", function = "raise_softirq", version = "2.4.17")
  public void raiseSoftirq(Softirq s) {
    softirqPending |= s.bit();
  }

  @Override
  public String toString() {
    return "cpu" + id;
  }

  // ---- interrupt flag, preempt count, bottom halves: run by the CPU's current code ----

  /** The random stream of what runs in {@code ctx}: its task's, or this CPU's interrupt stream. */
  SplittableRandom random(ExecContext ctx) {
    return ctx.kind == ExecContext.Kind.TASK ? ctx.task.random() : irqRandom;
  }

  /** Starts a compute segment for the operation at {@code f}; zero-length ones complete at once. */
  void compute(ExecContext.Frame f, long ns, boolean endsOperation) {
    compute(f, ns, endsOperation, 1);
  }

  /**
   * {@link #compute(ExecContext.Frame, long, boolean)} for a segment that stands for
   * {@code segments} back-to-back ones ({@link Cpu#startCompute(long, long)}).
   */
  void compute(ExecContext.Frame f, long ns, boolean endsOperation, long segments) {
    if (ns > Long.MAX_VALUE - kernel.now()) {
      throw kernel.bug(this, "compute past the end of time",
          "a compute of " + ns + " ns at t=" + kernel.now() + " ns ends beyond Long.MAX_VALUE ns");
    }
    if (ns <= 0) {
      if (endsOperation) {
        f.advance();
      }
      return;
    }
    f.computing = true;
    f.advanceAfterCompute = endsOperation;
    f.computeLeftNs = ns;
    cpu.startCompute(ns, segments);
  }

  /**
   * A plain {@code spin_unlock} of a lock taken with {@code spin_lock_irq} or
   * {@code spin_lock_irqsave}: legal (2.4's {@code sleep_on} does it), but interrupts stay off
   * until something turns them on; remembered for the return-to-user check's message.
   */
  void noteIrqsLeftOff(SpinLock lock, ExecContext ctx) {
    irqsLeftOffBy = lock;
    irqsLeftOffIn = ctx.currentPath();
  }

  void irqDisable(ExecContext ctx) {
    if (cpu.interruptsEnabled()) {
      irqsOffSinceNs = kernel.now();
      if (kernel.tracer != null) {
        kernel.tracer.irqsOff(kernel.now(), id, ctx.currentPath());
      }
    }
    cpu.cli();
  }

  void irqEnable(ExecContext ctx) {
    if (!cpu.interruptsEnabled() && kernel.tracer != null) {
      kernel.tracer.irqsOn(kernel.now(), id, ctx.currentPath(), kernel.now() - irqsOffSinceNs);
    }
    cpu.sti();
  }

  /** The next run of {@code loop} in {@code ctx} takes {@code count} instead of drawing it. */
  void forceLoopCount(FlowOps.Loop loop, ExecContext ctx, long count) {
    forcedLoop = loop;
    forcedIn = ctx;
    forcedCount = count;
  }

  long takeForcedCount() {
    forcedLoop = null;
    forcedIn = null;
    return forcedCount;
  }

  void irqRestore(ExecContext ctx, boolean enabled) {
    if (enabled) {
      irqEnable(ctx);
    } else {
      irqDisable(ctx);
    }
  }

  /** {@code local_irq_restore(flags)} of the innermost {@code local_irq_save} of {@code ctx}. */
  void irqRestoreSaved(ExecContext ctx) {
    if (ctx.irqFlagsDepth == 0) {
      throw kernel.bug(this, "local_irq_restore without a matching save",
          "no saved flags in this " + ctx.kind.name().toLowerCase(java.util.Locale.ROOT)
              + " context at " + ctx.currentPath());
    }
    irqRestore(ctx, ctx.popIrqFlag());
  }

  void addPreemptCount(int delta, ExecContext ctx) {
    Task t = current;
    int before = t.preemptCount;
    int after = before + delta;
    if (delta < 0 && kernel.debug.preemptCount()) {
      int down = -delta;
      int mask = down < PreemptCount.SOFTIRQ_OFFSET ? PreemptCount.PREEMPT_MASK
          : down < PreemptCount.HARDIRQ_OFFSET ? PreemptCount.SOFTIRQ_MASK
          : PreemptCount.HARDIRQ_MASK;
      if ((before & mask) < down) {
        throw kernel.bug(this, "preempt_count underflow", t + ": " + PreemptCount.describe(before) + " - " + down);
      }
    }
    t.preemptCount = after;
    int b = before & ~PreemptCount.PREEMPT_ACTIVE;
    int a = after & ~PreemptCount.PREEMPT_ACTIVE;
    if (b == 0 && a != 0) {
      preemptOffSinceNs = kernel.now();
      if (preemptTracers != 0) {
        kernel.tracer.preemptOff(kernel.now(), id, ctx.currentPath());
      }
    } else if (b != 0 && a == 0 && preemptTracers != 0) {
      kernel.tracer.preemptOn(kernel.now(), id, ctx.currentPath(), kernel.now() - preemptOffSinceNs);
    }
  }

  /**
   * True if a tracer wants the exit of {@code exited} on this CPU now: every path's, or a loop
   * body's ended with interrupts off. Asked after the frame is popped, in the state the exit
   * shows.
   */
  boolean tracesPathExit(KernelPath exited) {
    return pathTracers != 0 || (irqsOffLoopTracers != 0 && exited.site() != null && !cpu.interruptsEnabled());
  }

  /** After a count drop: {@code preempt_schedule()} if the model says so. */
  void preemptCheck(ExecContext ctx) {
    if (preemptsOnEnable(ctx)) {
      ctx.push(kernel.programs.preemptSchedulePath, false);
    }
  }

  /** Whether {@link #preemptCheck} would push {@code preempt_schedule()} now (changes nothing). */
  boolean preemptsOnEnable(ExecContext ctx) {
    Task t = current;
    return t.preemptCount == 0 && !t.isIdle() && ctx.kind == ExecContext.Kind.TASK
        && kernel.preemption.preemptOnEnable(this, t);
  }

  void bhEnable(ExecContext ctx) {
    addPreemptCount(-PreemptCount.SOFTIRQ_OFFSET, ctx);
    if (!inInterrupt() && softirqPending != 0) {
      kernel.interrupts.pushSoftirqContext(this);
    }
  }
}
