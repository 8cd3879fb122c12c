package dev.kernellab.kernel;

import dev.kernellab.hw.Models;

/**
 * Operations that give up or change the CPU: {@code schedule()} and its generic half,
 * {@code preempt_schedule()}, reschedule points and lock breaks.
 *
 * <p>Models kernel/sched.c {@code schedule()} (the parts every scheduler shares, 2.4.17 and
 * 2.5.5), {@code preempt_schedule()} of the preempt-kernel patch, {@code cond_resched()} and
 * {@code cond_resched_lock()} (2.5; the low-latency patch's {@code conditional_schedule()}).
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
   * Entry of {@code schedule()}: the debug checks, {@code preempt_disable()} (the patched
   * schedule() is not itself preemptible), then {@code spin_lock_irq(&runqueue_lock)}. The
   * flag is not saved: schedule() leaves with {@code spin_unlock_irq}, interrupts on, whatever
   * its caller had (kernel/sched.c 2.4.17 and 2.5.5), so a {@code sleep_on()} caller that
   * entered with interrupts off restores its own flags afterwards.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  static final class ScheduleEntry extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      k.checks.scheduleEntryChecks(c, ctx);
      c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
      c.irqDisable(ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "schedule: preempt_disable(); spin_lock_irq(&runqueue_lock)";
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

  /** The switch: the state switch if not done yet, ask the policy, switch stacks. */
  static final class Switch extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      f.scratch = k.sched.switchTasks(c) ? 1 : 0;
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
      c.compute(f, k.costs().contextSwitchNs(), true);
    }

    @Override
    String describe() {
      return "switch_to()";
    }
  }

  /**
   * End of {@code schedule()}, run by the task switched to: {@code spin_unlock_irq} (interrupts
   * on, always), {@code preempt_enable_no_resched()}, and {@code goto need_resched_back} while
   * need_resched is set (kernel/sched.c 2.4.17 {@code schedule()}, label {@code same_process}).
   * Only schedule() itself loops: a child's first return goes through {@link ForkTail}.
   */
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "schedule", version = "2.5.5")
  static final class ScheduleTail extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.irqEnable(ctx);
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
      return "schedule: spin_unlock_irq(&runqueue_lock); if (need_resched) goto need_resched_back";
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
   * and now"). Neither variant looks at the interrupt flag: a preemption from inside a
   * {@code cli} region returns with interrupts on, because schedule() ends in
   * {@code spin_unlock_irq}.
   */
  @Models(file = "kernel/sched.c", function = "preempt_schedule",
      version = "preempt-kernel-rml-2.4.17-1")
  static final class PreemptSchedule extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        c.current.preemptCount += PreemptCount.PREEMPT_ACTIVE;
        f.phase = 1;
        k.sched.callSchedule(c, ctx);
        return;
      }
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

  /** {@code if (need_resched) schedule();}, optionally behind a sysctl. */
  @Models(file = "include/linux/low-latency.h", function = "conditional_schedule",
      version = "low-latency 2.4 (2.4.32 copy)")
  static final class CondResched extends Op {
    final Sysctl gate;

    CondResched(Sysctl gate) {
      this.gate = gate;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      if ((gate == null || gate.get()) && k.preemption.rescheduleAtCondResched(c, c.current)) {
        c.current.setState(TaskState.RUNNING);
        k.sched.callSchedule(c, ctx);
      }
    }

    @Override
    String describe() {
      return gate == null ? "cond_resched()" : "conditional_schedule() [" + gate.name() + "]";
    }
  }

  /**
   * A lock break: if a reschedule is due, drop the locks (innermost first), {@code schedule()},
   * retake them (outermost first) and revalidate. With {@code everyN > 1} only every N-th
   * iteration looks (a counted test). Nothing is dropped when no reschedule is due.
   *
   * <p>The kernel's pattern, in 2.4.17's own loops and in the low-latency patch alike, is
   * {@code if (need_resched) { spin_unlock(&l); schedule(); spin_lock(&l); }} (the patch
   * spells the middle {@code unconditional_schedule()}): schedule() is called whatever happened
   * at the unlock, which under CONFIG_PREEMPT may already have preempted and cleared
   * need_resched. In the chunked form ({@code always}) the locks are dropped at every N-th
   * iteration whether or not a reschedule is due, and the reschedule is conditional: the
   * low-latency patch's {@code zap_page_range} (mm/memory.c), which unlocks and flushes the
   * TLB every 256 pages and then calls {@code conditional_schedule()}.
   */
  @Models(file = "include/linux/low-latency.h", function = "unconditional_schedule",
      version = "low-latency 2.4 (2.4.32 copy)")
  @Models(file = "include/linux/low-latency.h", function = "conditional_schedule",
      version = "low-latency 2.4 (2.4.32 copy)")
  static final class CondReschedLock extends Op {
    private static final int RETAKE = 4; // the phase of the first retake
    final SpinLock[] locks; // outermost first
    final long revalidateNs;
    final Sysctl gate;
    final int everyN;
    final boolean always;

    CondReschedLock(SpinLock[] locks, long revalidateNs, Sysctl gate, int everyN, boolean always) {
      if (locks.length == 0 || everyN < 1 || revalidateNs < 0) {
        throw new IllegalArgumentException(
            "lock break needs a lock, everyN >= 1 and revalidate >= 0");
      }
      this.locks = locks.clone();
      this.revalidateNs = revalidateNs;
      this.gate = gate;
      this.everyN = everyN;
      this.always = always;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      switch (f.phase) {
        case 0 -> {
          boolean due =
              (gate == null || gate.get())
                  && (f.iteration + 1) % everyN == 0
                  && (always || k.preemption.rescheduleAtCondResched(c, c.current));
          if (!due) {
            f.advance();
            return;
          }
          for (int i = locks.length - 1; i >= 0; i--) {
            k.locks.release(c, ctx, locks[i], false);
          }
          f.phase = 1;
        }
        case 1 -> {
          c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET * locks.length, ctx);
          f.phase = 2;
          c.preemptCheck(ctx);
        }
        case 2 -> {
          f.phase = 3;
          if (!always || k.preemption.rescheduleAtCondResched(c, c.current)) {
            c.current.setState(TaskState.RUNNING);
            k.sched.callSchedule(c, ctx);
          }
        }
        case 3 -> {
          c.addPreemptCount(PreemptCount.PREEMPT_OFFSET * locks.length, ctx);
          f.phase = RETAKE;
        }
        default -> {
          // Phase RETAKE + i retakes lock i, outermost first. The frame may be the loop body's
          // own (a walk that breaks its lock inline, as 2.4.17 shrink_cache does), so nothing
          // of the loop's (its iteration count) may hold the index.
          if (f.phase < RETAKE + locks.length) {
            while (f.phase < RETAKE + locks.length
                && k.locks.tryAcquire(c, ctx, f, locks[f.phase - RETAKE], false)) {
              f.phase++;
            }
            return;
          }
          c.compute(f, revalidateNs, true);
        }
      }
    }

    @Override
    String describe() {
      StringBuilder names = new StringBuilder();
      for (SpinLock l : locks) {
        names.append(names.length() == 0 ? "&" : ", &").append(l.name());
      }
      String every = everyN > 1 ? ", every " + everyN : "";
      if (always) {
        return "unlock(" + names + "); conditional_schedule(); relock, every " + everyN
            + (gate == null ? "" : " [" + gate.name() + "]");
      }
      return "cond_resched_lock(" + names + every + ")"
          + (gate == null ? "" : " [" + gate.name() + "]");
    }
  }
}
