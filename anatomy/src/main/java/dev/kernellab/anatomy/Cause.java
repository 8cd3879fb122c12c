package dev.kernellab.anatomy;

import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.workloads.ProbeSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a part of a latency sample took the time it took, as the kernel's state showed it: a
 * closed set of types, each with its task, path, lock and lengths as fields. Causes of the wait
 * for the CPU are {@link Holding}s: what held the CPU, for how long; a patch or a path catalog
 * adds a cause of its own through {@link Declared}, carrying the patch's {@link LatencyCause}.
 *
 * <pre>
 * Cause
 *   TimerRounding                     timer granularity
 *   TakenAtOnce, EarlierInterrupt     interrupt latency (and InterruptsOff, below)
 *   Handler                           handler (and handler thread)
 *   SoftirqThread                     handler thread, for a timer's expiry
 *   AlreadyRunnable, SwitchedAtOnce   wait for the CPU, when nothing held it
 *   ReturnToUser                      switch to user
 *   Holding                           wait for the CPU: what held it, for ns
 *     PriorityNotLower                a real-time holder the waiter could not preempt, and
 *                                     what it ran (a Holding a higher priority preempts)
 *     Idle, UserMode, InterruptHandler, SoftirqRunning, OtherHolders
 *     InKernelCode                    a task in kernel code: task, path, ns
 *       InterruptsOff, SpinlockHeld, BigKernelLockHeld, BottomHalvesOff, PreemptCountHeld,
 *       LentPriority, NotPreemptible, Declared
 * </pre>
 */
public sealed interface Cause
    permits Cause.TimerRounding, Cause.TakenAtOnce, Cause.EarlierInterrupt, Cause.Handler,
        Cause.SoftirqThread, Cause.AlreadyRunnable, Cause.SwitchedAtOnce, Cause.ReturnToUser,
        Cause.Holding {

  /**
   * The probe's timer expired between two ticks and ran at the next tick its timer list
   * reached ({@code run_timer_list}, kernel/timer.c 2.4.17; {@code sys_nanosleep} adds a
   * jiffy).
   *
   * @param expiryNs the instant the probe asked to wake at
   * @param tickNs the assertion of the tick whose timer list woke it
   * @param hz the kernel's timer frequency
   */
  record TimerRounding(long expiryNs, long tickNs, int hz) implements Cause {}

  /** The interrupt was taken as it was asserted. */
  record TakenAtOnce() implements Cause {}

  /**
   * The interrupt waited, and no task path kept interrupts off over its assertion: another
   * interrupt's handler ran first, or interrupts were off in an interrupt.
   */
  record EarlierInterrupt() implements Cause {}

  /**
   * The handler of the probe's line ran, with the softirqs and interrupts it let in, until it
   * woke the probe.
   *
   * @param irq the probe's IRQ line
   */
  record Handler(int irq) implements Cause {}

  /**
   * Where softirqs run in threads, the timer's softirqs ran in their thread ({@code ktimers/N})
   * until its timer list woke the probe, with whatever interrupted or preempted the thread.
   *
   * @param thread the timer softirq thread
   */
  record SoftirqThread(TaskId thread) implements Cause {}

  /**
   * The probe was not woken for this sample: it was already runnable (realfeel with an
   * interrupt pending at its read) or did not sleep (a real-time {@code nanosleep} of 2 ms or
   * less busy-waits, kernel/timer.c 2.4.17).
   *
   * @param start what the probe's samples are measured from
   */
  record AlreadyRunnable(ProbeSpec.Start start) implements Cause {}

  /** The probe was woken and switched to at the same instant. */
  record SwitchedAtOnce() implements Cause {}

  /** {@code schedule()}'s end, the context switch and the return to user mode. */
  record ReturnToUser() implements Cause {}

  /**
   * What held the CPU a woken probe waited for, and for how long. A holding of a real-time task
   * that the waiter could not preempt by priority comes wrapped in a {@link PriorityNotLower},
   * whose {@link PriorityNotLower#held() held()} is what the task ran: test a holder's kind
   * through {@link Cause#unwrapped}, e.g.
   * {@code Cause.unwrapped(s.culprit()) instanceof Cause.UserMode u}.
   */
  sealed interface Holding extends Cause
      permits Idle, UserMode, InterruptHandler, SoftirqRunning, OtherHolders, InKernelCode,
          PriorityNotLower {
    /** How long it held the CPU while the probe waited, ns. */
    long ns();
  }

  /**
   * {@code c} without a {@link PriorityNotLower} around it: what the holder ran, in the terms
   * of a holder of any priority; {@code c} itself if it is no such wrapper.
   */
  static Cause unwrapped(Cause c) {
    return c instanceof PriorityNotLower p ? p.held() : c;
  }

  /**
   * The waiter, a real-time task (the probe, or the probe line's handler thread), could not
   * preempt the task that held the CPU because that task's own real-time priority was not
   * lower than the waiter's: a scheduler preempts only for a higher priority, and SCHED_FIFO
   * queues a woken task behind the running one of its priority ({@code wake_up_process} and
   * {@code preempt_condition}, kernel/sched.c 2.4.17 and sched-O1;
   * {@code check_preempt_curr_rt}, kernel/sched/rt.c of 6.12). The waiter's priority is the one
   * it was scheduled at when its wait began, a priority lent to it included.
   *
   * <p>It is claimed only where a higher priority would have let the waiter run, that is where
   * {@code held} could have been preempted ({@link #preemptibleByPriority}): user mode, or
   * kernel code that kept the CPU by nothing but its priority: a priority lent to it
   * ({@link LentPriority}: it holds sleeping locks only) or, in a preemptible kernel, code that
   * holds nothing that keeps the CPU ({@link NotPreemptible} with
   * {@code kernelPreemptible()}: a sleeping spinlock, which a CPU does not count as held). A
   * holding that keeps the CPU by itself stays as it is, whatever the holder's priority:
   * interrupts off, a spinning lock (a raw one where spinlocks sleep), a spinning big kernel
   * lock, bottom halves off, a preempt count, kernel code of a kernel without CONFIG_PREEMPT, a
   * cause a path declared, an interrupt or softirq, the idle task. A holder on a priority lent
   * to it that is not below the waiter's is wrapped around its {@link LentPriority}; a holder
   * of lower priority is never this.
   *
   * @param held what the holder ran, one that {@link #preemptibleByPriority} accepts
   * @param holder the task that held the CPU
   * @param policy its policy, SCHED_FIFO or SCHED_RR
   * @param priority its own real-time priority, the highest it ran on in this holding
   * @param waiter the task that waited
   * @param waiterPriority the real-time priority the waiter was scheduled at when its wait began
   *     ({@code TaskView.effectiveRtPriority()}: a loan counts)
   */
  record PriorityNotLower(Holding held, TaskId holder, SchedPolicy policy, int priority,
      TaskId waiter, int waiterPriority) implements Holding {
    /** Checks the holder outranks or equals the waiter and a priority could end {@code held}. */
    public PriorityNotLower {
      Objects.requireNonNull(held, "held");
      Objects.requireNonNull(holder, "holder");
      Objects.requireNonNull(waiter, "waiter");
      if (!preemptibleByPriority(held)) {
        throw new IllegalArgumentException("a priority cause holds what a higher priority"
            + " preempts, not " + held.getClass().getSimpleName());
      }
      if (!policy.isRealTime() || priority < waiterPriority) {
        throw new IllegalArgumentException(holder + " on " + policy + " " + priority
            + " does not hold off " + waiter + " on " + waiterPriority);
      }
    }

    /**
     * Whether a task of higher priority would have preempted a holder that ran {@code h}:
     * user mode, a {@link LentPriority}, or a {@link NotPreemptible} in a preemptible kernel;
     * no other holding (see the class's rule).
     */
    public static boolean preemptibleByPriority(Holding h) {
      return h instanceof UserMode || h instanceof LentPriority
          || h instanceof NotPreemptible n && n.kernelPreemptible();
    }

    @Override
    public long ns() {
      return held.ns();
    }
  }

  /**
   * The CPU was idle: the idle task leaving its loop for {@code schedule()}.
   *
   * @param idle the idle task
   * @param ns how long
   */
  record Idle(TaskId idle, long ns) implements Holding {}

  /**
   * A task ran in user mode: it is preempted on the way back from the interrupt that woke the
   * probe, or from the next one.
   *
   * @param task the task
   * @param ns how long
   */
  record UserMode(TaskId task, long ns) implements Holding {}

  /**
   * An interrupt handler ran (hardirq context, on the interrupted task's stack).
   *
   * @param handler the handler's path
   * @param task the task it interrupted
   * @param ns how long
   */
  record InterruptHandler(PathView handler, TaskId task, long ns) implements Holding {}

  /**
   * Softirqs ran on an interrupt's way out or at {@code local_bh_enable()} ({@code do_softirq},
   * kernel/softirq.c 2.4.17), above a task.
   *
   * @param path the softirq's path
   * @param task the task they ran above
   * @param ns how long
   */
  record SoftirqRunning(PathView path, TaskId task, long ns) implements Holding {}

  /**
   * Holders beyond the ones kept one by one: so many paths took turns that the least of them
   * were added up here, and the holders still add up to the wait.
   *
   * @param count how many holders were merged
   * @param ns their time together
   */
  record OtherHolders(int count, long ns) implements Holding {}

  /** A task in kernel code: which task, in which path (and loop site), for how long. */
  sealed interface InKernelCode extends Holding
      permits InterruptsOff, SpinlockHeld, BigKernelLockHeld, BottomHalvesOff, PreemptCountHeld,
          LentPriority, NotPreemptible, Declared {
    /** The task. */
    TaskId task();

    /** The path it ran; a loop body's path has the loop's {@link PathView#site() site}. */
    PathView path();

    /**
     * How many iterations the loop at the path's site ran, if it ended in this stretch (the
     * buffers completed, the ptes walked: what made it long); 0 if it is no loop or did not end.
     */
    long iterations();
  }

  /**
   * Interrupts were off in a path: over the probe's interrupt's assertion (the interrupt
   * latency), or while the probe waited, so no interrupt could end the wait.
   *
   * @param task the task that ran the path
   * @param path the path that turned them off
   * @param ns how long they were off (interrupt latency) or the path held the CPU (a wait)
   */
  record InterruptsOff(TaskId task, PathView path, long ns, long iterations)
      implements InKernelCode {}

  /**
   * A preemptible kernel could not preempt a task holding a spinlock ({@code spin_lock()}
   * raises the preempt count, preempt-kernel-rml-2.4.17-1 include/linux/spinlock.h).
   *
   * @param task the holder
   * @param path where it ran
   * @param lock the innermost lock it held
   * @param ns how long
   * @param raw whether this spinlock spins where the kernel's {@code spinlock_t} sleeps
   *     ({@code KernelView.spinlocksSleep()}): a {@code raw_spinlock_t} (an rwlock is not called
   *     raw)
   */
  record SpinlockHeld(TaskId task, PathView path, LockView lock, long ns, long iterations,
      boolean raw) implements InKernelCode {
    /** A spinlock in a kernel whose spinlocks all spin. */
    public SpinlockHeld(TaskId task, PathView path, LockView lock, long ns, long iterations) {
      this(task, path, lock, ns, iterations, false);
    }
  }

  /**
   * A task that held nothing that keeps it on the CPU ran there on a priority a waiter lent it:
   * it owns an {@code rt_mutex} (a sleeping spinlock, the sleeping big kernel lock) that a
   * real-time task sleeps on, which lends it its priority along the chain of owners
   * (kernel/locking/rtmutex.c of 6.12, {@code rt_mutex_adjust_prio_chain}), so a task of that
   * priority or lower waits for the lock to be dropped.
   *
   * <p>The loan is the one the task had when each stretch of its began (a path entered or
   * left, a lock, an interrupt, a switch): a loan given or taken back in the middle of a stretch
   * shows from the next one, as no tracer event marks it.
   *
   * @param task the owner
   * @param path where it ran
   * @param priority the highest real-time priority it ran on
   * @param ns how long
   * @param iterations as {@link InKernelCode#iterations()}
   * @param chain who lent it, as the loan of {@code priority} was when a stretch began: first the
   *     task that waits for a lock {@code task} owns, then, where that waiter ran on a loan too,
   *     the task that lent it, and so on along the chain of owners (at most
   *     {@link #MAX_CHAIN} links; empty where the loan's source was not seen)
   */
  record LentPriority(TaskId task, PathView path, int priority, long ns, long iterations,
      List<Loan> chain) implements InKernelCode {
    /** The links kept of a chain: rt_mutex chains longer than a few owners are a design's bug. */
    public static final int MAX_CHAIN = 4;

    /** Copies the chain. */
    public LentPriority {
      chain = List.copyOf(chain);
    }

    /** A loan whose lender is not known. */
    public LentPriority(TaskId task, PathView path, int priority, long ns, long iterations) {
      this(task, path, priority, ns, iterations, List.of());
    }
  }

  /**
   * One link of a priority-inheritance chain: {@code lender} sleeps on the {@code rt_mutex} of
   * {@code lock}, which the task it lends to owns.
   *
   * @param lender the waiting task
   * @param lock the lock it waits for, a sleeping spinlock or {@code kernel_flag}
   *     ({@code TaskView.blockedOnLock()})
   */
  record Loan(TaskId lender, LockView lock) {
    /** Checks both are given. */
    public Loan {
      Objects.requireNonNull(lender, "lender");
      Objects.requireNonNull(lock, "lock");
    }
  }

  /**
   * A preemptible kernel could not preempt a task holding the big kernel lock (a spinlock on UP
   * too under the preempt-kernel patch).
   *
   * @param task the holder
   * @param path where it ran
   * @param lock the kernel's big kernel lock ({@link LockView#isBigKernelLock()})
   * @param ns how long
   */
  record BigKernelLockHeld(TaskId task, PathView path, LockView lock, long ns, long iterations)
      implements InKernelCode {}

  /**
   * A preemptible kernel could not preempt a task with bottom halves disabled
   * ({@code local_bh_disable()}, counted in the preempt count).
   *
   * @param task the task
   * @param path where it ran
   * @param ns how long
   */
  record BottomHalvesOff(TaskId task, PathView path, long ns, long iterations)
      implements InKernelCode {}

  /**
   * A preemptible kernel could not preempt a task whose preempt count was raised without a
   * lock ({@code preempt_disable()}).
   *
   * @param task the task
   * @param path where it ran
   * @param depth the count's preemption-disable depth
   * @param ns how long
   */
  record PreemptCountHeld(TaskId task, PathView path, int depth, long ns, long iterations)
      implements InKernelCode {}

  /**
   * A task in kernel code the kernel could not preempt there: in a kernel without CONFIG_PREEMPT,
   * any kernel code until its next reschedule point (a sleep, the return to user mode, an
   * explicit {@code schedule()} or a patch's reschedule point); in a preemptible one, code that
   * held nothing the analysis sees (schedule() itself, a section entered with interrupts off).
   *
   * @param task the task
   * @param path where it ran
   * @param ns how long
   * @param kernelPreemptible whether the kernel had CONFIG_PREEMPT
   * @param siteHooked whether a patch hooked a reschedule point into the loop at the path's site
   * @param heldLock the innermost spinlock the task held there, if any (in a kernel without
   *     CONFIG_PREEMPT a lock does not decide preemption, but it says what the path was doing)
   */
  record NotPreemptible(TaskId task, PathView path, long ns, boolean kernelPreemptible,
      boolean siteHooked, Optional<LockView> heldLock, long iterations) implements InKernelCode {
    /** Checks the lock is given as present or absent. */
    public NotPreemptible {
      Objects.requireNonNull(heldLock, "heldLock");
    }
  }

  /**
   * A cause the path itself declared ({@link PathView.Builder#cause}): a patch's or a path
   * catalog's own type, which a library user can tell apart with {@code instanceof}.
   *
   * @param cause what the path declared
   * @param task the task that ran it
   * @param path the path running (the declaring path or one it called)
   * @param ns how long
   */
  record Declared(LatencyCause cause, TaskId task, PathView path, long ns, long iterations)
      implements InKernelCode {
    /** What the cause describes: this stretch, in the terms of the SPI. */
    public LatencyCause.Hold hold() {
      return new LatencyCause.Hold(task.toString(), path, ns, iterations);
    }
  }
}
