package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.TaskState;

/**
 * {@code rt_mutex_lock} and {@code rt_mutex_unlock}, with the priority-inheritance chain walk
 * between them.
 *
 * <p>Models kernel/locking/rtmutex.c of Linux 6.12. A task that finds the mutex owned queues
 * on it by priority, lends its priority to the owner and, where the owner is itself asleep on
 * another mutex, on along the chain ({@code rt_mutex_adjust_prio_chain}), then sleeps
 * uninterruptibly. The unlock wakes the first waiter, which takes the mutex when it runs unless
 * a task of higher priority took it first (a steal, {@code rt_mutex_steal}), and takes back the
 * loans the unlocking task had from it ({@code rt_mutex_adjust_prio}); the unlock is a
 * preemption point ({@code rt_mutex_postunlock}'s {@code preempt_enable}).
 *
 * <p>What the model leaves out: the chain walk's own instructions (a few dozen per link, under
 * the mutexes' {@code wait_lock}s) are not charged, being far below the context switches it
 * leads to; the optimistic spinning of 6.12's {@code rt_mutex_spin_on_owner} is not modelled,
 * the waiter always sleeps.
 */
final class RtMutexOps {

  private RtMutexOps() {}

  /** The deepest chain walked before the kernel calls it a bug ({@code max_lock_depth}). */
  static final int MAX_LOCK_DEPTH = 1024;

  /** The phases {@link #lock} uses (0 to 2): an operation built on it numbers its own after. */
  static final int LOCK_PHASES = 3;

  /** {@code rt_mutex_lock(lock)}. */
  @Models(file = "kernel/locking/rtmutex.c", function = "rt_mutex_slowlock_block", version = "6.12")
  @Models(file = "kernel/locking/rtmutex_api.c", function = "rt_mutex_lock", version = "6.12")
  static final class Lock extends Op {
    final RtMutex m;

    Lock(RtMutex m) {
      this.m = m;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (lock(k, c, ctx, f, m, true)) {
        f.advance();
      }
    }

    @Override
    String describe() {
      return "rt_mutex_lock(&" + m.name() + ")";
    }
  }

  /** {@code rt_mutex_unlock(lock)}. */
  @Models(file = "kernel/locking/rtmutex.c", function = "rt_mutex_slowunlock", version = "6.12")
  @Models(file = "kernel/locking/rtmutex.c", function = "mark_wakeup_next_waiter", version = "6.12")
  @Models(file = "kernel/locking/rtmutex_api.c", function = "rt_mutex_unlock", version = "6.12")
  static final class Unlock extends Op {
    final RtMutex m;

    Unlock(RtMutex m) {
      this.m = m;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (unlock(k, c, ctx, f, m)) {
        f.advance();
        c.preemptCheck(ctx);
      }
    }

    @Override
    String describe() {
      return "rt_mutex_unlock(&" + m.name() + ")";
    }
  }

  /**
   * The lock's steps, phase by phase (0 entry and {@code might_sleep()} where asked, 1 the
   * attempt, 2 back from {@code schedule()}): true once the current task owns {@code m}, false
   * while it runs something first (the might_sleep hook) or sleeps.
   */
  static boolean lock(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f, RtMutex m, boolean mightSleep) {
    Task t = c.current;
    if (f.phase == 0) {
      k.sched.checkTaskContext(c, ctx);
      claim(k, c, m);
      if (m.owner == t) {
        throw k.bug(c, "rt_mutex deadlock", t + " takes " + m + ", which it owns, in " + ctx.currentPath());
      }
      f.phase = 1;
      if (mightSleep && k.mightSleepHook != null) {
        ctx.push(k.mightSleepHook, false);
        return false;
      }
    }
    if (f.phase == 2) {
      t.setState(TaskState.RUNNING);
    }
    if (tryTake(k, c, m, t)) {
      return true;
    }
    if (t.blockedOn != m) {
      detectDeadlock(k, c, m, t);
      m.recordContention();
      m.enqueue(t);
      t.blockedOn = m;
      walkChain(k, c, m);
    }
    t.setState(TaskState.UNINTERRUPTIBLE);
    f.phase = 2;
    k.sched.callSchedule(c, ctx);
    return false;
  }

  /**
   * The unlock's steps: phase 0 lets go, wakes the first waiter and takes back the loans, then
   * pays the wake-up; true at phase 1, where the caller's preemption point follows.
   */
  static boolean unlock(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f, RtMutex m) {
    if (f.phase != 0) {
      return true;
    }
    TaskOps.WakeUp.chargeWakeUps(k, c, f, letGo(k, c, ctx, m));
    return false;
  }

  /**
   * The unlock's work without its cost: the current task lets go of {@code m}, its first waiter
   * is woken and the loans it gave are taken back. Returns the tasks woken, 0 or 1.
   */
  static int letGo(Kernel k, KernelCpu c, ExecContext ctx, RtMutex m) {
    Task t = c.current;
    if (m.owner != t) {
      throw k.bug(c, "rt_mutex unlock by a non-owner",
          t + " unlocks " + m + (m.owner == null ? ", which is free," : ", owned by " + m.owner + ",")
              + " in " + ctx.currentPath());
    }
    m.owner = null;
    t.dropOwned(m);
    Task next = m.topWaiter();
    // The waiter stays queued until it takes the mutex: a steal in between leaves it first in
    // line, still lending to the thief.
    adjustLoan(k, c, t);
    return next != null && k.sched.wakeUpTask(c, next) ? 1 : 0;
  }

  /**
   * {@code try_to_take_rt_mutex}: a free mutex goes to its first waiter, or to a task that
   * outranks every waiter (a steal); the new owner inherits from those still waiting.
   */
  @Models(file = "kernel/locking/rtmutex.c", function = "try_to_take_rt_mutex", version = "6.12")
  static boolean tryTake(Kernel k, KernelCpu c, RtMutex m, Task t) {
    if (m.owner != null) {
      return false;
    }
    Task top = m.topWaiter();
    if (top != null && top != t && RtMutex.rank(t) <= RtMutex.rank(top)) {
      return false;
    }
    if (t.blockedOn == m) {
      m.dequeue(t);
      t.blockedOn = null;
    }
    m.owner = t;
    t.addOwned(m);
    m.recordAcquire();
    adjustLoan(k, c, t);
    return true;
  }

  /**
   * The full chain walk's deadlock check, as CONFIG_DEBUG_RT_MUTEXES makes every walk do
   * ({@code rt_mutex_cond_detect_deadlock}): a chain of owners and the mutexes they sleep on that
   * leads back to {@code waiter} would sleep for ever, which a simulation cannot tell from a long
   * wait, so it is reported where it is made.
   */
  static void detectDeadlock(Kernel k, KernelCpu c, RtMutex blocked, Task waiter) {
    RtMutex m = blocked;
    SpinLock bkl = k.bkl.flag();
    RtMutex bklMutex = bkl == null ? null : bkl.sleeper;
    for (int depth = 0; m != null && m.owner != null; depth++) {
      if (m == bklMutex && m.owner == waiter) {
        // A sleeping big kernel lock is no link of a deadlock: its owner, the waiter, gives it
        // up in the schedule() of this very sleep (__release_kernel_lock), and the chain goes on
        return;
      }
      if (m.owner == waiter) {
        throw k.bug(c, "rt_mutex deadlock", waiter + " waits on " + blocked
            + ", and the chain of owners and the mutexes they wait on leads back to it");
      }
      if (depth >= MAX_LOCK_DEPTH) {
        throw k.bug(c, "rt_mutex chain too deep",
            "more than " + MAX_LOCK_DEPTH + " owners in a priority-inheritance chain from " + blocked);
      }
      m = m.owner.blockedOn;
    }
  }

  /**
   * {@code rt_mutex_adjust_prio_chain}, from the mutex {@code blocked} that {@code waiter} just
   * queued on: each owner along the chain takes the loan its first waiter now gives; an owner
   * that is itself asleep on a mutex moves to its new place there, and the walk goes on to that
   * mutex's owner, until a link changes nothing ({@link #detectDeadlock} has made sure the
   * chain ends).
   */
  @Models(file = "kernel/locking/rtmutex.c", function = "rt_mutex_adjust_prio_chain", version = "6.12")
  static void walkChain(Kernel k, KernelCpu c, RtMutex blocked) {
    RtMutex m = blocked;
    while (m != null && m.owner != null) {
      Task owner = m.owner;
      if (!adjustLoan(k, c, owner)) {
        return; // nothing changed: the rest of the chain already has what this link gives
      }
      RtMutex next = owner.blockedOn;
      if (next != null) {
        next.dequeue(owner);
        next.enqueue(owner);
      }
      m = next;
    }
  }

  /**
   * {@code rt_mutex_adjust_prio}: {@code owner}'s loan becomes the highest real-time priority
   * among the first waiters of the mutexes it owns, where that beats its own. True if it
   * changed.
   */
  @Models(file = "kernel/locking/rtmutex.c", function = "rt_mutex_adjust_prio", version = "6.12")
  static boolean adjustLoan(Kernel k, KernelCpu c, Task owner) {
    int loan = 0;
    for (int i = 0; i < owner.ownedCount; i++) {
      Task top = owner.owned[i].topWaiter();
      if (top != null) {
        loan = Math.max(loan, top.effectiveRtPriority());
      }
    }
    if (loan <= owner.rtPriority()) {
      loan = 0;
    }
    if (loan == owner.inheritedRtPriority()) {
      return false;
    }
    k.sched.setInheritedPriority(c, owner, loan);
    return true;
  }

  /** A mutex another kernel uses is that kernel's; a free one passes, as a spinlock does. */
  private static void claim(Kernel k, KernelCpu c, RtMutex m) {
    if (m.kernel == k) {
      return;
    }
    if (m.kernel != null && (m.owner != null || m.waiterCount > 0)) {
      throw k.bug(c, "rt_mutex of another kernel",
          m + " belongs to another kernel, which holds it: give each kernel its own");
    }
    m.kernel = k;
  }
}
