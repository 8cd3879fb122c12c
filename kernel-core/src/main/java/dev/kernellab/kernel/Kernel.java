package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.Machine;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.Pit;
import dev.kernellab.hw.Vectors;
import dev.kernellab.hw.sim.Simulation;
import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A booted kernel on a simulated {@link Machine}, built by {@link KernelBuilder}: what a library
 * user runs and reads (time, tasks, the scheduler, the patches' hooks and sysctls), and the
 * composition of the rooms that each hold one part of the kernel.
 *
 * <pre>{@code
 * Kernel k = new KernelBuilder(MachineSpec.uniprocessor(), 42)
 *     .scheduler(SchedulerProvider.create("o1"))
 *     .patch("preempt")
 *     .task(TaskSpec.user("spin", KernelPath.userProgram("spin").compute(1_000_000).build()))
 *     .build();
 * k.run(10_000_000_000L);
 * }</pre>
 *
 * <p>Its rooms model kernel/sched.c (the generic half of {@code schedule()}), kernel/softirq.c,
 * kernel/timer.c, kernel/fork.c and arch/i386/kernel/{irq.c,time.c,entry.S} of 2.4.17, each
 * function named on the class or method that models it ({@code @Models}); the preempt-kernel
 * patch's hooks are left to the {@link PreemptionModel}.
 */
public final class Kernel implements KernelView {

  /*
   * Where things are
   *
   *   Interpreter       the dispatch loop of each CPU, frames, the machine's callbacks
   *   EntryPrograms     schedule(), entry.S, do_IRQ, do_softirq, cpu_idle, do_exit as programs
   *   TaskLifecycle     boot tasks, do_fork, release_task, the task list
   *   KernelScheduling  the SchedulerHost, the kernel's half of schedule(), wake-ups
   *   GenericSchedule   the half of schedule() shared with StandaloneSchedulerHost
   *   TimerInterrupts   timer_interrupt, do_timer, the local timers, the timer list
   *   Interrupts        irq entry and exit, softirq contexts
   *   SpinLocks         spinlocks, rwlocks, their debug checks
   *   BigKernelLock     lock_kernel, unlock_kernel, and their release and retake in schedule()
   *
   * Each CPU runs a stack of execution contexts: the current task's context at the bottom,
   * hardirq and softirq contexts above it (KernelCpu.contexts). Each context is a stack of
   * frames (ExecContext.Frame: path, pc, phase, loop counters, suspended compute). A context
   * switch replaces the task at the bottom; the incoming task resumes inside its own schedule()
   * frame, pays the switch cost and returns to wherever it called schedule() from.
   */

  private final Machine machine;
  private final Simulation sim;
  private final Scheduler scheduler;
  final PreemptionModel preemption;
  final Tracer tracer; // the user's tracer, the event ring, both, or null
  private final RecentEvents recent; // while DebugChecks.recentEvents: the last events, for oopses
  private final TraceInterest traceInterest; // the tracer's, or null with none
  final DebugChecks debug;
  private final int hz;
  private final CostTable costs;
  private final KernelCpu[] cpus;
  private final Map<Site, KernelPath> siteHooks; // lookups only
  final KernelPath mightSleepHook; // what patches run at KernelPath.MIGHT_SLEEP, or null
  private final Map<String, Sysctl> sysctls; // lookups only
  private final IrqAction[] vectorActions = new IrqAction[Vectors.COUNT];
  private final Task[] irqThreads = new Task[dev.kernellab.hw.IoApic.PINS]; // by line, where threaded
  private final KernelPath[] softirqHandlers = new KernelPath[Softirq.values().length];
  private final Task[] ksoftirqd;
  final boolean threadsSoftirqs; // Patching.threadSoftirqs: none run on the way out of a hard interrupt
  private final Task[] ktimers; // by CPU, where softirqs are threaded
  private final boolean sleepingSpinlocks; // Patching.sleepingSpinlocks
  final boolean[] irqInProgress = new boolean[Vectors.COUNT]; // IRQ_INPROGRESS, by vector
  final boolean[] irqPending = new boolean[Vectors.COUNT]; // IRQ_PENDING, by vector
  private boolean running; // inside run(): a nested run() is refused
  private KernelBug oopsed; // the oops that ended a run: the kernel does not run on after one

  final EntryPrograms programs;
  final KernelScheduling sched;
  final TaskLifecycle lifecycle;
  final TimerInterrupts timers;
  final Interpreter interpreter;
  final SpinLocks locks;
  final BigKernelLock bkl;
  final KernelChecks checks;
  final Interrupts interrupts;
  final InterruptController controller;
  private final SystemManagement smi; // null: the firmware raises no SMI

  /** An interrupt handler registered on a line or vector ({@code struct irqaction}). */
  @Models(file = "include/linux/interrupt.h", function = "struct irqaction", version = "2.4.17")
  record IrqAction(String name, KernelPath handler, boolean saInterrupt) {}

  /** The IDE disk's action, as /proc/interrupts names it, unless a catalog's driver names it. */
  static final String IDE_ACTION = "ide0";

  /** The kernel {@code c} describes, not yet booted ({@link #boot}). */
  Kernel(KernelConfig c) {
    this.machine = new Machine(c.machine(), new Simulation(c.seed()));
    this.sim = machine.simulation();
    this.scheduler = c.scheduler();
    this.preemption = c.preemption();
    this.debug = c.debug();
    this.recent = debug.recentEvents() ? new RecentEvents() : null;
    Tracer user = c.tracer().orElse(null);
    this.tracer = recent == null ? user : user == null ? recent : Tracer.both(recent, user);
    this.hz = c.hz();
    this.costs = machine.spec().costs();
    this.siteHooks = new HashMap<>(c.siteHooks());
    this.mightSleepHook = siteHooks.get(KernelPath.MIGHT_SLEEP);
    this.sysctls = new java.util.TreeMap<>(c.sysctls());
    this.cpus = new KernelCpu[machine.cpuCount()];
    this.programs = new EntryPrograms(costs);
    this.sched = new KernelScheduling(this, scheduler);
    this.lifecycle = new TaskLifecycle(this, sim, scheduler);
    this.timers = new TimerInterrupts(this, scheduler);
    this.interpreter = new Interpreter(this, cpus, tracer);
    for (int i = 0; i < cpus.length; i++) {
      cpus[i] =
          new KernelCpu(this, i, machine.cpu(i), sim.randoms().stream("cpu" + i + ".irq"));
    }
    // Every detail event wanted everywhere until the tracers say otherwise (in boot).
    this.traceInterest = tracer == null ? null : new CpuTraceInterest(cpus);
    this.ksoftirqd = new Task[cpus.length];
    this.threadsSoftirqs = c.threadSoftirqs();
    this.sleepingSpinlocks = c.sleepingSpinlocks();
    this.ktimers = new Task[cpus.length];
    this.locks = new SpinLocks(this, cpus, sim, tracer, debug);
    this.bkl = new BigKernelLock(this, cpus.length > 1 || preemption.preemptsKernelCode());
    this.checks = new KernelChecks(this, debug);
    this.interrupts = new Interrupts(this);
    this.controller = new InterruptController(machine);
    this.smi = c.machine().smi().map(s -> new SystemManagement(this, sim, s)).orElse(null);
    // PCI IDE: SA_SHIRQ, so handle_IRQ_event turns interrupts on and ide_intr turns them off
    // itself (ide-probe.c init_irq); a catalog's ideDriver() replaces this with its own lock.
    vectorActions[machine.ioApic().vectorOf(IdeDisk.IRQ)] = new IrqAction(
        IDE_ACTION, IoOps.ideInterrupt(machine.disk().spec(), SpinLock.spin("io_request_lock")), false);
    c.irqActions().forEach((irq, a) -> vectorActions[machine.ioApic().vectorOf(irq)] = a);
    c.softirqHandlers().forEach((s, p) -> softirqHandlers[s.ordinal()] = p);
  }

  // ---- boot -----------------------------------------------------------------------------------

  /** Starts the CPUs, the kernel's threads and {@code c}'s boot tasks; then tells the tracer. */
  void boot(KernelConfig c) {
    machine.attach(interpreter);
    scheduler.attach(sched);
    for (KernelCpu cpu : cpus) {
      Task idle = lifecycle.newIdle(cpu.id, programs.idlePath);
      cpu.idle = idle;
      cpu.current = idle;
      cpu.switchedInNs = 0;
    }
    timers.install(machine, hz);
    if (smi != null) {
      smi.start();
    }
    if (c.ksoftirqd()) {
      for (KernelCpu cpu : cpus) {
        KernelPath loop =
            KernelPath.of("kernel/softirq.c", "ksoftirqd", false, new TaskOps.Ksoftirqd());
        ksoftirqd[cpu.id] =
            lifecycle.spawn(TaskSpec.kernelThread(TaskLifecycle.ksoftirqdComm(cpu.id), loop).nice(19).onCpu(cpu.id)
                .allowedOn(1L << cpu.id));
      }
    }
    if (c.threadSoftirqs()) {
      for (KernelCpu cpu : cpus) {
        KernelPath loop = KernelPath.of("kernel/softirq.c", "run_ktimerd", false, new TaskOps.Ktimerd());
        ktimers[cpu.id] = lifecycle.spawn(TaskSpec.kernelThread(TaskLifecycle.ktimersComm(cpu.id), loop)
            .fifo(KTIMERD_PRIORITY).onCpu(cpu.id).allowedOn(1L << cpu.id));
      }
    }
    if (c.threadIrqs()) {
      IrqThreads.install(this, lifecycle, c.irqThreadPriorities());
    }
    for (TaskSpec spec : c.tasks()) {
      lifecycle.spawn(spec);
    }
    if (tracer != null) {
      tracer.interest(traceInterest);
      tracer.boot(this);
    }
    for (KernelCpu cpu : cpus) {
      cpu.cpu.sti();
      sim.scheduleAfter(cpu.kick, 0);
    }
  }

  /** {@code LATCH}: the PIT divisor for HZ, include/linux/timex.h. */
  @Models(file = "include/linux/timex.h", function = "LATCH", version = "2.4.17")
  public static int latch(int hz) {
    return (int) ((Pit.CLOCK_TICK_RATE + hz / 2) / hz);
  }

  void setIrqThread(int irq, Task thread) {
    irqThreads[irq] = thread;
  }

  @Override
  public Optional<Task> timerSoftirqThread(int cpu) {
    return cpu >= 0 && cpu < ktimers.length ? Optional.ofNullable(ktimers[cpu]) : Optional.empty();
  }

  @Override
  public Optional<Task> irqThread(int irq) {
    return irq >= 0 && irq < irqThreads.length ? Optional.ofNullable(irqThreads[irq]) : Optional.empty();
  }

  void setIrqAction(int vector, IrqAction action) {
    vectorActions[vector] = action;
  }

  IrqAction actionFor(int vector) {
    return vectorActions[vector];
  }

  void setSoftirqHandler(Softirq s, KernelPath handler) {
    softirqHandlers[s.ordinal()] = handler;
  }

  KernelPath softirqHandler(int nr) {
    return softirqHandlers[nr];
  }

  KernelPath siteHook(Site site) {
    return siteHooks.isEmpty() ? null : siteHooks.get(site);
  }

  /** The hooks by site, fixed at build: the key of {@link SiteHook}'s remembered answers. */
  Map<Site, KernelPath> siteHooks() {
    return siteHooks;
  }

  /**
   * True if {@code l} is a sleeping lock in this kernel: a {@code spinlock_t}, an
   * {@code rwlock_t} (rwbase_rt's, see {@link SpinLocks#readLockSleeping}) or the big kernel
   * lock (a semaphore with CONFIG_PREEMPT_BKL, see {@link BigKernelLock}), where a patch made
   * spinlocks sleep. Raw spinlocks spin.
   */
  boolean sleeps(SpinLock l) {
    return sleepingSpinlocks && !l.isRaw();
  }

  @Override
  public boolean spinlocksSleep() {
    return sleepingSpinlocks;
  }

  /** ktimerd's SCHED_FIFO priority: 1, kernel/softirq.c {@code ktimerd_setup} (6.12). */
  static final int KTIMERD_PRIORITY = 1;

  /**
   * The end of the outermost hard interrupt where softirqs are threaded: 6.12's
   * {@code invoke_softirq} under PREEMPT_RT runs none. What the timer raised (HI_SOFTIRQ, which
   * runs TIMER_BH in 2.4, standing in for TIMER_SOFTIRQ) waits for {@code ktimers/N}, as
   * {@code raise_ktimers_thread} has it; the rest for ksoftirqd, unless the interrupted task is
   * inside a bottom-half-off section, which runs them when it enables bottom halves
   * ({@code should_wake_ksoftirqd}).
   */
  @Models(file = "kernel/softirq.c", function = "invoke_softirq", version = "6.12")
  void deferSoftirqs(KernelCpu c) {
    int timer = c.softirqPending & Softirq.HI.bit();
    if (timer != 0) {
      c.softirqPending &= ~timer;
      c.timerSoftirqPending |= timer;
      wakeThread(c, ktimers[c.id]);
    }
    if (c.softirqPending != 0 && (c.current.preemptCount & PreemptCount.SOFTIRQ_MASK) == 0) {
      wakeKsoftirqd(c);
    }
  }

  @Models(file = "kernel/softirq.c", function = "wakeup_softirqd", version = "2.4.17")
  void wakeKsoftirqd(KernelCpu c) {
    wakeThread(c, ksoftirqd[c.id]);
  }

  /** Wakes a kernel thread of softirqs, if it exists and is not awake already. */
  private void wakeThread(KernelCpu c, Task t) {
    if (t != null && t.state() != TaskState.RUNNING) {
      sched.wakeUpTask(c, t);
    }
  }

  // ---- public API -----------------------------------------------------------------------------

  /** Runs the simulation until {@code endNs}. */
  public void run(long endNs) {
    // the caller's mistakes are the caller's, not an oops of the kernel
    if (oopsed != null) {
      throw new IllegalStateException("this kernel oopsed (" + oopsed.getMessage().lines().findFirst().orElse("")
          + "): it cannot run on");
    }
    if (running) {
      throw new IllegalStateException("run() called from inside the simulation (a probe, an action or a tracer):"
          + " a kernel runs one stretch at a time");
    }
    if (endNs < now()) {
      throw new IllegalArgumentException("cannot run until " + endNs + " ns: the clock is already at " + now() + " ns");
    }
    running = true;
    try {
      sim.runUntil(endNs);
    } catch (KernelBug e) {
      oopsed = e;
      throw e;
    } catch (RuntimeException e) {
      oopsed = internalError(cpus[sched.thisCpu()], e);
      throw oopsed;
    } finally {
      running = false;
    }
  }

  /**
   * Creates a task from {@code spec} and makes it runnable, as a boot task is.
   *
   * @throws IllegalArgumentException if a live task or one of the kernel's own threads already
   *     has its name: tasks made this way are found by name, as boot tasks are
   */
  public Task spawn(TaskSpec spec) {
    java.util.Objects.requireNonNull(spec, "spec");
    for (KernelCpu c : cpus) {
      if (c.idle.comm().equals(spec.comm())) {
        throw new IllegalArgumentException("spawn " + spec.comm() + ": the name of cpu" + c.id + "'s idle task");
      }
    }
    if (lifecycle.byComm(spec.comm()).isPresent()) {
      throw new IllegalArgumentException("spawn " + spec.comm() + ": a live task has that name");
    }
    return lifecycle.spawn(spec);
  }

  /** {@code mod_timer(timer, expires)}: (re)arms {@code timer} for jiffy {@code expires}. */
  public void modTimer(KernelTimer timer, long expires) {
    timers.mod(timer, expires);
  }

  /** {@code del_timer(timer)}. Returns whether it was armed. */
  public boolean delTimer(KernelTimer timer) {
    return timers.del(timer);
  }

  /**
   * Checks, between two events, that no task is lost or duplicated and the scheduler's
   * invariants hold; throws a {@link KernelBug} naming what broke. For soaks and tests: it
   * looks at every task and every queue.
   */
  public void checkInvariants() {
    KernelInvariants.check(this, cpus, lifecycle.tasks());
  }

  private void checkCpu(int cpu) {
    if (cpu < 0 || cpu >= cpus.length) {
      throw new IllegalArgumentException("no cpu" + cpu + " on a " + cpus.length + "-CPU machine");
    }
  }

  /** Number of CPUs. */
  @Override
  public int cpuCount() {
    return cpus.length;
  }

  /** Timer frequency (HZ). */
  @Override
  public int hz() {
    return hz;
  }

  /** {@code jiffies}: timer ticks since boot, starting at 1. */
  @Override
  public long jiffies() {
    return timers.jiffies();
  }

  /** Simulated time, ns. */
  @Override
  public long now() {
    return sim.now();
  }

  /** The machine's cost table. */
  @Override
  public CostTable costs() {
    return costs;
  }

  /** The task running on {@code cpu}. */
  @Override
  public Task current(int cpu) {
    checkCpu(cpu);
    return cpus[cpu].current;
  }

  /** The idle task of {@code cpu}. */
  @Override
  public Task idle(int cpu) {
    checkCpu(cpu);
    return cpus[cpu].idle;
  }

  /** Every task that exists (not dead), in pid order, read-only. */
  @Override
  public List<Task> allTasks() {
    return lifecycle.tasks();
  }

  /** The machine. */
  @Override
  public Machine machine() {
    return machine;
  }

  /**
   * Starts counting the operations the interpreter runs, by kind and by path
   * ({@link #operationProfile}); off by default, as it costs a little per operation. Calling
   * it again changes nothing.
   */
  public void profileOperations() {
    interpreter.profileOperations();
  }

  /** What {@link #profileOperations} counted so far; empty if counting is off. */
  public OperationProfile operationProfile() {
    return interpreter.operationProfile();
  }

  /**
   * Operations of kernel and user paths the interpreter has executed, all CPUs, one dispatch
   * each; those fast-forwarded are counted apart ({@link #opsFastForwarded()}).
   */
  public long opsExecuted() {
    return interpreter.opsExecuted();
  }

  /**
   * Operations of loops run by fast-forward: the iterations that end before anything outside
   * the CPU can act, run in one interpreter step with the same results (docs/performance.md).
   */
  public long opsFastForwarded() {
    return interpreter.fastForward.opsRun();
  }

  /**
   * Turns fast-forward on (the default) or off, for tests that compare the two; off, every
   * operation goes through the interpreter's dispatch. The system property
   * {@code kernellab.fastForward=false} turns it off for every kernel built.
   */
  public void setFastForward(boolean on) {
    interpreter.fastForward.setOn(on);
  }

  /**
   * Engine events fired so far (the machine's engine is {@code machine().simulation()}, for a
   * test that drives a device).
   */
  public long eventsFired() {
    return sim.eventsFired();
  }

  /** Of {@link #eventsFired()}, those the CPUs ended inline, without the event queue. */
  public long eventsFiredInline() {
    return sim.eventsFiredInline();
  }

  /** The scheduler. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** The preemption model in force. */
  @Override
  public PreemptionModel preemptionModel() {
    return preemption;
  }

  /** Per-CPU kernel state of CPU {@code i}. */
  @Override
  public KernelCpu cpu(int i) {
    checkCpu(i);
    return cpus[i];
  }

  /**
   * What patches run between the iterations of loops at {@code site} in this kernel, if
   * anything (the lab's site listing, tests of patches).
   */
  @Override
  public Optional<KernelPath> hookAt(Site site) {
    return Optional.ofNullable(siteHooks.get(site));
  }

  /**
   * The run-time switch a patch registered as {@code name} ({@code kernel/lowlatency}, as under
   * /proc/sys), if this kernel has one.
   */
  public Optional<Sysctl> sysctl(String name) {
    return Optional.ofNullable(sysctls.get(name));
  }

  /**
   * CPU time {@code t} has had so far, ns: what it ran until its last switch out, plus the
   * current stretch if it is running now.
   */
  public long cpuTimeNs(Task t) {
    for (KernelCpu c : cpus) {
      if (c.current == t) {
        return t.runtimeNs + (now() - c.switchedInNs);
      }
    }
    return t.runtimeNs;
  }

  /** The live task with pid {@code pid}, if there is one. */
  @Override
  public Optional<Task> task(int pid) {
    return lifecycle.byPid(pid);
  }

  /** The live task named {@code comm} (the lowest pid of that name), if there is one. */
  @Override
  public Optional<Task> task(String comm) {
    return lifecycle.byComm(comm);
  }

  /** The scheduler's host: for kernel-core's own tests of resched_task and its IPIs. */
  SchedulerHost schedulerHost() {
    return sched;
  }

  // ---- oopses ---------------------------------------------------------------------------------

  KernelBug bug(KernelCpu c, String check, String detail) {
    return bug(c, check, detail, null);
  }

  private KernelBug bug(KernelCpu c, String check, String detail, Throwable cause) {
    ExecContext ctx = c.top();
    KernelPath p = ctx.currentPath();
    String where = p == null ? "" : " in " + p + (p.site() != null ? " (site " + p.site().key() + ")" : "");
    return new KernelBug(
        check,
        detail + " [cpu" + c.id + ", task " + c.current + where + ", t=" + now() + " ns]",
        Oops.report(this, c, recent),
        cause);
  }

  /**
   * An exception the model itself threw on {@code c} (a scheduler's consistency check, an
   * index out of range) becomes an oops with the CPU's state, so that every failure of a run
   * reads the same way and can be filed.
   */
  KernelBug internalError(KernelCpu c, RuntimeException e) {
    return bug(c, "internal error", e.toString(), e);
  }
}
