package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskState;

/**
 * Operations that give up or change the CPU: {@code schedule()} and its generic half,
 * {@code preempt_schedule()}, {@code sys_sched_yield()}'s call of the policy and of
 * schedule(), and the reschedule point {@code cond_resched()}. The lock break,
 * {@code cond_resched_lock()}, is {@link CondReschedLock}.
 *
 * <p>Models kernel/sched.c {@code schedule()} (the parts every scheduler shares, 2.4.17 and
 * 2.5.5), {@code preempt_schedule()} of the preempt-kernel patch, and include/linux/sched.h
 * {@code cond_resched()} (2.5).
 */
final class SchedOps {

  private SchedOps() {}

  /** {@code schedule()} called from a path. */
  static final class CallSchedule extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      k.sched.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "schedule()";
    }
  }

  /**
   * {@code sys_sched_yield()} after its own bookkeeping: the policy puts the caller behind the
   * runnable tasks of its priority ({@link Scheduler#yield}, called as any policy call is, with
   * this CPU the scheduler's {@code thisCpu}); if it says the caller should give up the CPU,
   * {@code schedule()} runs now. 2.5.5's sys_sched_yield calls schedule() itself. 2.4.17's sets
   * need_resched and returns, and the schedule() of {@code ret_from_sys_call} follows with
   * nothing between (with CONFIG_PREEMPT the {@code spin_unlock_irq(&runqueue_lock)} before the
   * return is a preemption point that comes first): the same switch at the same instant, so one
   * operation serves both. The call's own cost is its path's (a compute before this).
   */
  @Models(file = "kernel/sched.c", function = "sys_sched_yield", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "sys_sched_yield", version = "2.5.5")
  static final class Yield extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      k.sched.checkTaskContext(c, ctx); // before the policy requeues anyone: the oops sees them as they were
      int saved = k.sched.enterCpu(c.id);
      boolean switchOut = k.scheduler().yield(c.current, c.id);
      k.sched.enterCpu(saved);
      if (switchOut) {
        k.sched.callSchedule(c, ctx);
      }
    }

    @Override
    String describe() {
      return "sched_yield: the policy's yield; schedule()";
    }
  }

  /**
   * Entry of {@code schedule()}: the debug checks, {@code preempt_disable()} (the patched
   * schedule() is not itself preemptible), {@code release_kernel_lock(prev, cpu)} (a task that
   * holds the big kernel lock drops it for as long as it is switched out; after the
   * preempt_disable, as preempt-kernel-rml-2.4.17-1 orders them, so its spin_unlock cannot
   * preempt), then {@code spin_lock_irq(&runqueue_lock)}. The flag is not saved: schedule()
   * leaves with {@code spin_unlock_irq}, interrupts on, whatever its caller had (kernel/sched.c
   * 2.4.17 and 2.5.5), so a {@code sleep_on()} caller that entered with interrupts off restores
   * its own flags afterwards. 2.4.17's {@code release_kernel_lock} (SMP and CONFIG_PREEMPT)
   * also ends in {@code __sti()}, taking any interrupt pending since the caller's {@code cli}
   * an instant before {@code spin_lock_irq}; 2.5's does not, and the model follows 2.5 there.
   * A sleeping big kernel lock is released the same way, its rt_mutex's unlock waking its first
   * waiter (lib/kernel_lock.c 2.6.12 {@code __release_kernel_lock}, see {@link BigKernelLock}).
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  @Models(file = "kernel/sched.c", function = "schedule", version = "preempt-kernel-rml-2.4.17-1")
  static final class ScheduleEntry extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        k.checks.scheduleEntryChecks(c, ctx);
        c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
      }
      if (!k.bkl.release(c, ctx, f)) {
        return; // a sleeping kernel_flag's up() wakes its waiter first (BigKernelLock)
      }
      c.irqDisable(ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "schedule: preempt_disable(); release_kernel_lock(); spin_lock_irq(&runqueue_lock)";
    }
  }

  /**
   * The policy's work: under the runqueue lock with interrupts off, then (2.4's epoch
   * recalculation) with the lock dropped and interrupts on. The state switch (a blocked task
   * leaves the runqueue; 2.4.17 clears need_resched) is done atomically with the pick, as the
   * runqueue lock makes it for any other CPU, unless the lock is dropped for a recalculation:
   * then it is done at the unlock, which is where a waker on another CPU would first see it.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  static final class PolicyCost extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      switch (f.phase) {
        case 0 -> {
          long locked = k.scheduler().scheduleCostNs(c.id);
          f.scratch = k.scheduler().unlockedScheduleCostNs(c.id);
          f.phase = 1;
          c.compute(f, locked, false);
        }
        case 1 -> {
          if (f.scratch <= 0) {
            f.advance();
            return;
          }
          f.phase = 2;
          k.sched.scheduleBegin(c);
          c.irqEnable(ctx);
          c.compute(f, f.scratch, false);
        }
        default -> {
          c.irqDisable(ctx);
          f.advance();
        }
      }
    }

    @Override
    String describe() {
      return "schedule: pick (goodness loop / bitmap); recalculate with the lock dropped";
    }
  }

  /**
   * The switch: the state switch if not done yet, ask the policy, switch stacks. A scheduler
   * that does not switch under its runqueue lock ({@link Scheduler#switchesUnderRunqueueLock})
   * unlocks here with {@code spin_unlock_irq}, so the switch that follows runs with interrupts
   * on: 2.4.17 unlocks right after {@code task_set_cpu(next, this_cpu)}, before
   * {@code prepare_to_switch()}, {@code switch_mm()} and {@code switch_to()}, and before its
   * {@code prev == next} test. An interrupt taken in the switch runs on the incoming task's
   * stack in the model (the real one's first half on prev's): either way it returns into
   * schedule() with its preempt count held, and {@code cpu_curr} is already {@code next}, whose
   * need_resched a wake-up then sets.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "context_switch", version = "2.5.5")
  static final class Switch extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      f.scratch = k.sched.switchTasks(c) ? 1 : 0;
      if (!k.scheduler().switchesUnderRunqueueLock()) {
        c.irqEnable(ctx);
      }
    }

    @Override
    String describe() {
      return "schedule: pick next, context_switch()";
    }
  }

  /** The context-switch cost, paid by the incoming task if there was a switch. */
  @Models(file = "include/asm-i386/system.h", function = "switch_to", version = "2.4.17")
  static final class SwitchCost extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.scratch == 0) {
        f.advance();
        return;
      }
      f.scratch = 0;
      // the incoming task's working set comes back from memory after the switch
      long refill = c.current.isIdle() ? 0 : k.costs().cacheRefillNs();
      c.compute(f, k.costs().contextSwitchNs() + refill, true);
    }

    @Override
    String describe() {
      return "switch_to()";
    }
  }

  /**
   * End of {@code schedule()}, run by the task switched to: {@code spin_unlock_irq} (interrupts
   * on, always; already done before the switch by a scheduler that switches with them on),
   * {@code reacquire_kernel_lock(current)} for a task that held the big kernel lock when it
   * left (spinning for it on SMP), {@code preempt_enable_no_resched()}, and
   * {@code goto need_resched_back} while need_resched is set (kernel/sched.c 2.4.17
   * {@code schedule()}, label {@code same_process}). Only schedule() itself loops: a child's
   * first return goes through {@link ForkTail}. A sleeping big kernel lock is retaken by
   * {@code __reacquire_kernel_lock} in a frame of its own ({@link LockOps.ReacquireKernelLock}),
   * which may sleep on it before this tail goes on.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  @Models(file = "kernel/sched.c", function = "schedule", version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "lib/kernel_lock.c", function = "__reacquire_kernel_lock", version = "2.6.12")
  static final class ScheduleTail extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        c.irqEnable(ctx);
        if (k.bkl.heldBy(c.current)) {
          c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx); // reacquire's spin_lock
          f.phase = 1;
        } else if (k.bkl.retakesSleeping(c.current)) {
          // __reacquire_kernel_lock in a frame of its own: it may sleep on the lock, and the
          // schedule() of that sleep must not find this one's phase
          f.phase = 2;
          ctx.push(k.programs.reacquireKernelLock, false);
          return;
        }
      }
      if (f.phase == 1) {
        if (!k.bkl.reacquire(c, ctx, f)) {
          return; // spinning for kernel_flag, interrupts on
        }
        f.phase = 2;
      }
      c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
      if (c.current.needResched()) {
        f.pc = 0;
        f.phase = 0;
        return;
      }
      f.advance();
    }

    @Override
    String describe() {
      return "schedule: spin_unlock_irq(&runqueue_lock); reacquire_kernel_lock();"
          + " if (need_resched) goto need_resched_back";
    }
  }

  /**
   * {@code schedule_tail(prev)} on a new task's first run ({@code ret_from_fork},
   * arch/i386/kernel/entry.S 2.4.17): interrupts on and the child's initial preempt count of 1
   * dropped ({@code do_fork} sets it; preempt-kernel-rml-2.4.17-1's {@code schedule_tail} ends
   * in {@code preempt_enable()}, the O(1) patch's in {@code spin_unlock_irq(&rq->frozen)}:
   * either way a preemption point under CONFIG_PREEMPT). It does not loop on need_resched as
   * schedule() does: a need_resched set meanwhile (a wake-up from another CPU during the
   * switch) is honoured there or by {@code ret_from_sys_call}, where ret_from_fork goes next.
   */
  @Models(file = "kernel/sched.c", function = "schedule_tail",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_fork", version = "2.4.17")
  static final class ForkTail extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.irqEnable(ctx);
      c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
      f.advance();
      c.preemptCheck(ctx);
    }

    @Override
    String describe() {
      return "schedule_tail(): spin_unlock_irq(&runqueue_lock)";
    }
  }

  /**
   * {@code preempt_schedule()}: PREEMPT_ACTIVE around schedule(), so no dequeue, again while
   * need_resched is set (2.4.17-1: {@code while (current->need_resched)}; O(1) 2.4.18-2:
   * {@code goto need_resched} after the barrier, "we can miss a preemption between schedule()
   * and now"). 2.4.17-1 adds {@code PREEMPT_ACTIVE + 1}: the preempted task keeps one count of
   * its own across the switch, so it is in a preempt-off stretch from here, and a tracer reading
   * its count while it is switched out sees {@code PREEMPT_ACTIVE + 2} (this and schedule()'s
   * own); the O(1) patch adds PREEMPT_ACTIVE alone, which no decision of the model tells apart
   * (both are non-zero). Neither variant looks at the interrupt flag: a preemption from inside a
   * {@code cli} region returns with interrupts on, because schedule() ends in
   * {@code spin_unlock_irq}. Where the big kernel lock sleeps its holder can be preempted, and
   * keeps the lock: {@code lock_depth} is set -1 over the schedule() and restored after, so
   * that schedule() does not release it (kernel/sched.c 2.6.12, CONFIG_PREEMPT_BKL).
   */
  @Models(file = "kernel/sched.c", function = "preempt_schedule",
      version = "preempt-kernel-rml-2.4.17-1")
  @Models(file = "kernel/sched.c", function = "preempt_schedule", version = "2.6.12")
  static final class PreemptSchedule extends Op {
    private static final long NOTHING_HIDDEN = Long.MIN_VALUE; // f.scratch: no lock_depth to restore

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        c.current.preemptCount += PreemptCount.PREEMPT_ACTIVE;
        c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
        f.phase = 1;
        // A preempted holder keeps a sleeping kernel_flag: its depth hidden from schedule().
        // Whether it was hidden is kept with it: the flag may start to sleep meanwhile, bound by
        // the first lock_kernel() of a task that ran in between.
        f.scratch = NOTHING_HIDDEN;
        if (k.bkl.sleeps()) {
          f.scratch = c.current.lockDepth;
          c.current.lockDepth = -1;
        }
        k.sched.callSchedule(c, ctx);
        return;
      }
      if (f.scratch != NOTHING_HIDDEN) {
        c.current.lockDepth = (int) f.scratch;
      }
      c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
      c.current.preemptCount -= PreemptCount.PREEMPT_ACTIVE;
      if (c.current.needResched()) {
        f.phase = 0;
        return;
      }
      f.advance();
    }

    @Override
    String describe() {
      return "preempt_schedule()";
    }
  }

  /**
   * {@code cond_resched()}: {@code if (need_resched()) __cond_resched();}, which is
   * {@code set_current_state(TASK_RUNNING); schedule();}. Whether need_resched counts here is
   * the preemption model's ({@link PreemptionModel#rescheduleAtCondResched}). The 2.4 patches'
   * {@code conditional_schedule()} is the same test.
   */
  @Models(file = "include/linux/sched.h", function = "cond_resched", version = "2.5.27")
  @Models(file = "kernel/sched.c", function = "__cond_resched", version = "2.5.27")
  static final class CondResched extends Op {
    private final String description;
    private final CondReschedLock.When when; // null: the test is need_resched alone

    CondResched() {
      this("cond_resched()", null);
    }

    /** A patch's {@code conditional_schedule()} looked at only when {@code when} is due. */
    CondResched(String description, CondReschedLock.When when) {
      if (description == null || description.isBlank()) {
        throw new IllegalArgumentException("a conditional schedule says how it reads in a listing");
      }
      this.description = description;
      this.when = when;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      boolean due = when == null || when.due(c, f.iteration + 1);
      f.advance();
      if (due && k.preemption.rescheduleAtCondResched(c, c.current)) {
        c.current.setState(TaskState.RUNNING);
        k.sched.callSchedule(c, ctx);
      }
    }

    /**
     * Whether the call, reached at the given iteration, schedules: its tests, which change
     * nothing, for {@link FastForward}.
     */
    boolean schedulesAt(Kernel k, KernelCpu c, long iterations) {
      return (when == null || when.due(c, iterations)) && k.preemption.rescheduleAtCondResched(c, c.current);
    }

    /**
     * The first count in {@code from..to} at which {@link #schedulesAt} answers true, or
     * {@code to + 1}, for a stretch in which nothing changes but the count.
     */
    long firstSchedulesAt(Kernel k, KernelCpu c, long from, long to) {
      if (from > to || !k.preemption.rescheduleAtCondResched(c, c.current)) {
        return to + 1;
      }
      return when == null ? from : CondReschedLock.firstDue(when, c, from, to);
    }

    @Override
    String describe() {
      return description;
    }
  }

}
