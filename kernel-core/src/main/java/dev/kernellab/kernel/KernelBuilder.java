package dev.kernellab.kernel;

import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.IoApic;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Pit;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.kernel.spi.TaskSpecView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The one place where a kernel is composed: machine, scheduler, patches, tasks, drivers,
 * tracer. Rejects impossible compositions with one clear message, and holds the rules that say
 * what is possible ({@link #checkHz}, {@link #checkPatchName}, {@link #configurationPatches}) so
 * that a front end checks its input with the same rules and words.
 *
 * <pre>{@code
 * Kernel k = new KernelBuilder(MachineSpec.uniprocessor(), 42)
 *     .scheduler(SchedulerProvider.create("goodness"))
 *     .patch("preempt")
 *     .patch("lowlat")
 *     .task(TaskSpec.user("realfeel", REALFEEL).fifo(99))
 *     .build();
 * }</pre>
 */
public final class KernelBuilder {

  /**
   * The one rule for {@link KernelPatch#name()}: a configuration joins names with {@code +}
   * ({@code preempt+lowlat}) and a patch's switch may be {@code kernel/<name>}, so neither
   * '+', '/' nor blanks; '_' as in kernel identifiers ({@code test-hook-prune_dcache}).
   */
  private static final Pattern PATCH_NAME = Pattern.compile("[a-z][a-z0-9_-]*");

  /** HZ of i386 in 2.4 and in 2.5 before 2.5.25. */
  public static final int DEFAULT_HZ = 100;

  /** The lowest timer frequency a kernel may have (see {@link #checkHz}). */
  public static final int MIN_HZ = 19;

  /** The highest timer frequency a kernel may have (see {@link #checkHz}). */
  public static final int MAX_HZ = 10_000;

  /** The configuration without patches. */
  public static final String VANILLA = "vanilla";

  private final MachineSpec machine;
  private final long seed;
  private Scheduler scheduler;
  private int schedulers;
  private final List<KernelPatch> patches = new ArrayList<>();
  private final List<TaskSpec> tasks = new ArrayList<>();
  private final Map<Integer, Kernel.IrqAction> irqActions = new TreeMap<>();
  private final Map<Softirq, KernelPath> softirqHandlers = new TreeMap<>();
  private final Map<Site, KernelPath> siteHooks = new LinkedHashMap<>();
  private final Map<String, Sysctl> sysctls = new TreeMap<>();
  private PreemptionModel preemption = PreemptionModel.VANILLA;
  private String preemptionOwner;
  private Tracer tracer;
  private DebugChecks debug = DebugChecks.all();
  private int hz = DEFAULT_HZ;
  private boolean ksoftirqd = true;
  private boolean threadIrqs; // set by a patch (Patching.threadInterrupts)
  private boolean threadSoftirqs; // set by a patch (Patching.threadSoftirqs)
  private boolean sleepingSpinlocks; // set by a patch (Patching.sleepingSpinlocks)
  private final Map<Integer, Integer> irqThreadPriorities = new TreeMap<>();
  private final Map<Integer, Integer> irqThreadPrioritiesWhereThreaded = new TreeMap<>(); // dropped where none are
  private boolean built;
  private final Map<String, Object> attachments = new TreeMap<>();
  private final Set<Site> declaredSites = new java.util.LinkedHashSet<>();

  /** Starts a kernel for {@code machine}; every random draw of the run derives from {@code seed}. */
  public KernelBuilder(MachineSpec machine, long seed) {
    this.machine = Objects.requireNonNull(machine, "machine");
    this.seed = seed;
  }

  /** The scheduler (exactly one). */
  public KernelBuilder scheduler(Scheduler s) {
    checkOpen();
    Objects.requireNonNull(s, "scheduler");
    schedulers++;
    this.scheduler = s;
    return this;
  }

  /** The scheduler registered under {@code name}. */
  public KernelBuilder scheduler(String name) {
    return scheduler(SchedulerProvider.create(name));
  }

  /**
   * Applies {@code patch} at build time (each patch at most once).
   *
   * @throws IllegalArgumentException if its {@link KernelPatch#name() name} breaks the rule
   *     stated there
   */
  public KernelBuilder patch(KernelPatch patch) {
    checkOpen();
    Objects.requireNonNull(patch, "patch");
    checkPatchName(patch.name());
    patches.add(patch);
    return this;
  }

  /** Applies the patch registered under {@code name}. */
  public KernelBuilder patch(String name) {
    return patch(KernelPatchProvider.create(name));
  }

  /**
   * Applies the patches of {@code configuration} ({@code vanilla}, or registered patch names
   * joined by {@code +}), in its order. A named patch brings what it requires
   * ({@link KernelPatch#requires()}) that the configuration does not name, just before it, as
   * realtime-preempt brings full preemption ({@code rt} is {@code preempt} then {@code rt});
   * {@link #patch} takes a patch as it is, and a requirement missing there is refused at build.
   *
   * @throws IllegalArgumentException as {@link #configurationPatches} does
   */
  public KernelBuilder configuration(String configuration) {
    List<String> named = configurationPatches(configuration);
    List<String> added = new ArrayList<>();
    for (String name : named) {
      addWithRequired(KernelPatchProvider.create(name), named, added, new ArrayList<>());
    }
    return this;
  }

  /**
   * {@code p}, after the registered patches it requires that {@code named} lacks, each once
   * ({@code added}); {@code via} refuses a cycle.
   */
  private void addWithRequired(KernelPatch p, List<String> named, List<String> added, List<String> via) {
    if (via.contains(p.name())) {
      throw new IllegalArgumentException("patch " + via.get(0) + " requires itself through " + String.join(", ", via));
    }
    if (added.contains(p.name())) {
      return;
    }
    via.add(p.name());
    for (String r : p.requires()) {
      if (!named.contains(r) && !added.contains(r) && KernelPatchProvider.REGISTRY.names().contains(r)) {
        addWithRequired(KernelPatchProvider.create(r), named, added, via);
      }
    }
    via.remove(via.size() - 1);
    added.add(p.name());
    patch(p);
  }

  /**
   * The rule for {@link KernelPatch#name()}: a lower-case letter, then lower-case letters,
   * digits, '_' or '-'. Returns {@code name}.
   *
   * @throws IllegalArgumentException if {@code name} breaks it
   */
  public static String checkPatchName(String name) {
    if (name == null || !PATCH_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("patch name " + (name == null ? "null" : "'" + name + "'")
          + ": a patch name is a lower-case letter, then lower-case letters, digits, '_' or '-'");
    }
    return name;
  }

  /**
   * The patches a configuration names, in order: none for {@value #VANILLA}, else the names
   * joined by {@code +} ({@code preempt+lowlat}), each a registered patch
   * ({@link KernelPatchProvider#REGISTRY}) and each once. What they require is brought in by
   * {@link #configuration}; whether they go together ({@link KernelPatch#conflicts()}) is the
   * patches' to say, when a kernel is built with them.
   *
   * @throws IllegalArgumentException naming the configuration and what is wrong with it
   */
  public static List<String> configurationPatches(String configuration) {
    if (configuration == null || configuration.isBlank()) {
      throw new IllegalArgumentException(
          "empty kernel configuration: " + VANILLA + ", or patch names joined by '+' (preempt+lowlat)");
    }
    if (configuration.equals(VANILLA)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    String where = "configuration '" + configuration + "': ";
    for (String name : configuration.split("\\+", -1)) {
      if (name.equals(VANILLA)) {
        throw new IllegalArgumentException(
            where + VANILLA + " is the kernel without patches, not a patch to join with '+'");
      }
      try {
        checkPatchName(name);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + e.getMessage(), e);
      }
      try {
        KernelPatchProvider.REGISTRY.get(name);
      } catch (IllegalArgumentException e) {
        // a user who typed a patch may have meant the kernel without one
        throw new IllegalArgumentException(where + e.getMessage() + "; or " + VANILLA + " for none", e);
      }
      if (out.contains(name)) {
        throw new IllegalArgumentException(where + "patch '" + name + "' twice");
      }
      out.add(name);
    }
    return List.copyOf(out);
  }

  /** Starts {@code spec} at boot. */
  public KernelBuilder task(TaskSpec spec) {
    checkOpen();
    tasks.add(Objects.requireNonNull(spec, "task"));
    return this;
  }

  /**
   * {@code request_irq(irq, handler, flags)}: {@code saInterrupt} keeps interrupts off. The
   * timer's line (0) and the disk's (14) have the kernel's own handlers, which the machine
   * cannot run without; {@link #ideDriver} gives the disk's a catalog's lock.
   */
  public KernelBuilder requestIrq(int irq, String name, KernelPath handler, boolean saInterrupt) {
    if (irq == Pit.IRQ) {
      throw new IllegalArgumentException("request_irq: IRQ " + irq
          + " is the timer's (timer_interrupt, the kernel's own handler)");
    }
    if (irq == IdeDisk.IRQ) {
      throw new IllegalArgumentException("request_irq: IRQ " + irq
          + " is the IDE disk's (ide_intr, the kernel's own handler); ideDriver(lock) gives it a"
          + " catalog's io_request_lock");
    }
    return irqLine(irq, name, handler, saInterrupt);
  }

  private KernelBuilder irqLine(int irq, String name, KernelPath handler, boolean saInterrupt) {
    checkOpen();
    if (irq < 0 || irq >= IoApic.PINS) {
      throw new IllegalArgumentException("request_irq: no IRQ line " + irq);
    }
    if (irqActions.containsKey(irq)) {
      throw new IllegalArgumentException("request_irq: IRQ " + irq + " already has a handler ("
          + irqActions.get(irq).name() + "); shared lines are not modelled");
    }
    kernelHandler("request_irq(" + irq + ", " + name + ")", handler, "an interrupt handler");
    irqActions.put(irq, new Kernel.IrqAction(name, handler, saInterrupt));
    return this;
  }

  /**
   * The IDE driver of the machine's disk on IRQ 14 ({@code ide_intr}, drivers/ide/ide.c 2.4.17),
   * taking {@code ioRequestLock} as the block layer's {@code io_request_lock}: the lock a path
   * catalog's {@code ll_rw_block} takes, so that the two contend on SMP as in the kernel.
   * Without this call the kernel's IDE driver has a lock of its own.
   */
  public KernelBuilder ideDriver(SpinLock ioRequestLock) {
    Objects.requireNonNull(ioRequestLock, "ioRequestLock");
    return irqLine(IdeDisk.IRQ, "ide0", IoOps.ideInterrupt(machine.disk(), ioRequestLock), false);
  }

  private static void kernelHandler(String call, KernelPath handler, String role) {
    if (handler == null) {
      throw new IllegalArgumentException(call + ": no handler (null)");
    }
    if (handler.isUser()) {
      throw new IllegalArgumentException(
          call + ": " + handler + " is a user program; " + role + " is a kernel path");
    }
  }

  /**
   * {@code open_softirq(nr, action)}, once per vector. HI_SOFTIRQ is the kernel's own: it runs
   * the timer list (TIMER_BH).
   */
  public KernelBuilder openSoftirq(Softirq s, KernelPath handler) {
    checkOpen();
    Objects.requireNonNull(s, "softirq");
    if (s == Softirq.HI) {
      throw new IllegalArgumentException(
          "open_softirq(HI): HI_SOFTIRQ runs the kernel's timer list (timer_bh), not a catalog's action");
    }
    if (softirqHandlers.containsKey(s)) {
      throw new IllegalArgumentException("open_softirq(" + s + "): already opened with "
          + softirqHandlers.get(s) + "; one action per softirq");
    }
    kernelHandler("open_softirq(" + s + ")", handler, "a softirq action");
    softirqHandlers.put(s, handler);
    return this;
  }

  /**
   * Attaches a tracer. Several calls attach several tracers, fed every event in the order they
   * were attached ({@link Tracer#compose}).
   */
  public KernelBuilder tracer(Tracer t) {
    checkOpen();
    Objects.requireNonNull(t, "tracer");
    this.tracer = tracer == null ? t : Tracer.both(tracer, t);
    return this;
  }

  /** Which debug checks run (all by default). */
  public KernelBuilder debugChecks(DebugChecks d) {
    checkOpen();
    this.debug = Objects.requireNonNull(d, "debug");
    return this;
  }

  /** Timer frequency (100 by default), within {@link #checkHz}'s range. */
  public KernelBuilder hz(int value) {
    checkOpen();
    this.hz = checkHz(value);
    return this;
  }

  /**
   * The range of HZ, {@value #MIN_HZ}..{@value #MAX_HZ}: the lower bound because the PIT's
   * divisor {@code LATCH = (1193180 + HZ/2) / HZ} (include/linux/timex.h, {@link Kernel#latch})
   * is 16 bits and at HZ 18 would be 66,288. Returns {@code hz}.
   *
   * @throws IllegalArgumentException if {@code hz} is out of range
   */
  public static int checkHz(int hz) {
    if (hz < MIN_HZ || hz > MAX_HZ) {
      throw new IllegalArgumentException(
          "HZ must be " + MIN_HZ + ".." + MAX_HZ + " (the PIT divisor is 16 bits), got " + hz);
    }
    return hz;
  }

  /** Whether per-CPU ksoftirqd threads exist (2.4.10 and later: yes). */
  public KernelBuilder ksoftirqd(boolean on) {
    checkOpen();
    this.ksoftirqd = on;
    return this;
  }

  /**
   * Attaches a per-kernel object for patches to find ({@link Patching#attachment}): a path
   * catalog whose locks a lock-breaking patch must drop, for instance. One object per type.
   */
  public <T> KernelBuilder attach(Class<T> type, T value) {
    Objects.requireNonNull(value, "value");
    if (attachments.putIfAbsent(type.getName(), value) != null) {
      throw new IllegalStateException("a " + type.getSimpleName() + " is already attached");
    }
    return this;
  }

  /**
   * Declares loop sites this kernel's code has (a path catalog declares all of its own when it
   * is installed). Once any are declared, a patch that hooks a site none of them is, a
   * mistyped one, is refused instead of silently never running.
   */
  public KernelBuilder declareSites(java.util.Collection<Site> sites) {
    checkOpen();
    sites.forEach(s -> declaredSites.add(Objects.requireNonNull(s, "site")));
    return this;
  }

  /**
   * What a patch may change while the kernel is built: only inside its {@link KernelPatch#apply
   * apply}, after every rule on the builder's own parts has been checked and before the kernel
   * is handed its configuration. A task it adds is held to the rules of the builder's tasks.
   */
  private final class PatchSession implements Patching {
    private final String patch;
    private final Set<String> comms; // every boot task's name so far, the kernel's threads included
    private final List<TaskSpec> bootTasks; // where the patch's tasks go, after the builder's
    private boolean applying = true;

    private PatchSession(String patch, Set<String> comms, List<TaskSpec> bootTasks) {
      this.patch = patch;
      this.comms = comms;
      this.bootTasks = bootTasks;
    }

    private void open() {
      if (!applying) {
        throw new IllegalStateException("patch " + patch + " changed the kernel after it was applied:"
            + " a patch changes the kernel only while apply() runs");
      }
    }

    @Override
    public void preemptionModel(PreemptionModel m) {
      open();
      if (preemptionOwner != null) {
        throw new IllegalStateException(
            "patch " + patch + " sets the preemption model, already set by " + preemptionOwner);
      }
      preemptionOwner = patch;
      preemption = Objects.requireNonNull(m, "preemption model");
    }

    /**
     * Runs {@code hook} between the iterations of every loop at {@code site}, or once where a
     * path reaches {@code site} as a {@linkplain KernelPath.Builder#point point}. Two patches
     * hooking one site run in the order they were applied.
     */
    @Override
    public void hookSite(Site site, PathView view) {
      open();
      if (!(view instanceof KernelPath)) {
        // a hook runs in the interpreter, which runs only the paths it built
        throw new IllegalArgumentException("patch " + patch + " hooks " + site.key()
            + " with a path not built with KernelPath: " + (view == null ? "null" : view.getClass().getName()));
      }
      KernelPath hook = (KernelPath) view;
      if (!declaredSites.isEmpty() && !declaredSites.contains(site) && !site.equals(KernelPath.MIGHT_SLEEP)) {
        throw new IllegalArgumentException("patch " + patch + " hooks " + site.key()
            + ", a site no path of this kernel has (declared: " + declaredSites.size()
            + " sites, e.g. " + declaredSites.iterator().next().key() + ")");
      }
      KernelPath existing = siteHooks.get(site);
      if (existing == null) {
        siteHooks.put(site, hook);
        return;
      }
      KernelPath.Builder both = KernelPath.path(hook.file(), hook.function());
      both.call(existing).call(hook);
      siteHooks.put(site, both.build());
    }

    @Override
    public Sysctl sysctl(String name, boolean initial) {
      open();
      if (sysctls.containsKey(name)) {
        throw new IllegalStateException("sysctl " + name + " registered twice");
      }
      Sysctl s = new Sysctl(name, initial);
      sysctls.put(name, s);
      return s;
    }

    /**
     * Adds a boot-time task (a kernel thread the patch brings), started after the builder's
     * own tasks.
     *
     * @throws IllegalArgumentException naming this patch if the task breaks a rule of
     *     {@link KernelBuilder#task}'s (its CPU, its name)
     */
    @Override
    public void task(TaskSpecView view) {
      open();
      Objects.requireNonNull(view, "task");
      if (!(view instanceof TaskSpec)) {
        throw new IllegalArgumentException("patch " + patch + " adds task " + view.comm()
            + " not made with TaskSpec: " + view.getClass().getName());
      }
      TaskSpec spec = (TaskSpec) view;
      try {
        checkTask(spec, comms);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("patch " + patch + ": " + e.getMessage(), e);
      }
      bootTasks.add(spec);
    }

    @Override
    public void threadInterrupts() {
      open();
      threadIrqs = true;
    }

    @Override
    public void threadSoftirqs() {
      open();
      if (!ksoftirqd) {
        throw new IllegalStateException("patch " + patch
            + ": threaded softirqs run in ksoftirqd, and this kernel is built without it");
      }
      if (threadSoftirqs) {
        return; // another patch threaded them already
      }
      for (int c = 0; c < machine.cpus(); c++) {
        String comm = TaskLifecycle.ktimersComm(c);
        if (!comms.add(comm)) {
          throw new IllegalArgumentException("patch " + patch + ": task " + comm + " has the name of cpu" + c
              + "'s timer softirq thread");
        }
      }
      threadSoftirqs = true;
    }

    @Override
    public void sleepingSpinlocks() {
      open();
      sleepingSpinlocks = true;
    }

    @Override
    public MachineSpec machine() {
      return machine;
    }

    @Override
    public <T> Optional<T> attachment(Class<T> type) {
      return Optional.ofNullable(attachments.get(type.getName())).map(type::cast);
    }
  }

  /**
   * The SCHED_FIFO priority of IRQ {@code irq}'s handler thread, as {@code chrt -f -p PRIO PID}
   * sets it on a PREEMPT_RT system; the default is 50 ({@code setup_irq_thread}). Only a kernel
   * whose interrupts a patch threads has such threads: {@link #build()} refuses the setting
   * otherwise, and for a line with no handler.
   *
   * @throws IllegalArgumentException for the timer's line (it stays a hard interrupt), a line the
   *     machine does not have, or a priority outside 1 to 99
   */
  public KernelBuilder irqThreadPriority(int irq, int priority) {
    checkIrqThreadPriority(irq, priority);
    irqThreadPriorities.put(irq, priority);
    return this;
  }

  /**
   * {@link #irqThreadPriority} where a patch threads this kernel's interrupts, and nothing
   * where none does: a front end that runs one setting under several configurations (vanilla
   * and rt) gives it to each, and only what a patch threads learns it. Where interrupts are
   * threaded, the line must have a handler, as there; a line given both ways gets the
   * {@link #irqThreadPriority} one. Whether they were threaded is known once the kernel is
   * built ({@link Kernel#irqThread}).
   *
   * @throws IllegalArgumentException as {@link #irqThreadPriority} does
   */
  public KernelBuilder irqThreadPriorityWhereThreaded(int irq, int priority) {
    checkIrqThreadPriority(irq, priority);
    irqThreadPrioritiesWhereThreaded.put(irq, priority);
    return this;
  }

  private void checkIrqThreadPriority(int irq, int priority) {
    checkOpen();
    checkIrqThreadLine(irq, priority);
  }

  /**
   * Refuses what {@link #irqThreadPriority} refuses before any kernel is composed: the timer's
   * line, a line the machine does not have, a priority outside 1 to 99. A front end that keeps
   * the setting as a value checks it so without a builder; whether the line has a handler is
   * known only to a builder with its drivers.
   *
   * @throws IllegalArgumentException as {@link #irqThreadPriority} does
   */
  public static void checkIrqThreadLine(int irq, int priority) {
    if (irq == Pit.IRQ) {
      throw new IllegalArgumentException("IRQ " + irq
          + " is the timer's, which stays a hard interrupt and has no thread to give a priority");
    }
    if (irq < 0 || irq >= IoApic.PINS) {
      throw new IllegalArgumentException("no IRQ line " + irq + " to give a thread priority");
    }
    if (priority < 1 || priority > 99) {
      throw new IllegalArgumentException("IRQ " + irq + "'s thread: " + priority
          + " is not a SCHED_FIFO priority (1 to 99)");
    }
  }

  /**
   * The device lines given a handler so far, by number, each with its handler's name (the
   * IDE disk's {@code ide0}, {@link #requestIrq}'s): the lines a patch that threads interrupts
   * gives a thread {@code irq/N-name}, so the lines {@link #irqThreadPriority} may name.
   */
  public SortedMap<Integer, String> deviceLines() {
    SortedMap<Integer, String> lines = new TreeMap<>();
    lines.put(IdeDisk.IRQ, Kernel.IDE_ACTION);
    irqActions.forEach((irq, a) -> {
      if (irq != Pit.IRQ) { // the tick is never threaded (IrqThreads.install)
        lines.put(irq, a.name());
      }
    });
    return Collections.unmodifiableSortedMap(lines);
  }

  /**
   * With threaded interrupts, each device line's thread is a boot task too: its name must be
   * free, and each priority set must be a line's that has a handler.
   */
  private void checkIrqThreads(Set<String> comms) {
    Map<Integer, String> lines = deviceLines();
    if (!threadIrqs) {
      if (!irqThreadPriorities.isEmpty()) {
        int irq = irqThreadPriorities.keySet().iterator().next();
        throw new IllegalArgumentException("IRQ " + irq
            + "'s thread priority: no interrupt of this kernel runs in a thread (a patch such as rt threads them)");
      }
      return;
    }
    for (int irq : irqThreadPriorities.keySet()) {
      if (!lines.containsKey(irq)) {
        throw new IllegalArgumentException("IRQ " + irq
            + "'s thread priority: the line has no handler in this kernel (lines with one: " + lines.keySet() + ")");
      }
    }
    lines.forEach((irq, name) -> {
      String comm = IrqThreads.comm(irq, name);
      if (!comms.add(comm)) {
        throw new IllegalArgumentException("task " + comm + " has the name of IRQ " + irq + "'s handler thread");
      }
    });
  }

  /** A builder builds one kernel: after {@link #build()}, a change would reach nothing. */
  private void checkOpen() {
    if (built) {
      throw new IllegalStateException("this builder already built its kernel: a change now would reach nothing");
    }
  }

  /**
   * Builds and boots the kernel: checks the scheduler, the patches and the tasks, applies the
   * patches, then hands the kernel its {@link KernelConfig}.
   */
  public Kernel build() {
    if (built) {
      throw new IllegalStateException("this builder already built a kernel");
    }
    if (schedulers == 0) {
      throw new IllegalArgumentException("no scheduler: choose one (e.g. o1, goodness)");
    }
    if (schedulers > 1) {
      throw new IllegalArgumentException("two schedulers given: a kernel has exactly one");
    }
    if (!scheduler.supportsCpuCount(machine.cpus())) {
      throw new IllegalArgumentException(
          "scheduler " + scheduler.name() + " does not support " + machine.cpus() + " CPUs");
    }
    checkPatches();
    Set<String> comms = new HashSet<>();
    for (int c = 0; c < machine.cpus(); c++) {
      comms.add(TaskLifecycle.idleComm(c));
      if (ksoftirqd) {
        comms.add(TaskLifecycle.ksoftirqdComm(c));
      }
    }
    for (TaskSpec t : tasks) {
      checkTask(t, comms);
    }
    built = true;
    List<TaskSpec> bootTasks = new ArrayList<>(tasks);
    for (KernelPatch p : patches) {
      PatchSession k = new PatchSession(p.name(), comms, bootTasks);
      p.apply(k);
      k.applying = false;
    }
    if (threadIrqs) {
      irqThreadPrioritiesWhereThreaded.forEach(irqThreadPriorities::putIfAbsent);
    }
    checkIrqThreads(comms);
    if (sleepingSpinlocks && !(threadIrqs && threadSoftirqs)) {
      throw new IllegalStateException("sleeping spinlocks need threaded interrupts and softirqs (a spinlock_t"
          + " that sleeps cannot be taken in a hard interrupt): the patch that asks for them must thread both");
    }
    KernelConfig config = new KernelConfig(machine, seed, scheduler, preemption, Optional.ofNullable(tracer), debug, hz,
        ksoftirqd, bootTasks, irqActions, softirqHandlers, siteHooks, sysctls, threadIrqs, irqThreadPriorities,
        threadSoftirqs, sleepingSpinlocks);
    Kernel k = new Kernel(config);
    k.boot(config);
    return k;
  }

  private void checkPatches() {
    List<String> names = new ArrayList<>();
    for (KernelPatch p : patches) {
      if (names.contains(p.name())) {
        throw new IllegalArgumentException("patch " + p.name() + " given twice");
      }
      names.add(p.name());
    }
    for (KernelPatch p : patches) {
      for (String r : p.requires()) {
        if (!names.contains(r)) {
          throw new IllegalArgumentException("patch " + p.name() + " requires " + r + ": apply both ("
              + r + "+" + p.name() + ")");
        }
      }
      for (String x : p.conflicts()) {
        if (names.contains(x)) {
          throw new IllegalArgumentException("patch " + p.name() + " conflicts with " + x
              + ": a kernel has one or the other");
        }
      }
    }
  }

  /**
   * The rules of a boot task, whoever adds it: a name no other boot task has (boot tasks are
   * found by name: Kernel.task, the lab's probes; forked children may share their parent's
   * comm, as fork() keeps it), and a CPU the machine has. Adds its name to {@code comms}.
   */
  private void checkTask(TaskSpec t, Set<String> comms) {
    if (!comms.add(t.comm())) {
      throw new IllegalArgumentException(
          "two boot tasks named " + t.comm() + " (the kernel's own threads included): give each its own name");
    }
    if (t.cpu() < 0 || t.cpu() >= machine.cpus()) {
      throw new IllegalArgumentException(
          t.comm() + ": no cpu" + t.cpu() + " on a " + machine.cpus() + "-CPU machine");
    }
  }

  /** The timer frequency the kernel will have (HZ; {@link #DEFAULT_HZ} unless set). */
  public int hz() {
    return hz;
  }

  /** The machine this builder builds for. */
  public MachineSpec machine() {
    return machine;
  }

  /** The patches applied, in order. */
  public List<String> patchNames() {
    List<String> out = new ArrayList<>();
    patches.forEach(p -> out.add(p.name()));
    return out;
  }
}
