package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.Cpu;
import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.CpuListener;
import dev.kernellab.hw.Machine;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.Pit;
import dev.kernellab.hw.Vectors;
import dev.kernellab.hw.sim.Simulation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A booted kernel on a simulated {@link Machine}: the interpreter of {@link KernelPath}s, the
 * interrupt entry and exit path, softirqs, timers, the generic half of {@code schedule()}, and
 * the {@link SchedulerHost} its scheduler sees. Built by {@link KernelBuilder}.
 *
 * <pre>{@code
 * Kernel k = new KernelBuilder(MachineSpec.uniprocessor(), 42)
 *     .scheduler(SchedulerProvider.create("o1"))
 *     .patch("preempt")
 *     .task(TaskSpec.user("realfeel", REALFEEL).fifo(99))
 *     .build();
 * k.run(10_000_000_000L);
 * }</pre>
 *
 * <p>Models kernel/sched.c (generic half of {@code schedule()}), kernel/softirq.c,
 * kernel/timer.c, arch/i386/kernel/{irq.c,time.c,entry.S} of 2.4.17, with the preempt-kernel
 * patch's hooks left to the {@link PreemptionModel}.
 */
public final class Kernel implements SchedulerHost {

  /*
   * Implementation overview
   *
   * Each CPU runs a stack of execution contexts: the current task's context at the bottom,
   * hardirq and softirq contexts above it (KernelCpu.contexts). Each context is a stack of
   * frames (ExecContext.Frame: path, pc, phase, loop counters, suspended compute).
   *
   *     cpu0:  [ task: user prog | sys_read | loop body ]  [ hardirq: irq path | rtc handler ]
   *                                                         ^ top: runs next
   *
   * dispatch(cpu) executes operations of the top context until one starts a work segment on
   * the hardware CPU (compute, spin, halt). The machine calls back when the segment ends
   * (segmentFinished: the operation completes) or when an interrupt is accepted
   * (interruptAccepted: the segment's remaining time is stored in its frame, a hardirq context
   * is pushed). Before every operation the loop takes a deliverable interrupt, so an interrupt
   * that became deliverable through sti is taken at exactly that instant.
   *
   * A context switch replaces the task at the bottom; the incoming task resumes inside its own
   * schedule() frame, pays the switch cost and returns to wherever it called schedule() from.
   * Cross-CPU effects (a lock released while another CPU spins) go through a zero-delay kick
   * event of the target CPU, so no CPU's loop runs inside another's.
   *
   * Per-kernel programs (schedule(), the interrupt path, system-call entry and exit, the idle
   * loop) are built once at construction from the cost table.
   */

  private final Machine machine;
  private final Simulation sim;
  private final Scheduler scheduler;
  final PreemptionModel preemption;
  final Tracer tracer; // the user's tracer, the event ring, both, or null
  private final RecentEvents recent; // while DebugChecks.recentEvents: the last events, for oopses
  final DebugChecks debug;
  private final int hz;
  private final CostTable costs;
  private final KernelCpu[] cpus;
  private final List<Task> tasks = new ArrayList<>(); // live tasks, pid order
  private final List<Task> tasksView = Collections.unmodifiableList(tasks);
  private final Map<Site, KernelPath> siteHooks; // lookups only
  private final Map<String, Sysctl> sysctls; // lookups only
  private final IrqAction[] vectorActions = new IrqAction[Vectors.COUNT];
  private final KernelPath[] softirqHandlers = new KernelPath[Softirq.values().length];
  private final TimerList timers = new TimerList();
  private final Task[] ksoftirqd;
  final boolean[] irqInProgress = new boolean[Vectors.COUNT]; // IRQ_INPROGRESS, by vector
  final boolean[] irqPending = new boolean[Vectors.COUNT]; // IRQ_PENDING, by vector
  private long jiffies = 1;
  private int nextPid = 1;
  private int thisCpu;

  final SpinLocks locks;
  private long opsExecuted;
  final KernelChecks checks;
  final Interrupts interrupts;
  final KernelPath schedulePath;
  final KernelPath preemptSchedulePath;
  final KernelPath systemCallEntry;
  final KernelPath retFromSysCall;
  final KernelPath retFromIntrToUser;
  final KernelPath retFromExceptionToUser;
  final KernelPath retFromExceptionToKernel;
  final KernelPath interruptPath;
  final KernelPath softirqPath;
  final KernelPath idlePath;
  final KernelPath retFromFork;
  final KernelPath exitPath;

  /** An interrupt handler registered on a line or vector ({@code struct irqaction}). */
  @Models(file = "include/linux/interrupt.h", function = "struct irqaction", version = "2.4.17")
  record IrqAction(String name, KernelPath handler, boolean saInterrupt) {}

  Kernel(KernelBuilder b) {
    this.machine = new Machine(b.machineSpec(), new Simulation(b.seed()));
    this.sim = machine.simulation();
    this.scheduler = b.schedulerOrFail();
    this.preemption = b.preemptionModel();
    this.debug = b.debugChecks();
    this.recent = debug.recentEvents() ? new RecentEvents() : null;
    this.tracer = TracerPair.of(recent, b.tracer());
    this.hz = b.hz();
    this.costs = machine.spec().costs();
    this.siteHooks = new HashMap<>(b.siteHooks());
    this.sysctls = new java.util.TreeMap<>(b.sysctls());
    this.cpus = new KernelCpu[machine.cpuCount()];
    for (int i = 0; i < cpus.length; i++) {
      cpus[i] =
          new KernelCpu(this, i, machine.cpu(i), sim.randoms().stream("cpu" + i + ".irq"));
    }
    this.ksoftirqd = new Task[cpus.length];
    this.locks = new SpinLocks(this, cpus, sim, tracer, debug);
    this.checks = new KernelChecks(this, debug);
    this.interrupts = new Interrupts(this);

    schedulePath =
        KernelPath.of(
            "kernel/sched.c", "schedule", false,
            new SchedOps.ScheduleEntry(),
            new SchedOps.PolicyCost(),
            new SchedOps.Switch(),
            new SchedOps.SwitchCost(),
            new SchedOps.ScheduleTail());
    preemptSchedulePath =
        KernelPath.of("kernel/sched.c", "preempt_schedule", false, new SchedOps.PreemptSchedule());
    systemCallEntry =
        KernelPath.of(
            "arch/i386/kernel/entry.S", "system_call", false,
            new FlowOps.Compute(Distribution.fixed(costs.syscallEntryNs())));
    retFromSysCall =
        KernelPath.of("arch/i386/kernel/entry.S", "ret_from_sys_call", false, new TaskOps.RetToUser(true));
    retFromExceptionToUser =
        KernelPath.of("arch/i386/kernel/entry.S", "ret_from_exception", false, new TaskOps.ExceptionReturn(true));
    retFromExceptionToKernel =
        KernelPath.of("arch/i386/kernel/entry.S", "ret_from_exception", false, new TaskOps.ExceptionReturn(false));
    retFromIntrToUser =
        KernelPath.of("arch/i386/kernel/entry.S", "ret_from_intr", false, new TaskOps.RetToUser(false));
    interruptPath =
        KernelPath.of(
            "arch/i386/kernel/irq.c", "do_IRQ", false,
            new FlowOps.Compute(Distribution.fixed(costs.irqEntryNs())),
            new IrqOps.IrqEnter(),
            new IrqOps.HandleIrqEvent(),
            new IrqOps.IrqExit(),
            new FlowOps.Compute(Distribution.fixed(costs.irqExitNs())),
            new IrqOps.Iret());
    softirqPath = KernelPath.of("kernel/softirq.c", "do_softirq", false, new IrqOps.DoSoftirq());
    idlePath = KernelPath.of("arch/i386/kernel/process.c", "cpu_idle", false, new TaskOps.Idle());
    // ret_from_fork: schedule_tail(), then jmp ret_from_sys_call, which honours need_resched
    // for user tasks and kernel threads alike (kernel_thread() forks through int $0x80).
    retFromFork =
        KernelPath.of(
            "arch/i386/kernel/entry.S", "ret_from_fork", false,
            new SchedOps.SwitchCost(), new SchedOps.ForkTail(), new TaskOps.RetToUser(true));
    exitPath = KernelPath.of("kernel/exit.c", "do_exit", false, new TaskOps.Exit());
    vectorActions[machine.ioApic().vectorOf(IdeDisk.IRQ)] =
        new IrqAction("ide0", IoOps.ideInterrupt(machine.disk()), true);
    b.irqActions().forEach((irq, a) -> vectorActions[machine.ioApic().vectorOf(irq)] = a);
    b.softirqHandlers().forEach((s, p) -> softirqHandlers[s.ordinal()] = p);
  }

  // ---- boot -----------------------------------------------------------------------------------

  void boot(KernelBuilder b) {
    machine.attach(new Listener());
    scheduler.attach(this);
    for (KernelCpu c : cpus) {
      Task idle = newTask(0, "swapper/" + c.id, null, true, 1L << c.id, "idle" + c.id);
      idle.setCpu(c.id);
      idle.setSchedEntity(scheduler.createEntity(idle));
      scheduler.initIdle(idle, c.id);
      idle.context.push(idlePath, false);
      c.idle = idle;
      c.current = idle;
      c.switchedInNs = 0;
    }
    installTimers();
    if (b.ksoftirqd()) {
      for (KernelCpu c : cpus) {
        KernelPath loop =
            KernelPath.of("kernel/softirq.c", "ksoftirqd", false, new TaskOps.Ksoftirqd());
        ksoftirqd[c.id] =
            spawn(TaskSpec.kernelThread("ksoftirqd_CPU" + c.id, loop).nice(19).onCpu(c.id)
                .allowedOn(1L << c.id));
      }
    }
    for (TaskSpec spec : b.tasks()) {
      spawn(spec);
    }
    for (KernelCpu c : cpus) {
      c.cpu.sti();
      sim.scheduleAfter(c.kick, 0);
    }
  }

  @Models(file = "arch/i386/kernel/time.c", function = "timer_interrupt", version = "2.4.17")
  @Models(file = "arch/i386/kernel/apic.c", function = "smp_apic_timer_interrupt",
      version = "2.4.17")
  @Models(file = "arch/i386/kernel/smp.c", function = "smp_reschedule_interrupt",
      version = "2.4.17")
  private void installTimers() {
    KernelPath doTimer =
        KernelPath.path("arch/i386/kernel/time.c", "timer_interrupt")
            .op(new FlowOps.DynamicCompute("PIT latch read", (k, c) -> k.costs.pitReadNs() + k.costs.tscReadNs()))
            .effect("do_timer(): jiffies++, update_process_times(), mark_bh(TIMER_BH)", this::doTimer)
            .build();
    vectorActions[machine.ioApic().vectorOf(Pit.IRQ)] = new IrqAction("timer", doTimer, true);
    machine.pit().program(latch(hz));
    if (cpus.length > 1) {
      KernelPath local =
          KernelPath.path("arch/i386/kernel/apic.c", "smp_apic_timer_interrupt")
              .effect("update_process_times()", c -> updateProcessTimes(c))
              .build();
      vectorActions[Vectors.LOCAL_TIMER_VECTOR] = new IrqAction("local-timer", local, true);
      for (int i = 0; i < cpus.length; i++) {
        machine.localApic(i).startTimer(1_000_000_000L / hz);
      }
    }
    KernelPath ack = KernelPath.path("arch/i386/kernel/smp.c", "smp_reschedule_interrupt").build();
    vectorActions[Vectors.RESCHEDULE_VECTOR] = new IrqAction("reschedule", ack, true);
    vectorActions[Vectors.CALL_FUNCTION_VECTOR] = new IrqAction("call-function", ack, true);
    KernelPath runTimers =
        KernelPath.path("kernel/timer.c", "run_timer_list")
            .effect("run_timer_list()", this::runTimerList)
            .build();
    if (softirqHandlers[Softirq.HI.ordinal()] == null) {
      softirqHandlers[Softirq.HI.ordinal()] = runTimers;
    }
  }

  /** {@code LATCH}: the PIT divisor for HZ, include/linux/timex.h. */
  @Models(file = "include/linux/timex.h", function = "LATCH", version = "2.4.17")
  public static int latch(int hz) {
    return (int) ((Pit.CLOCK_TICK_RATE + hz / 2) / hz);
  }

  @Models(file = "kernel/timer.c", function = "do_timer", version = "2.4.17")
  private void doTimer(KernelCpu c) {
    jiffies++;
    if (cpus.length == 1) {
      updateProcessTimes(c);
    }
    // mark_bh(TIMER_BH) on every tick: timer_bh runs update_times() and run_timer_list().
    c.raiseSoftirq(Softirq.HI);
  }

  @Models(file = "kernel/timer.c", function = "update_process_times", version = "2.4.17")
  private void updateProcessTimes(KernelCpu c) {
    scheduler.tick(c.id, interruptedUserMode(c));
  }

  private boolean interruptedUserMode(KernelCpu c) {
    ExecContext below = c.contextDepth >= 2 ? c.contexts[c.contextDepth - 2] : c.current.context;
    return below.kind == ExecContext.Kind.TASK && below.inUserMode();
  }

  private void runTimerList(KernelCpu c) {
    timers.runExpired(c, jiffies);
  }

  /** {@code mod_timer(timer, expires)}: (re)arms {@code timer} for jiffy {@code expires}. */
  public void modTimer(KernelTimer timer, long expires) {
    timers.mod(timer, expires);
  }

  /** {@code del_timer(timer)}. Returns whether it was armed. */
  public boolean delTimer(KernelTimer timer) {
    return timers.del(timer);
  }

  KernelTimer timeoutTimer(Task t) {
    if (t.timeout == null) {
      t.timeout = new KernelTimer("timeout." + t.pid(), c -> c.wakeUpProcess(t));
    }
    return t.timeout;
  }

  IoOps.TaskIo taskIo(Task t) {
    if (t.io == null) {
      t.io = new IoOps.TaskIo(t);
    }
    return t.io;
  }

  // ---- tasks ----------------------------------------------------------------------------------

  private Task newTask(int pid, String comm, Mm mm, boolean idle, long allowed, String stream) {
    // a task's stream is "task.<pid>" (pids only grow: an indexed family remembers one number)
    // or, for the idle tasks, "task.idle<cpu>"
    return new Task(pid, comm, mm, idle, allowed,
        stream == null ? sim.randoms().stream("task", pid) : sim.randoms().stream("task." + stream));
  }

  /** Creates a task from {@code spec} and makes it runnable (a boot-time task). */
  public Task spawn(TaskSpec spec) {
    if (spec.cpu() < 0 || spec.cpu() >= cpus.length) {
      throw new IllegalArgumentException(
          spec.comm() + ": no cpu" + spec.cpu() + " on a " + cpus.length + "-CPU machine");
    }
    int pid = nextPid++;
    Mm mm = spec.isUser() ? new Mm(pid, spec.residentPages()) : null;
    long allowed = spec.cpusAllowed() & (cpus.length == 64 ? -1L : (1L << cpus.length) - 1);
    if (allowed == 0) {
      throw new IllegalArgumentException(spec.comm() + ": cpus_allowed names no CPU of this machine");
    }
    Task t = newTask(pid, spec.comm(), mm, false, allowed, null);
    t.setPolicy(spec.policy(), spec.rtPriority());
    t.setNice(spec.nice());
    t.setCpu(spec.mayRunOnOrFirst(allowed));
    t.setSchedEntity(scheduler.createEntity(t));
    prepareNewContext(t, spec.program());
    tasks.add(t);
    int saved = thisCpu;
    thisCpu = t.cpu();
    scheduler.wakeUpNewTask(t, null);
    thisCpu = saved;
    return t;
  }

  private void prepareNewContext(Task t, KernelPath program) {
    t.context.clear();
    t.context.push(program, program.isUser());
    ExecContext.Frame f = t.context.push(retFromFork, false);
    f.scratch = 1; // the first run pays a context switch
    // do_fork: a child starts with preempt_count 1, dropped by schedule_tail() on its first run.
    t.preemptCount = PreemptCount.PREEMPT_OFFSET;
  }

  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  void forkTask(KernelCpu c, String comm, KernelPath program) {
    Task parent = c.current;
    int pid = nextPid++;
    Mm mm = program.isUser() ? (parent.mm() == null ? new Mm(pid) : parent.mm().copy(pid)) : null;
    Task child = newTask(pid, comm, mm, false, parent.cpusAllowed(), null);
    child.setPolicy(parent.policy(), parent.rtPriority());
    child.setNice(parent.nice());
    child.setCpu(c.id);
    child.parent = parent;
    child.setSchedEntity(scheduler.createEntity(child));
    prepareNewContext(child, program);
    tasks.add(child);
    scheduler.fork(parent, child);
    scheduler.wakeUpNewTask(child, parent);
  }

  /**
   * {@code release_task} (kernel/exit.c): the model reaps a zombie at its last switch, as if the
   * parent's {@code wait4()} returned at once; {@code sched_exit} therefore hands the child's
   * slice back to the parent a little earlier than a real parent would collect it.
   */
  @Models(file = "kernel/exit.c", function = "release_task", version = "2.4.17")
  private void reap(Task zombie) {
    Task reaper = zombie.parent != null && zombie.parent.state() != TaskState.DEAD ? zombie.parent : null;
    if (reaper != null) {
      scheduler.reap(reaper, zombie);
    }
    zombie.setState(TaskState.DEAD);
    tasks.remove(zombie);
    if (zombie.timeout != null) {
      timers.forget(zombie.timeout);
    }
  }

  // ---- the interpreter ------------------------------------------------------------------------

  private final class Listener implements CpuListener {
    @Override
    public void interruptAccepted(Cpu cpu, int vector, long suspendedComputeNs) {
      KernelCpu c = cpus[cpu.id()];
      ExecContext top = c.top();
      if (!top.isEmpty()) {
        ExecContext.Frame f = top.top();
        if (f.computing) {
          f.computeLeftNs = suspendedComputeNs;
        }
      }
      interrupts.enterInterrupt(c, vector);
      dispatch(c);
    }

    @Override
    public void segmentFinished(Cpu cpu) {
      KernelCpu c = cpus[cpu.id()];
      ExecContext.Frame f = c.top().top();
      f.computing = false;
      if (f.advanceAfterCompute) {
        f.advance();
      }
      dispatch(c);
    }
  }

  void kicked(KernelCpu c) {
    if (c.cpu.segment() == Cpu.Segment.SPIN) {
      c.cpu.stopSegment();
    }
    if (c.cpu.segment() == Cpu.Segment.NONE) {
      dispatch(c);
    }
  }

  private void dispatch(KernelCpu c) {
    if (c.dispatching) {
      return;
    }
    c.dispatching = true;
    int savedCpu = thisCpu;
    thisCpu = c.id;
    try {
      while (c.cpu.segment() == Cpu.Segment.NONE) {
        if (c.cpu.hasDeliverableInterrupt()) {
          interrupts.enterInterrupt(c, c.cpu.acceptInterrupt());
          continue;
        }
        ExecContext ctx = c.top();
        if (ctx.isEmpty()) {
          contextFinished(c, ctx);
          continue;
        }
        ExecContext.Frame f = ctx.top();
        if (f.computing) {
          c.cpu.startCompute(f.computeLeftNs);
          break;
        }
        if (f.pc >= f.path.size()) {
          frameFinished(c, ctx, f);
          continue;
        }
        if (tracer != null && !f.entered) {
          // Traced when the path starts running, not when its frame is pushed: a system call
          // pushes its body under the entry code, which runs first.
          f.entered = true;
          tracer.pathEnter(now(), c.id, f.path);
        }
        opsExecuted++;
        f.path.op(f.pc).exec(this, c, ctx, f);
      }
    } catch (KernelBug e) {
      throw e;
    } catch (RuntimeException e) {
      throw internalError(c, e);
    } finally {
      c.dispatching = false;
      thisCpu = savedCpu;
    }
  }

  private void frameFinished(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    if (f.iterationsLeft > 0 && f.path.site() != null
        && (f.whileCondition == null || f.whileCondition.test(c))) {
      f.iterationsLeft--;
      f.iteration++;
      f.pc = 0;
      f.phase = 0;
      if (f.siteHook != null) {
        long iteration = f.iteration - 1;
        ExecContext.Frame h = pushFrame(c, ctx, f.siteHook, false);
        h.iteration = iteration;
      }
      return;
    }
    KernelPath exited = f.path;
    boolean traced = tracer != null && f.entered;
    ctx.pop();
    if (traced) {
      tracer.pathExit(now(), c.id, exited); // after the pop: the caller runs from here on
    }
  }

  private void contextFinished(KernelCpu c, ExecContext ctx) {
    switch (ctx.kind) {
      case SOFTIRQ -> {
        if (ctx.irqFlagsDepth != 1) {
          throw bug(c, "softirq context unbalanced",
              "do_softirq ended with " + ctx.irqFlagsDepth + " saved irq flags instead of 1");
        }
        c.contextDepth--;
        c.cpu.restoreInterruptFlag(ctx.popIrqFlag());
      }
      case HARDIRQ -> throw bug(c, "hardirq context ended without iret", "vector 0x" + Integer.toHexString(ctx.vector));
      case TASK -> ctx.push(exitPath, false);
    }
  }

  /** Starts a compute segment for the operation at {@code f}; zero-length ones complete at once. */
  void compute(KernelCpu c, ExecContext.Frame f, long ns, boolean endsOperation) {
    compute(c, f, ns, endsOperation, 1);
  }

  /**
   * {@link #compute(KernelCpu, ExecContext.Frame, long, boolean)} for a segment that stands for
   * {@code segments} back-to-back ones ({@link dev.kernellab.hw.Cpu#startCompute(long, long)}).
   */
  void compute(KernelCpu c, ExecContext.Frame f, long ns, boolean endsOperation, long segments) {
    if (ns <= 0) {
      if (endsOperation) {
        f.advance();
      }
      return;
    }
    f.computing = true;
    f.advanceAfterCompute = endsOperation;
    f.computeLeftNs = ns;
    c.cpu.startCompute(ns, segments);
  }

  ExecContext.Frame pushFrame(KernelCpu c, ExecContext ctx, KernelPath path, boolean user) {
    return ctx.push(path, user);
  }

  SplittableRandom random(KernelCpu c, ExecContext ctx) {
    return ctx.kind == ExecContext.Kind.TASK ? ctx.task.random() : c.irqRandom;
  }

  KernelPath siteHook(Site site) {
    return siteHooks.isEmpty() ? null : siteHooks.get(site);
  }

  IrqAction actionFor(int vector) {
    return vectorActions[vector];
  }

  KernelPath softirqHandler(int nr) {
    return softirqHandlers[nr];
  }

  @Models(file = "kernel/softirq.c", function = "wakeup_softirqd", version = "2.4.17")
  void wakeKsoftirqd(KernelCpu c) {
    Task d = ksoftirqd[c.id];
    if (d != null && d.state() != TaskState.RUNNING) {
      wakeUpTask(c, d);
    }
  }

  // ---- schedule() -----------------------------------------------------------------------------

  void callSchedule(KernelCpu c, ExecContext ctx) {
    if (ctx.kind != ExecContext.Kind.TASK) {
      throw bug(c, "Scheduling in interrupt", "schedule() called from " + ctx.kind + " context in " + ctx.currentPath());
    }
    pushFrame(c, ctx, schedulePath, false);
  }

  /**
   * schedule()'s state switch under the runqueue lock: a task that blocked leaves the runqueue
   * ({@code switch (prev->state)}, unless PREEMPT_ACTIVE), before any selection, as in 2.4.17
   * and 2.5.5 alike; and, for a scheduler that clears it there, need_resched (2.4.17: before
   * {@code repeat_schedule}, so a wake-up during its unlocked recalculation leaves the flag set
   * and schedule() goes round again). Done with the pick, or when a recalculation drops the
   * lock, whichever comes first (SchedOps.PolicyCost).
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  void scheduleBegin(KernelCpu c) {
    c.scheduleBegun = true;
    Task prev = c.current;
    if (!prev.isIdle()
        && prev.state() != TaskState.RUNNING
        && (prev.preemptCount & PreemptCount.PREEMPT_ACTIVE) == 0) {
      if (prev.state() == TaskState.INTERRUPTIBLE && prev.signalPending()) {
        prev.setState(TaskState.RUNNING);
      } else {
        scheduler.deactivate(prev, c.id);
      }
    }
    if (scheduler.clearsNeedReschedBeforeSelection()) {
      prev.setNeedResched(false);
    }
  }

  /** The generic half of schedule(): returns true if the CPU switched to another task. */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  boolean switchTasks(KernelCpu c) {
    if (!c.scheduleBegun) {
      scheduleBegin(c);
    }
    c.scheduleBegun = false;
    Task prev = c.current;
    Task next = scheduler.pickNext(c.id, prev);
    if (!scheduler.clearsNeedReschedBeforeSelection()) {
      prev.setNeedResched(false); // 2.5.5: clear_tsk_need_resched(prev) after the pick
    }
    if (next == prev) {
      return false;
    }
    long now = now();
    prev.runtimeNs += now - c.switchedInNs;
    if (prev.state() == TaskState.RUNNING
        || (prev.preemptCount & PreemptCount.PREEMPT_ACTIVE) != 0) {
      prev.involuntarySwitches++;
    } else {
      prev.voluntarySwitches++;
    }
    c.switchedInNs = now;
    next.setCpu(c.id);
    c.current = next;
    if (tracer != null) {
      tracer.schedSwitch(now, c.id, prev, next);
    }
    if (prev.state() == TaskState.ZOMBIE) {
      reap(prev);
    }
    return true;
  }

  // ---- wake-ups -------------------------------------------------------------------------------

  int wakeUpQueue(KernelCpu c, WaitQueue wq) {
    return wakeUpQueue(c, wq, false);
  }

  @Models(file = "kernel/sched.c", function = "__wake_up_common", version = "2.4.17")
  int wakeUpQueue(KernelCpu c, WaitQueue wq, boolean sync) {
    int woken = 0;
    int i = 0;
    while (i < wq.waiterCount()) {
      Task t = wq.waiter(i);
      boolean exclusive = wq.isExclusive(i);
      if (wakeUpTask(c, t, sync)) {
        woken++;
        if (exclusive) {
          break;
        }
      }
      i++;
    }
    return woken;
  }

  boolean wakeUpTask(KernelCpu c, Task t) {
    return wakeUpTask(c, t, false);
  }

  boolean wakeUpTask(KernelCpu c, Task t, boolean sync) {
    int saved = thisCpu;
    thisCpu = c.id;
    boolean woke = scheduler.tryToWakeUp(t, sync);
    thisCpu = saved;
    if (woke && tracer != null) {
      tracer.schedWakeup(now(), c.id, t);
    }
    return woke;
  }

  // ---- SchedulerHost --------------------------------------------------------------------------

  @Override
  public int cpuCount() {
    return cpus.length;
  }

  @Override
  public int hz() {
    return hz;
  }

  @Override
  public long jiffies() {
    return jiffies;
  }

  @Override
  public long now() {
    return sim.now();
  }

  @Override
  public CostTable costs() {
    return costs;
  }

  @Override
  public Task current(int cpu) {
    return cpus[cpu].current;
  }

  @Override
  public Task idle(int cpu) {
    return cpus[cpu].idle;
  }

  @Override
  public int thisCpu() {
    return thisCpu;
  }

  @Models(file = "kernel/sched.c", function = "resched_task", version = "2.5.5")
  @Override
  public void reschedule(int cpu) {
    Task t = cpus[cpu].current;
    boolean wasSet = t.needResched();
    t.setNeedResched(true);
    if (!wasSet && cpu != thisCpu) {
      machine.sendIpi(thisCpu, cpu, Vectors.RESCHEDULE_VECTOR);
    }
  }

  @Models(file = "kernel/sched.c", function = "reschedule_idle", version = "2.4.17")
  @Override
  public void rescheduleAndInterrupt(int cpu) {
    cpus[cpu].current.setNeedResched(true);
    if (cpu != thisCpu) {
      machine.sendIpi(thisCpu, cpu, Vectors.RESCHEDULE_VECTOR);
    }
  }

  @Override
  public List<Task> allTasks() {
    return tasksView;
  }

  // ---- public API -----------------------------------------------------------------------------

  /** Runs the simulation until {@code endNs}. */
  public void run(long endNs) {
    try {
      sim.runUntil(endNs);
    } catch (KernelBug e) {
      throw e;
    } catch (RuntimeException e) {
      throw internalError(cpus[thisCpu], e);
    }
  }

  /**
   * Checks, between two events, that no task is lost or duplicated and the scheduler's
   * invariants hold; throws a {@link KernelBug} naming what broke. For soaks and tests: it
   * looks at every task and every queue.
   */
  public void checkInvariants() {
    KernelInvariants.check(this, cpus, tasks);
  }

  /** The machine. */
  public Machine machine() {
    return machine;
  }

  /** Operations of kernel and user paths the interpreter has executed, all CPUs. */
  public long opsExecuted() {
    return opsExecuted;
  }

  /** The simulation. */
  public Simulation simulation() {
    return sim;
  }

  /** The scheduler. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** The preemption model in force. */
  public PreemptionModel preemptionModel() {
    return preemption;
  }

  /** Per-CPU kernel state of CPU {@code i}. */
  public KernelCpu cpu(int i) {
    return cpus[i];
  }

  /**
   * What patches run between the iterations of loops at {@code site} in this kernel, if
   * anything (the lab's site listing, tests of patches).
   */
  public java.util.Optional<KernelPath> hookAt(Site site) {
    return java.util.Optional.ofNullable(siteHooks.get(site));
  }

  /**
   * The run-time switch a patch registered as {@code name} ({@code kernel/lowlatency}, as under
   * /proc/sys), if this kernel has one.
   */
  public java.util.Optional<Sysctl> sysctl(String name) {
    return java.util.Optional.ofNullable(sysctls.get(name));
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

  /** The task with pid {@code pid}, or null if none lives. */
  public Task task(int pid) {
    for (Task t : tasks) {
      if (t.pid() == pid) {
        return t;
      }
    }
    return null;
  }

  /** The task named {@code comm} (first by pid), or null. */
  public Task task(String comm) {
    for (Task t : tasks) {
      if (t.comm().equals(comm)) {
        return t;
      }
    }
    return null;
  }

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
  private KernelBug internalError(KernelCpu c, RuntimeException e) {
    return bug(c, "internal error", e.toString(), e);
  }
}
