package dev.kernellab.kernel;

/**
 * Operations that give up or change the CPU: {@code schedule()} and its generic half,
 * {@code preempt_schedule()}, reschedule points and lock breaks, sleeping and waking, the idle
 * loop, system-call entry and the return to user mode.
 *
 * <p>Models kernel/sched.c {@code schedule()} (the parts every scheduler shares, 2.4.17 and
 * 2.5.5), {@code preempt_schedule()} of the preempt-kernel patch, include/linux/wait.h
 * {@code wait_event}, and arch/i386/kernel/entry.S {@code system_call} /
 * {@code ret_from_sys_call} / {@code ret_from_intr} (2.4.17).
 */
final class SchedOps {

  private SchedOps() {}

  /** {@code schedule()} called from a path. */
  static final class CallSchedule extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      k.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "schedule()";
    }
  }

  /**
   * Entry of {@code schedule()}: the debug checks, {@code preempt_disable()} (the patched
   * schedule() is not itself preemptible), then interrupts off for the runqueue lock.
   */
  static final class ScheduleEntry extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      k.scheduleEntryChecks(c, ctx);
      k.addPreemptCount(c, PreemptCount.PREEMPT_OFFSET, ctx);
      ctx.saveIrqFlag(c.cpu.interruptsEnabled());
      k.irqDisable(c, ctx);
      f.advance();
    }

    @Override
    String describe() {
      return "schedule: preempt_disable(); spin_lock_irq(&runqueue_lock)";
    }
  }

  /**
   * The policy's work: under the runqueue lock with interrupts off, then (2.4's epoch
   * recalculation) with the lock dropped and interrupts on.
   */
  static final class PolicyCost extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      switch (f.phase) {
        case 0 -> {
          long locked = k.scheduler().scheduleCostNs(c.id);
          f.scratch = k.scheduler().unlockedScheduleCostNs(c.id);
          f.phase = 1;
          k.compute(c, f, locked, false);
        }
        case 1 -> {
          if (f.scratch <= 0) {
            f.advance();
            return;
          }
          f.phase = 2;
          k.irqEnable(c, ctx);
          k.compute(c, f, f.scratch, false);
        }
        default -> {
          k.irqDisable(c, ctx);
          f.advance();
        }
      }
    }

    @Override
    String describe() {
      return "schedule: pick (goodness loop / bitmap); recalculate with the lock dropped";
    }
  }

  /** The switch: deactivate a sleeper, ask the policy, switch stacks. */
  static final class Switch extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      f.scratch = k.switchTasks(c) ? 1 : 0;
    }

    @Override
    String describe() {
      return "schedule: pick next, context_switch()";
    }
  }

  /** The context-switch cost, paid by the incoming task if there was a switch. */
  static final class SwitchCost extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.scratch == 0) {
        f.advance();
        return;
      }
      f.scratch = 0;
      k.compute(c, f, k.costs().contextSwitchNs(), true);
    }

    @Override
    String describe() {
      return "switch_to()";
    }
  }

  /**
   * End of {@code schedule()}, run by the task switched to: interrupts back as they were when
   * it entered schedule(), {@code preempt_enable_no_resched()}, and again while need_resched.
   */
  static final class ScheduleTail extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      k.irqRestore(c, ctx, ctx.restoreIrqFlag());
      k.addPreemptCount(c, -PreemptCount.PREEMPT_OFFSET, ctx);
      if (c.current.needResched()) {
        f.pc = 0;
        f.phase = 0;
        return;
      }
      f.advance();
    }

    @Override
    String describe() {
      return "schedule: spin_unlock_irq(&runqueue_lock); if (need_resched) goto again";
    }
  }

  /** {@code preempt_schedule()}: PREEMPT_ACTIVE around schedule(), so no dequeue. */
  static final class PreemptSchedule extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        c.current.preemptCount += PreemptCount.PREEMPT_ACTIVE;
        f.phase = 1;
        k.callSchedule(c, ctx);
        return;
      }
      c.current.preemptCount -= PreemptCount.PREEMPT_ACTIVE;
      if (c.current.needResched() && c.cpu.interruptsEnabled()) {
        f.phase = 0; // Anzinger's re-check: a wake-up during the switch
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
  static final class CondResched extends Op {
    final Sysctl gate;

    CondResched(Sysctl gate) {
      this.gate = gate;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      if ((gate == null || gate.get()) && c.current.needResched()) {
        c.current.setState(TaskState.RUNNING);
        k.callSchedule(c, ctx);
      }
    }

    @Override
    String describe() {
      return gate == null ? "cond_resched()" : "conditional_schedule() [" + gate.name() + "]";
    }
  }

  /**
   * A lock break: if a reschedule is due, drop the locks (innermost first), schedule, retake
   * them (outermost first) and revalidate. With {@code everyN > 1} only every N-th iteration
   * looks (Morton's counted variants). Nothing is dropped when no reschedule is due.
   */
  static final class CondReschedLock extends Op {
    final SpinLock[] locks; // outermost first
    final long revalidateNs;
    final Sysctl gate;
    final int everyN;

    CondReschedLock(SpinLock[] locks, long revalidateNs, Sysctl gate, int everyN) {
      if (locks.length == 0 || everyN < 1 || revalidateNs < 0) {
        throw new IllegalArgumentException(
            "lock break needs a lock, everyN >= 1 and revalidate >= 0");
      }
      this.locks = locks.clone();
      this.revalidateNs = revalidateNs;
      this.gate = gate;
      this.everyN = everyN;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      switch (f.phase) {
        case 0 -> {
          boolean due =
              (gate == null || gate.get())
                  && c.current.needResched()
                  && (f.iteration + 1) % everyN == 0;
          if (!due) {
            f.advance();
            return;
          }
          for (int i = locks.length - 1; i >= 0; i--) {
            k.release(c, ctx, locks[i], false);
          }
          f.phase = 1;
        }
        case 1 -> {
          k.addPreemptCount(c, -PreemptCount.PREEMPT_OFFSET * locks.length, ctx);
          f.phase = 2;
          k.preemptCheck(c, ctx);
        }
        case 2 -> {
          f.phase = 3;
          if (c.current.needResched()) {
            c.current.setState(TaskState.RUNNING);
            k.callSchedule(c, ctx);
          }
        }
        case 3 -> {
          k.addPreemptCount(c, PreemptCount.PREEMPT_OFFSET * locks.length, ctx);
          f.iterationsLeft = 0; // index of the next lock to retake
          f.phase = 4;
        }
        case 4 -> {
          while (f.iterationsLeft < locks.length
              && k.tryAcquire(c, ctx, f, locks[(int) f.iterationsLeft], false)) {
            f.iterationsLeft++;
          }
          if (f.iterationsLeft == locks.length) {
            f.phase = 5;
          }
        }
        default -> k.compute(c, f, revalidateNs, true);
      }
    }

    @Override
    String describe() {
      StringBuilder names = new StringBuilder();
      for (SpinLock l : locks) {
        names.append(names.length() == 0 ? "&" : ", &").append(l.name());
      }
      String every = everyN > 1 ? ", every " + everyN : "";
      return "cond_resched_lock(" + names + every + ")"
          + (gate == null ? "" : " [" + gate.name() + "]");
    }
  }

  /**
   * {@code wait_event(wq, condition)} (or a plain {@code sleep_on} without condition): sleep
   * until woken and the condition holds.
   */
  static final class WaitEvent extends Op {
    final WaitQueue wq;
    final WaitCondition condition;
    final TaskState sleepState;
    final boolean exclusive;

    WaitEvent(WaitQueue wq, WaitCondition condition, TaskState sleepState, boolean exclusive) {
      this.wq = wq;
      this.condition = condition;
      this.sleepState = sleepState;
      this.exclusive = exclusive;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      Task t = c.current;
      if (f.phase == 0) {
        if (condition != null && condition.ready()) {
          f.advance();
          return;
        }
        wq.add(t, exclusive);
        t.setState(sleepState);
        f.phase = 1;
        k.callSchedule(c, ctx);
        return;
      }
      t.setState(TaskState.RUNNING);
      wq.remove(t);
      if (condition == null || condition.ready()) {
        f.advance();
      } else {
        f.phase = 0;
      }
    }

    @Override
    String describe() {
      return (condition == null ? "sleep_on(&" : "wait_event(&") + wq.name() + ")";
    }
  }

  /**
   * {@code wake_up(wq)}, paying the policy's wake-up cost per task woken. In process context
   * the wake-up ends in {@code spin_unlock_irqrestore} of the wait-queue and runqueue locks,
   * which with CONFIG_PREEMPT is a preemption point.
   */
  static final class WakeUp extends Op {
    final WaitQueue wq;

    WakeUp(WaitQueue wq) {
      this.wq = wq;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        int woken = k.wakeUpQueue(c, wq);
        f.phase = 1;
        k.compute(c, f, woken * k.scheduler().wakeUpCostNs(), false);
        return;
      }
      f.advance();
      k.preemptCheck(c, ctx);
    }

    @Override
    String describe() {
      return "wake_up(&" + wq.name() + ")";
    }
  }

  /** {@code cpu_idle()}: schedule when there is work, otherwise {@code sti; hlt}. */
  static final class Idle extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (c.current.needResched()) {
        k.callSchedule(c, ctx);
        return;
      }
      c.cpu.sti();
      if (c.cpu.hasDeliverableInterrupt()) {
        return;
      }
      c.cpu.halt();
    }

    @Override
    String describe() {
      return "cpu_idle(): default_idle (hlt)";
    }
  }

  /** {@code system_call}: from user mode into {@code body} and back. */
  static final class Syscall extends Op {
    final KernelPath body;

    Syscall(KernelPath body) {
      this.body = body;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      k.pushFrame(c, ctx, k.retFromSysCall, false);
      k.pushFrame(c, ctx, body, false);
      k.pushFrame(c, ctx, k.systemCallEntry, false);
    }

    @Override
    String describe() {
      return "syscall " + body.function() + "()";
    }
  }

  /**
   * {@code ret_from_sys_call} / {@code ret_from_intr} to user mode: with interrupts off,
   * schedule while need_resched is set, then (after a system call) pay the exit cost.
   */
  static final class RetToUser extends Op {
    final boolean fromSyscall;

    RetToUser(boolean fromSyscall) {
      this.fromSyscall = fromSyscall;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        k.checkUserReturn(c);
        if (c.current.needResched()) {
          k.callSchedule(c, ctx);
          return;
        }
        f.phase = 1;
        if (fromSyscall) {
          c.cpu.cli();
          k.compute(c, f, k.costs().syscallExitNs(), false);
          return;
        }
      }
      c.cpu.sti();
      f.advance();
    }

    @Override
    String describe() {
      return fromSyscall ? "ret_from_sys_call" : "ret_from_intr (to user)";
    }
  }

  /** A user-space probe: records a sample at the instant user code runs again. */
  static final class Probe extends Op {
    final UserProbe probe;

    Probe(UserProbe probe) {
      this.probe = probe;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      probe.record(c, c.current, k.now());
    }

    @Override
    String describe() {
      return "probe " + probe;
    }
  }

  /** {@code do_exit()}: become a zombie and schedule away for good. */
  static final class Exit extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      k.checkExit(c);
      c.current.setState(TaskState.ZOMBIE);
      f.advance();
      k.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "do_exit()";
    }
  }

  /** {@code do_fork()}'s scheduler part: the child is created and made runnable. */
  static final class Fork extends Op {
    final String comm;
    final KernelPath program;

    Fork(String comm, KernelPath program) {
      this.comm = comm;
      this.program = program;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      k.forkTask(c, comm, program);
    }

    @Override
    String describe() {
      return "do_fork(" + comm + ")";
    }
  }

  /**
   * {@code schedule_timeout(timeout)} (kernel/sched.c 2.4.17) as {@code sys_nanosleep} calls
   * it: the length in ns becomes {@code ceil(ns / tick) + 1} jiffies (nanosleep adds one because
   * the current tick is already partly gone), a timer wakes the task.
   */
  static final class SleepTimeout extends Op {
    final Distribution length;

    SleepTimeout(Distribution length) {
      this.length = length;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      Task t = c.current;
      if (f.phase == 0) {
        long ns = length.sample(k.random(c, ctx));
        long tick = 1_000_000_000L / k.hz();
        long ticks = (ns + tick - 1) / tick + 1;
        k.modTimer(k.timeoutTimer(t), k.jiffies() + ticks);
        t.setState(TaskState.INTERRUPTIBLE);
        f.phase = 1;
        k.callSchedule(c, ctx);
        return;
      }
      k.delTimer(k.timeoutTimer(t));
      t.setState(TaskState.RUNNING);
      f.advance();
    }

    @Override
    String describe() {
      return "schedule_timeout(" + length + ")";
    }
  }

  /** {@code ksoftirqd}: run pending softirqs, reschedule if asked, else sleep. */
  static final class Ksoftirqd extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (c.softirqPending != 0) {
        k.pushSoftirqContext(c);
        return;
      }
      if (c.current.needResched()) {
        k.callSchedule(c, ctx);
        return;
      }
      c.current.setState(TaskState.INTERRUPTIBLE);
      k.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "ksoftirqd: do_softirq(); schedule()";
    }
  }
}
