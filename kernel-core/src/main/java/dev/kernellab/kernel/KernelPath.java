package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Kernel code as data: a small program of the kernel's own primitives, carrying the source
 * location it models. A user program is the same kind of program, run in user mode, that
 * enters the kernel through {@link Builder#syscall}.
 *
 * <pre>{@code
 * final SpinLock dcacheLock = SpinLock.spin("dcache_lock"); // one per kernel
 * static final Site PRUNE_DCACHE = new Site("fs/dcache.c", "prune_dcache", "prune_dcache");
 * final KernelPath prune =
 *     KernelPath.path("fs/dcache.c", "prune_dcache")
 *         .spinLock(dcacheLock)
 *         .loop(PRUNE_DCACHE, Distribution.uniform(0, 400), body -> body.compute(1_800))
 *         .spinUnlock(dcacheLock)
 *         .build();
 * }</pre>
 *
 * <p>Paths are immutable and may be shared by many kernels and threads. Patches do not edit
 * them: a patch attaches operations to a {@link Site} of the kernel it builds, and every loop
 * at that site runs them between its iterations.
 */
public final class KernelPath implements PathView {

  private final String file;
  private final String function;
  private final boolean user;
  private final Op[] ops;
  private final Site site; // for loop bodies: the site of the loop; null otherwise
  private final LatencyCause cause; // declared by the path's author; null for most paths
  // FastForward's plans, decided here: as a loop body, and as a site hook; null if interpreted
  private final byte[] fastForwardBody;
  private final byte[] fastForwardHook;
  private final byte[] fastForwardCall;
  private final long[] fastForwardLengths; // a body of fixed computes, breaks and effects: each compute's length
  // FastForward.bulk's shape of an iteration, as a body or as a hook: its fixed compute time and
  // the compute segments it ends; null if its iterations cannot run as one step
  private final long[] fastForwardBulk;
  private final long[] fastForwardHookBulk;
  // an iteration as FastForward's script runs it, for a user loop body whose faults decide nothing
  private final IterationScript fastForwardScript;

  private KernelPath(String file, String function, boolean user, Op[] ops, Site site, LatencyCause cause) {
    this.file = file;
    this.function = function;
    this.user = user;
    this.ops = ops;
    this.site = site;
    this.cause = cause;
    this.fastForwardScript = IterationScript.of(ops, site, user);
    this.fastForwardCall = FastForward.callPlan(ops, site);
    this.fastForwardBody = FastForward.bodyPlan(ops, site, fastForwardScript != null);
    this.fastForwardHook = FastForward.hookPlan(ops);
    this.fastForwardLengths = FastForward.fixedLengths(ops, fastForwardBody);
    this.fastForwardBulk = FastForward.bulkShape(ops, fastForwardLengths);
    this.fastForwardHookBulk = FastForward.hookBulkShape(ops, fastForwardHook);
  }

  /** Starts a kernel path modelling {@code function} in {@code file}. */
  public static Builder path(String file, String function) {
    return new Builder(file, function, false, null);
  }

  /** Starts a user-mode program named {@code name} (the file is the program's own source). */
  public static Builder userProgram(String name) {
    return new Builder("user:" + name, name, true, null);
  }

  /** The kernel source file. */
  @Override
  public String file() {
    return file;
  }

  /** The C function. */
  @Override
  public String function() {
    return function;
  }

  /** True for user-mode programs. */
  @Override
  public boolean isUser() {
    return user;
  }

  /** The loop site whose body this is, or null for a whole function. */
  @Override
  public Site site() {
    return site;
  }

  /** The cause of latency this path declared ({@link Builder#cause}), if it declared one. */
  @Override
  public java.util.Optional<LatencyCause> cause() {
    return java.util.Optional.ofNullable(cause);
  }

  LatencyCause declaredCause() {
    return cause;
  }

  int size() {
    return ops.length;
  }

  Op op(int i) {
    return ops[i];
  }

  /** The operations themselves, for IterationScript's flattening (never changed). */
  Op[] ops() {
    return ops;
  }

  byte[] fastForwardBody() {
    return fastForwardBody;
  }

  byte[] fastForwardHook() {
    return fastForwardHook;
  }

  long[] fastForwardLengths() {
    return fastForwardLengths;
  }

  long[] fastForwardBulk() {
    return fastForwardBulk;
  }

  long[] fastForwardHookBulk() {
    return fastForwardHookBulk;
  }

  IterationScript fastForwardScript() {
    return fastForwardScript;
  }

  byte[] fastForwardCall() {
    return fastForwardCall;
  }

  /** The listing of the operations, one per line, loop bodies indented. */
  public List<String> listing() {
    List<String> out = new ArrayList<>();
    list(out, "");
    return Collections.unmodifiableList(out);
  }

  private void list(List<String> out, String indent) {
    for (Op op : ops) {
      out.add(indent + op.describe());
      if (op instanceof FlowOps.Loop loop) {
        loop.body.list(out, indent + "    ");
      }
    }
  }

  /**
   * Every site of loops and {@linkplain Builder#point points} in this path and the paths it
   * calls, in program order, each once.
   */
  @Override
  public List<Site> sites() {
    List<Site> out = new ArrayList<>();
    collectSites(out, new ArrayList<>());
    return out;
  }

  private void collectSites(List<Site> out, List<KernelPath> seen) {
    for (KernelPath p : seen) {
      if (p == this) {
        return;
      }
    }
    seen.add(this);
    for (Op op : ops) {
      if (op instanceof FlowOps.Loop loop) {
        if (!out.contains(loop.site)) {
          out.add(loop.site);
        }
        loop.body.collectSites(out, seen);
      } else if (op instanceof FlowOps.Point point) {
        if (!out.contains(point.site)) {
          out.add(point.site);
        }
      } else if (op instanceof FlowOps.Call call) {
        call.target.collectSites(out, seen);
      }
    }
  }

  /** {@code file:function}. */
  @Override
  public String location() {
    return file + ":" + function;
  }

  @Override
  public String toString() {
    return site != null ? site.key() : location();
  }

  /**
   * SPI for patch authors: the site of every {@code might_sleep()} point, where the kernel may
   * sleep (include/linux/kernel.h, 2.5.x and later; 2.4.17 had the places but not the macro):
   * a {@code down()}, a page fault's allocation, {@code do_fork}'s, and each point a path marks
   * with {@link Builder#mightSleep()} (a copy to or from user space, which can fault). A patch
   * that hooks it ({@link Patching#hookSite}) runs its hook at each of them, as
   * CONFIG_PREEMPT_VOLUNTARY's {@code might_resched()} does; no patch, nothing runs. The hook
   * runs in a frame of its own, outside any loop: a counted test in it
   * ({@code CondReschedLock.When.every(n)} with n above 1) counts nothing and never fires.
   */
  public static final Site MIGHT_SLEEP = new Site("include/linux/kernel.h", "might_sleep", "might_sleep");

  /**
   * Builds a path; each method appends the operation of the same kernel name. Methods that
   * only make sense in user mode ({@code syscall}, {@code probe}) or in kernel mode (locks,
   * sleeps) reject the other kind at build time.
   */

  public static final class Builder {
    private final String file;
    private final String function;
    private final boolean user;
    private final Site site;
    private final List<Op> ops = new ArrayList<>();
    private LatencyCause cause;

    private Builder(String file, String function, boolean user, Site site) {
      this.file = Objects.requireNonNull(file, "file");
      this.function = Objects.requireNonNull(function, "function");
      this.user = user;
      this.site = site;
    }

    private Builder add(Op op) {
      ops.add(op);
      return this;
    }

    private Builder acquire(String what, SpinLock lock, LockOps.Form form, boolean read) {
      return kernelOnly(what, new LockOps.Acquire(lock(what, lock), form, read));
    }

    private Builder release(String what, SpinLock lock, LockOps.Form form, boolean read) {
      return kernelOnly(what, new LockOps.Release(lock(what, lock), form, read));
    }

    private SpinLock lock(String what, SpinLock lock) {
      if (lock == null) {
        throw new IllegalArgumentException(what + " in " + file + ":" + function + ": no lock (null)");
      }
      if (lock.isBigKernelLock()) {
        throw new IllegalArgumentException(what + "(&" + lock + ") in " + file + ":" + function
            + ": the big kernel lock is taken with lock_kernel() and dropped with unlock_kernel()"
            + " (lockKernel, unlockKernel), which nest and which schedule() releases and retakes");
      }
      return lock;
    }

    private SpinLock bkl(String what, SpinLock lock) {
      if (lock == null || !lock.isBigKernelLock()) {
        throw new IllegalArgumentException(what + "() in " + file + ":" + function + ": "
            + (lock == null ? "no lock (null)" : lock + " is not the big kernel lock")
            + "; it takes kernel_flag, SpinLock.bigKernelLock()");
      }
      return lock;
    }

    private SpinLock rwlock(String what, SpinLock lock) {
      if (!lock(what, lock).isReaderWriter()) {
        throw new IllegalArgumentException(what + "(" + lock + ") in " + file + ":" + function
            + ": " + lock + " is a spinlock_t; " + what + " takes an rwlock_t (SpinLock.readerWriter)");
      }
      return lock;
    }

    private Builder kernelOnly(String what, Op op) {
      if (user) {
        throw new IllegalStateException(
            what + " in user program " + function + ": only kernel paths may do that");
      }
      return add(op);
    }

    /** Runs for {@code ns} (user or kernel mode, as the path is). */
    public Builder compute(long ns) {
      return add(new FlowOps.Compute(Distribution.fixed(ns)));
    }

    /** Runs for a length drawn from {@code d} each time. */
    public Builder compute(Distribution d) {
      Objects.requireNonNull(d, "compute: d");
      return add(new FlowOps.Compute(d));
    }

    /** {@code spin_lock(lock)}. */
    public Builder spinLock(SpinLock lock) {
      return acquire("spin_lock", lock, LockOps.Form.PLAIN, false);
    }

    /** {@code spin_unlock(lock)}. */
    public Builder spinUnlock(SpinLock lock) {
      return release("spin_unlock", lock, LockOps.Form.PLAIN, false);
    }

    /** {@code spin_lock_irq(lock)}: interrupts off, then the lock. */
    public Builder spinLockIrq(SpinLock lock) {
      return acquire("spin_lock_irq", lock, LockOps.Form.IRQ, false);
    }

    /** {@code spin_unlock_irq(lock)}. */
    public Builder spinUnlockIrq(SpinLock lock) {
      return release("spin_unlock_irq", lock, LockOps.Form.IRQ, false);
    }

    /** {@code spin_lock_irqsave(lock, flags)}. */
    public Builder spinLockIrqSave(SpinLock lock) {
      return acquire("spin_lock_irqsave", lock, LockOps.Form.IRQSAVE, false);
    }

    /** {@code spin_unlock_irqrestore(lock, flags)}. */
    public Builder spinUnlockIrqRestore(SpinLock lock) {
      return release("spin_unlock_irqrestore", lock, LockOps.Form.IRQSAVE, false);
    }

    /** {@code spin_lock_bh(lock)}: bottom halves off, then the lock. */
    public Builder spinLockBh(SpinLock lock) {
      return acquire("spin_lock_bh", lock, LockOps.Form.BH, false);
    }

    /** {@code spin_unlock_bh(lock)}. */
    public Builder spinUnlockBh(SpinLock lock) {
      return release("spin_unlock_bh", lock, LockOps.Form.BH, false);
    }

    /** {@code read_lock(lock)} on an rwlock. */
    public Builder readLock(SpinLock lock) {
      return acquire("read_lock", rwlock("read_lock", lock), LockOps.Form.PLAIN, true);
    }

    /** {@code read_unlock(lock)}. */
    public Builder readUnlock(SpinLock lock) {
      return release("read_unlock", rwlock("read_unlock", lock), LockOps.Form.PLAIN, true);
    }

    /** {@code write_lock(lock)} on an rwlock. */
    public Builder writeLock(SpinLock lock) {
      return acquire("write_lock", rwlock("write_lock", lock), LockOps.Form.PLAIN, false);
    }

    /** {@code write_unlock(lock)}. */
    public Builder writeUnlock(SpinLock lock) {
      return release("write_unlock", rwlock("write_unlock", lock), LockOps.Form.PLAIN, false);
    }

    /**
     * {@code lock_kernel()} of {@code kernelFlag}, the kernel's {@link SpinLock#bigKernelLock()}:
     * nests on the task's {@code lock_depth}; takes the lock at the outermost level where it
     * exists (SMP, or CONFIG_PREEMPT on UP), and on UP without CONFIG_PREEMPT costs nothing. A
     * holder may sleep: {@code schedule()} releases the lock and takes it back.
     */
    public Builder lockKernel(SpinLock kernelFlag) {
      return kernelOnly("lock_kernel", new LockOps.LockKernel(bkl("lock_kernel", kernelFlag)));
    }

    /** {@code unlock_kernel()}: the outermost drops the lock, a preemption point with CONFIG_PREEMPT. */
    public Builder unlockKernel(SpinLock kernelFlag) {
      return kernelOnly("unlock_kernel", new LockOps.UnlockKernel(bkl("unlock_kernel", kernelFlag)));
    }

    /** {@code local_irq_disable()} ({@code cli}). */
    public Builder localIrqDisable() {
      return kernelOnly("local_irq_disable", new IrqOps.IrqDisable());
    }

    /** {@code local_irq_enable()} ({@code sti}); a pending interrupt is taken at once. */
    public Builder localIrqEnable() {
      return kernelOnly("local_irq_enable", new IrqOps.IrqEnable());
    }

    /** {@code local_irq_save(flags)}. */
    public Builder localIrqSave() {
      return kernelOnly("local_irq_save", new IrqOps.IrqSave());
    }

    /** {@code local_irq_restore(flags)}. */
    public Builder localIrqRestore() {
      return kernelOnly("local_irq_restore", new IrqOps.IrqRestore());
    }

    /** {@code preempt_disable()}. */
    public Builder preemptDisable() {
      return kernelOnly("preempt_disable", new IrqOps.PreemptDisable());
    }

    /** {@code preempt_enable()}: may reschedule if the preemption model says so. */
    public Builder preemptEnable() {
      return kernelOnly("preempt_enable", new IrqOps.PreemptEnable(true));
    }

    /** {@code preempt_enable_no_resched()}. */
    public Builder preemptEnableNoResched() {
      return kernelOnly("preempt_enable_no_resched", new IrqOps.PreemptEnable(false));
    }

    /** {@code local_bh_disable()}. */
    public Builder localBhDisable() {
      return kernelOnly("local_bh_disable", new IrqOps.BhDisable());
    }

    /** {@code local_bh_enable()}: runs pending softirqs when the count drops to zero. */
    public Builder localBhEnable() {
      return kernelOnly("local_bh_enable", new IrqOps.BhEnable());
    }

    /**
     * A loop at {@code site}, a site constant of this function ({@code Dcache.PRUNE_DCACHE}),
     * iterations drawn from {@code count}. A site of another file or function is refused, so a
     * patch's hooks and the loop cannot name it two ways.
     */
    public Builder loop(Site site, Distribution count, Consumer<Builder> body) {
      Objects.requireNonNull(site, "loop: site");
      Objects.requireNonNull(count, "loop: count");
      Objects.requireNonNull(body, "loop: body");
      Site s = own(site);
      return add(new FlowOps.Loop(s, count, body(s, body)));
    }

    /**
     * A site in straight-line code, a constant of this function: where a patch may hook code
     * that runs once when the path gets there (a reschedule point after a statement). Runs
     * nothing in a kernel whose patches hook nothing there.
     */
    public Builder point(Site site) {
      return kernelOnly("point", new FlowOps.Point(own(site)));
    }

    /**
     * A place where this code may sleep without going to sleep (a copy to or from user space
     * that can fault, a GFP_KERNEL allocation): runs what patches hooked at
     * {@link KernelPath#MIGHT_SLEEP}, nothing in a kernel whose patches hook nothing there.
     */
    public Builder mightSleep() {
      return kernelOnly("might_sleep", new FlowOps.MightSleep());
    }

    /** {@link #loop(Site, Distribution, Consumer)} with a fixed count. */
    public Builder loop(Site site, long count, Consumer<Builder> body) {
      Objects.requireNonNull(site, "loop: site");
      Objects.requireNonNull(body, "loop: body");
      return loop(site, Distribution.fixed(count), body);
    }

    /** {@link #loop(Site, Distribution, Consumer)} with a count worked out on entry. */
    public Builder loop(Site site, Count count, Consumer<Builder> body) {
      Objects.requireNonNull(site, "loop: site");
      Objects.requireNonNull(count, "loop: count");
      Objects.requireNonNull(body, "loop: body");
      Site s = own(site);
      return add(new FlowOps.Loop(s, count, body(s, body)));
    }

    /**
     * A kernel loop at {@code site} that tests {@code condition} before every iteration and runs
     * at most {@code max} iterations (worked out on entry): the kernel's
     * {@code for (;;) { if (!cond) break; ... }} over a list that its own body may lengthen, as
     * {@code net_rx_action} drains a backlog its packets refill, or {@code run_timer_list} runs
     * the timers expired now.
     */
    public Builder loopWhile(Site site, Count max, Guard condition, Consumer<Builder> body) {
      Site s = own(site);
      return kernelOnly("loop " + site.key(),
          new FlowOps.Loop(s, max, Objects.requireNonNull(condition, "condition"), body(s, body)));
    }

    /**
     * A loop of a user program labelled {@code label} (its site is
     * {@code user:program:program#label}), iterations drawn from {@code count}. Kernel code
     * loops at a {@link Site} constant instead: a user program is not kernel code a patch may
     * hook, and its name is often made per instance ({@code cyclictest0}, {@code dbench3}), so
     * it has no site to declare once.
     *
     * @throws IllegalStateException on a kernel path
     */
    public Builder loop(String label, Distribution count, Consumer<Builder> body) {
      Objects.requireNonNull(label, "loop: label");
      Objects.requireNonNull(count, "loop: count");
      Objects.requireNonNull(body, "loop: body");
      Site s = userSite("loop", label);
      return add(new FlowOps.Loop(s, count, body(s, body)));
    }

    /** {@link #loop(String, Distribution, Consumer)} with a fixed count. */
    public Builder loop(String label, long count, Consumer<Builder> body) {
      Objects.requireNonNull(label, "loop: label");
      Objects.requireNonNull(body, "loop: body");
      return loop(label, Distribution.fixed(count), body);
    }

    private Site own(Site site) {
      if (!site.file().equals(file) || !site.function().equals(function)) {
        throw new IllegalArgumentException("site " + site.key() + " is not in " + file + ":" + function);
      }
      return site;
    }

    private Site userSite(String what, String label) {
      if (!user) {
        throw new IllegalStateException(what + "(\"" + label + "\", ...) in kernel path " + file + ":"
            + function + ": a kernel loop is at a Site constant of its function; labels are for"
            + " user programs");
      }
      return new Site(file, function, label);
    }

    private KernelPath body(Site site, Consumer<Builder> body) {
      Builder b = new Builder(file, function, user, site);
      body.accept(b);
      return b.build();
    }

    /** Calls another path (kernel paths only call kernel paths). */
    public Builder call(KernelPath target) {
      Objects.requireNonNull(target, "call: target");
      if (target.isUser()) {
        throw new IllegalArgumentException("cannot call user program " + target.function());
      }
      return kernelOnly("a call of " + target.function(), new FlowOps.Call(target));
    }

    /** Calls {@code target} only if {@code guard} says so, described as {@code description}. */
    public Builder callIf(String description, Guard guard, KernelPath target) {
      Objects.requireNonNull(description, "callIf: description");
      Objects.requireNonNull(guard, "callIf: guard");
      Objects.requireNonNull(target, "callIf: target");
      if (target.isUser()) {
        throw new IllegalArgumentException("cannot call user program " + target.function());
      }
      return kernelOnly("a call of " + target.function(), new FlowOps.CallIf(description, guard, target, null));
    }

    /** Calls {@code target} if {@code guard} says so, else {@code otherwise}. */
    public Builder callIfElse(String description, Guard guard, KernelPath target, KernelPath otherwise) {
      Objects.requireNonNull(description, "callIfElse: description");
      Objects.requireNonNull(guard, "callIfElse: guard");
      Objects.requireNonNull(target, "callIfElse: target");
      Objects.requireNonNull(otherwise, "callIfElse: otherwise");
      if (target.isUser() || otherwise.isUser()) {
        throw new IllegalArgumentException("cannot call a user program");
      }
      return kernelOnly("a call of " + target.function(),
          new FlowOps.CallIf(description, guard, target, otherwise));
    }

    /** {@code down(sem)}: sleep uninterruptibly until a slot is free, then take it. */
    public Builder down(Semaphore sem) {
      Objects.requireNonNull(sem, "down: sem");
      return kernelOnly("down", new TaskOps.WaitEvent(
          sem.waitQueue(), sem::tryDown, TaskState.UNINTERRUPTIBLE, true, "down(&" + sem.name() + ")", true));
    }

    /**
     * {@code rt_mutex_lock(m)}: sleep uninterruptibly until the mutex is free, lending its
     * owner this task's real-time priority meanwhile (priority inheritance), then take it.
     */
    public Builder rtMutexLock(RtMutex m) {
      Objects.requireNonNull(m, "rtMutexLock: m");
      return kernelOnly("rt_mutex_lock", new RtMutexOps.Lock(m));
    }

    /** {@code rt_mutex_unlock(m)}: wake the first waiter and give back what its waiters lent. */
    public Builder rtMutexUnlock(RtMutex m) {
      Objects.requireNonNull(m, "rtMutexUnlock: m");
      return kernelOnly("rt_mutex_unlock", new RtMutexOps.Unlock(m));
    }

    /** {@code if (!down_trylock(sem)) target();}: {@code target} runs holding the semaphore. */
    public Builder callIfDownTrylock(Semaphore sem, KernelPath target) {
      Objects.requireNonNull(sem, "callIfDownTrylock: sem");
      Objects.requireNonNull(target, "callIfDownTrylock: target");
      return callIf("!down_trylock(&" + sem.name() + ")", c -> sem.tryDown(), target);
    }

    /** {@code up(sem)}: release a slot and wake one sleeper. */
    public Builder up(Semaphore sem) {
      Objects.requireNonNull(sem, "up: sem");
      effect("up(&" + sem.name() + ")", c -> sem.up());
      return wakeUp(sem.waitQueue());
    }

    /** {@code set_current_state(state)}. */
    public Builder setState(TaskState state) {
      Objects.requireNonNull(state, "setState: state");
      return kernelOnly("set_current_state", new FlowOps.SetState(state));
    }

    /** {@code interruptible_sleep_on(wq)}: sleep until woken. */
    public Builder sleepOn(WaitQueue wq) {
      Objects.requireNonNull(wq, "sleepOn: wq");
      return kernelOnly("sleep_on", new TaskOps.WaitEvent(wq, null, TaskState.INTERRUPTIBLE, false));
    }

    /** {@code wait_event_interruptible(wq, condition)}. */
    public Builder waitEvent(WaitQueue wq, WaitCondition condition) {
      Objects.requireNonNull(wq, "waitEvent: wq");
      Objects.requireNonNull(condition, "waitEvent: condition");
      return kernelOnly(
          "wait_event", new TaskOps.WaitEvent(wq, condition, TaskState.INTERRUPTIBLE, false));
    }

    /** {@code wait_event(wq, condition)} in TASK_UNINTERRUPTIBLE (disk waits). */
    public Builder waitEventUninterruptible(WaitQueue wq, WaitCondition condition) {
      Objects.requireNonNull(wq, "waitEventUninterruptible: wq");
      Objects.requireNonNull(condition, "waitEventUninterruptible: condition");
      return kernelOnly(
          "wait_event", new TaskOps.WaitEvent(wq, condition, TaskState.UNINTERRUPTIBLE, false));
    }

    /** {@code wake_up(wq)}: every non-exclusive waiter and one exclusive one. */
    public Builder wakeUp(WaitQueue wq) {
      Objects.requireNonNull(wq, "wakeUp: wq");
      return kernelOnly("wake_up", new TaskOps.WakeUp(wq, false));
    }

    /**
     * {@code wake_up_sync(wq)} ({@code __wake_up_sync}, kernel/sched.c 2.4.17): the waker is
     * about to sleep, so {@code try_to_wake_up(p, 1)} skips {@code reschedule_idle} when p may
     * run on this CPU: no other CPU is disturbed, and p runs here when the waker blocks.
     */
    public Builder wakeUpSync(WaitQueue wq) {
      Objects.requireNonNull(wq, "wakeUpSync: wq");
      return kernelOnly("wake_up_sync", new TaskOps.WakeUp(wq, true));
    }

    /** {@code raise_softirq(nr)} / {@code mark_bh}. */
    public Builder raiseSoftirq(Softirq s) {
      Objects.requireNonNull(s, "raiseSoftirq: s");
      return kernelOnly("raise_softirq", new IrqOps.RaiseSoftirq(s));
    }

    /** {@code schedule()}. */
    public Builder schedule() {
      return kernelOnly("schedule", new SchedOps.CallSchedule());
    }

    /**
     * {@code sys_sched_yield()}'s scheduler half: the policy's {@link Scheduler#yield} for the
     * current task, then {@code schedule()} if the policy says the task should give up the CPU
     * (2.4.17: another task is runnable; 2.5.5: always). A catalog's system call puts its own
     * cost before it.
     */
    public Builder schedYield() {
      return kernelOnly("sched_yield", new SchedOps.Yield());
    }

    /** {@code cond_resched()}: {@code if (need_resched) schedule();}, a reschedule point. */
    public Builder condResched() {
      return kernelOnly("cond_resched", new SchedOps.CondResched());
    }

    /**
     * A patch's {@code conditional_schedule()} behind a test of its own, read as
     * {@code description} in listings: when {@code when} is due (the low-latency patch's
     * {@code TEST_RESCHED_COUNT(n)}: the sysctl, and every n + 1 iterations of the loop around
     * it), {@code cond_resched()}; otherwise nothing. The count is that of the loop whose site
     * the hook is installed at; at a point or at {@link KernelPath#MIGHT_SLEEP} there is none. No
     * lock is dropped; to break one, see
     * {@link #condReschedLock(String, List, CondReschedLock.When, CondReschedLock.Then, long)}.
     */
    public Builder condResched(String description, CondReschedLock.When when) {
      Objects.requireNonNull(when, "condResched: when");
      return kernelOnly("cond_resched", new SchedOps.CondResched(description, when));
    }

    /**
     * {@code cond_resched_lock(lock)}: if a reschedule is due, drop {@code lock}, schedule,
     * retake it, then pay {@code revalidateNs} to revalidate (restart a list walk, re-find a
     * page). See {@link CondReschedLock}.
     */
    public Builder condReschedLock(SpinLock lock, long revalidateNs) {
      return kernelOnly("cond_resched_lock", new CondReschedLock.Break(
          "cond_resched_lock(&" + lock("cond_resched_lock", lock).name() + ")", List.of(lock),
          CondReschedLock.When.needResched(), CondReschedLock.Then.SCHEDULE, revalidateNs));
    }

    /**
     * The lock break as a patch writes it, described as {@code description} (the patch's macro,
     * for listings): when {@code when} says so, drop {@code locks} (listed outermost first)
     * innermost first, run {@code then}, retake them outermost first and pay
     * {@code revalidateNs}. See {@link CondReschedLock}.
     */
    public Builder condReschedLock(String description, List<SpinLock> locks, CondReschedLock.When when,
        CondReschedLock.Then then, long revalidateNs) {
      return kernelOnly("cond_resched_lock", new CondReschedLock.Break(description, locks, when, then, revalidateNs));
    }

    /**
     * {@code do_fork()}: a child named {@code comm} runs the user program {@code program} (a
     * copy of the parent's mm). Kernel threads are boot tasks ({@link TaskSpec#kernelThread}).
     */
    public Builder fork(String comm, KernelPath program) {
      return kernelOnly("do_fork", new TaskOps.Fork(comm, checkChild("do_fork", comm, program), false));
    }

    /**
     * {@code do_fork(CLONE_VFORK | CLONE_VM)}, as sys_vfork calls it (arch/i386/kernel/process.c,
     * 2.4.17): a child named {@code comm} runs the user program {@code program} in the parent's
     * own mm (copy_mm takes a reference, no dup_mmap), and the parent sleeps, uninterruptibly,
     * until the child's exec or exit releases the mm ({@link #mmRelease()}, or do_exit).
     */
    public Builder vfork(String comm, KernelPath program) {
      return kernelOnly("vfork", new TaskOps.Fork(comm, checkChild("vfork", comm, program), true));
    }

    private KernelPath checkChild(String what, String comm, KernelPath program) {
      if (comm == null || comm.isBlank()) {
        throw new IllegalArgumentException(what + " in " + file + ":" + function + ": the child needs a name");
      }
      if (program == null) {
        throw new IllegalArgumentException(what + " of " + comm + " in " + file + ":" + function
            + ": the child needs a program");
      }
      if (!program.isUser()) {
        throw new IllegalArgumentException(what + " of " + comm + " in " + file + ":" + function
            + ": " + program + " is a kernel path; a forked child runs a user program"
            + " (KernelPath.userProgram)");
      }
      return program;
    }

    /**
     * {@code mm_release()} (kernel/fork.c 2.4.17): a vforked child gives its parent's mm back,
     * waking the parent asleep in vfork; nothing for any other task. exec calls it in
     * exec_mmap, exit in __exit_mm.
     */
    public Builder mmRelease() {
      return kernelOnly("mm_release", new TaskOps.MmRelease());
    }

    /**
     * exec_mmap's move to a new address space when the task's mm has other users (a vforked
     * child execs while its parent sleeps on the same mm): the task gets a new, empty mm
     * (mm_alloc) and drops its reference to the old one (mmput), which stays whole for the
     * others. Nothing for a task that is its mm's only user: exec reuses that mm, and the
     * caller tears it down (exit_mmap). See {@link Mm#users()}.
     */
    public Builder replaceSharedMm() {
      return kernelOnly("exec_mmap", new TaskOps.ReplaceSharedMm());
    }

    /** {@code do_exit()}. */
    public Builder exit() {
      return kernelOnly("do_exit", new TaskOps.Exit());
    }

    /** {@code schedule_timeout(ns)} in TASK_INTERRUPTIBLE, rounded up to whole jiffies. */
    public Builder sleepFor(long ns) {
      return sleepFor(Distribution.fixed(ns));
    }

    /** {@code schedule_timeout} of a drawn length. */
    public Builder sleepFor(Distribution ns) {
      Objects.requireNonNull(ns, "sleepFor: ns");
      return kernelOnly("schedule_timeout", new TaskOps.SleepTimeout(ns, false));
    }

    /**
     * The sleep of {@code sys_nanosleep} (2.4.17): whole jiffies plus one, and a busy-wait
     * instead for a real-time task asking for 2 ms or less.
     */
    public Builder nanosleep(Distribution ns) {
      Objects.requireNonNull(ns, "nanosleep: ns");
      return kernelOnly("sys_nanosleep", new TaskOps.SleepTimeout(ns, true));
    }

    /** {@code sys_nanosleep} of a length worked out at the call (a caller's remaining time). */
    public Builder nanosleep(Count ns) {
      Objects.requireNonNull(ns, "nanosleep: ns");
      return kernelOnly("sys_nanosleep", new TaskOps.SleepTimeout(ns, "worked out at the call", true));
    }

    /**
     * Block I/O: submit {@code sectors} sectors at {@code lba} to the IDE disk and sleep in
     * TASK_UNINTERRUPTIBLE until the interrupt handler completes them.
     */
    public Builder diskIo(Distribution lba, Distribution sectors, boolean write) {
      Objects.requireNonNull(lba, "diskIo: lba");
      Objects.requireNonNull(sectors, "diskIo: sectors");
      return kernelOnly("submit_bh", new IoOps.DiskIo(lba, sectors, write));
    }

    /** Block I/O at an LBA and of a size worked out when the code gets here. */
    public Builder diskIo(Count lba, Count sectors, boolean write) {
      Objects.requireNonNull(lba, "diskIo: lba");
      Objects.requireNonNull(sectors, "diskIo: sectors");
      return kernelOnly("submit_bh", new IoOps.DiskIo(lba, sectors, "some", write));
    }

    /**
     * A page fault taken here (by user code, or by kernel code touching user memory): the
     * {@code handler} runs in kernel mode, then {@code ret_from_exception}, which under
     * CONFIG_PREEMPT is a preemption point when it returns into kernel code.
     */
    public Builder pageFault(KernelPath handler) {
      Objects.requireNonNull(handler, "pageFault: handler");
      if (handler.isUser()) {
        throw new IllegalArgumentException("a fault handler must be a kernel path");
      }
      return add(new TaskOps.Fault(handler));
    }

    /** A user-space measurement, taken when the program reaches this point. */
    public Builder probe(UserProbe p) {
      Objects.requireNonNull(p, "probe: p");
      if (!user) {
        throw new IllegalStateException("probe in kernel path " + function + ": probes run in user mode");
      }
      return add(new TaskOps.Probe(p));
    }

    /** Zero-time driver code, described for listings. */
    public Builder effect(String description, Action action) {
      Objects.requireNonNull(description, "effect: description");
      Objects.requireNonNull(action, "effect: action");
      return add(new FlowOps.Effect(description, action));
    }

    /**
     * An effect on the model's own counts only: the action reads no clock, no compute time or
     * event count, and of the CPU's frames only the loop's iteration number
     * ({@code KernelCpu.loopIndex}); it draws from no random stream; it wakes, arms, raises,
     * locks or schedules nothing, throws nothing, and changes nothing that a lock, the
     * scheduler, the preemption model, a tracer or a lock break's test
     * ({@code CondReschedLock.When}) looks at (a cache's free-object count, a list's length).
     * Fast-forward may then run a loop's iterations as one step, running these actions back to
     * back before the clock moves ({@code FastForward}); an action that breaks the promise makes
     * the results differ with fast-forward on and off ({@code -Dkernellab.fastForward=false}).
     * Otherwise as {@link #effect}.
     */
    public Builder bookkeeping(String description, Action action) {
      Objects.requireNonNull(description, "bookkeeping: description");
      Objects.requireNonNull(action, "bookkeeping: action");
      return add(new FlowOps.Effect(description, action, true));
    }

    /** A system call from a user program: entry, {@code body} in kernel mode, return to user. */
    public Builder syscall(KernelPath body) {
      Objects.requireNonNull(body, "syscall: body");
      if (!user) {
        throw new IllegalStateException(
            "syscall in kernel path " + function + ": only user programs make system calls");
      }
      if (body.isUser()) {
        throw new IllegalArgumentException("a system call body must be a kernel path");
      }
      return add(new TaskOps.Syscall(body, null));
    }

    /**
     * A system call with arguments: {@code args} is asked for them at the instant of the call,
     * and {@code body} finds them with {@link KernelCpu#syscallArgs(Class)}.
     */
    public Builder syscall(KernelPath body, SyscallArgs<?> args) {
      syscall(body);
      ops.set(ops.size() - 1, new TaskOps.Syscall(body, java.util.Objects.requireNonNull(args, "args")));
      return this;
    }

    /**
     * Kernel code calling a function with arguments, as a kernel thread does (nfsd calling
     * the file system): what {@link KernelCpu#syscallArgs(Class)} returns from here until the
     * task's next system call.
     */
    public Builder args(SyscallArgs<?> args) {
      java.util.Objects.requireNonNull(args, "args");
      return kernelOnly("args", new FlowOps.Effect("(arguments)", c -> c.current.syscallArgs = args.at(c)));
    }

    /**
     * {@code while (condition) body;}: a loop of a user program, labelled as in
     * {@link #loop(String, Distribution, Consumer)}, that tests {@code condition} before every
     * iteration (a user program's "until the phase is over").
     *
     * @throws IllegalStateException on a kernel path
     */
    public Builder loopWhile(String label, Guard condition, Consumer<Builder> body) {
      Objects.requireNonNull(label, "loopWhile: label");
      Objects.requireNonNull(condition, "loopWhile: condition");
      Objects.requireNonNull(body, "loopWhile: body");
      Site s = userSite("loopWhile", label);
      return add(new FlowOps.Loop(s, c -> Long.MAX_VALUE, condition, body(s, body)));
    }

    /** Runs for a length worked out when the code gets here, described as {@code what}. */
    public Builder compute(String what, Count ns) {
      Objects.requireNonNull(what, "compute: what");
      Objects.requireNonNull(ns, "compute: ns");
      return add(new FlowOps.DynamicCompute(what, (k, c) -> ns.at(c)));
    }

    /** Appends an already-built operation (for patches and extensions in this package). */
    Builder op(Op op) {
      return add(op);
    }

    /** Appends a primitive defined outside the kernel (a patch's macro): see {@link Operation}. */
    public Builder op(Operation operation) {
      return kernelOnly(operation.describe(), new FlowOps.Custom(Objects.requireNonNull(operation, "operation")));
    }

    /**
     * Declares the cause of latency this path stands for ({@link LatencyCause}): a latency
     * analysis reports it for the time spent in this path and in what it calls, unless a path
     * called declares its own.
     */
    public Builder cause(LatencyCause c) {
      this.cause = Objects.requireNonNull(c, "cause");
      return this;
    }

    /** The path. */
    public KernelPath build() {
      return new KernelPath(file, function, user, ops.toArray(new Op[0]), site, cause);
    }
  }

  /** A kernel-internal program of {@code ops} that declares {@code cause}. */
  static KernelPath of(String file, String function, LatencyCause cause, Op... ops) {
    return new KernelPath(file, function, false, Arrays.copyOf(ops, ops.length), null, cause);
  }

  /** Builds a path of the given operations (for patches and kernel-internal programs). */
  static KernelPath of(String file, String function, boolean user, Op... ops) {
    return new KernelPath(file, function, user, Arrays.copyOf(ops, ops.length), null, null);
  }
}
