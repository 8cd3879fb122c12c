package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.TaskState;

/**
 * What tasks do around the scheduler: sleep and wake, the idle loop, system-call entry and the
 * return to user mode, user-space probes, fork and exit, timed sleeps, ksoftirqd.
 *
 * <p>Models include/linux/wait.h {@code wait_event} and kernel/sched.c {@code __wake_up},
 * arch/i386/kernel/process.c {@code cpu_idle}, arch/i386/kernel/entry.S {@code system_call} /
 * {@code ret_from_sys_call} / {@code ret_from_intr}, kernel/fork.c {@code do_fork},
 * kernel/exit.c {@code do_exit}, kernel/timer.c {@code sys_nanosleep} and kernel/softirq.c
 * {@code ksoftirqd} (2.4.17).
 */
final class TaskOps {

  private TaskOps() {}

  /**
   * {@code wait_event(wq, condition)} (or a plain {@code sleep_on} without condition): sleep
   * until woken and the condition holds.
   */
  @Models(file = "include/linux/sched.h", function = "wait_event", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "interruptible_sleep_on", version = "2.4.17")
  @Models(file = "arch/i386/kernel/semaphore.c", function = "__down", version = "2.4.17")
  static final class WaitEvent extends Op {
    final WaitQueue wq;
    final WaitCondition condition;
    final TaskState sleepState;
    final boolean exclusive;
    final String label; // how the listing names it, null for the default
    final boolean mightSleep; // down(): might_sleep() first, once

    WaitEvent(WaitQueue wq, WaitCondition condition, TaskState sleepState, boolean exclusive) {
      this(wq, condition, sleepState, exclusive, null, false);
    }

    WaitEvent(WaitQueue wq, WaitCondition condition, TaskState sleepState, boolean exclusive, String label,
        boolean mightSleep) {
      this.wq = wq;
      this.condition = condition;
      this.sleepState = sleepState;
      this.exclusive = exclusive;
      this.label = label;
      this.mightSleep = mightSleep;
    }

    // phases: 0 entry (down's might_sleep), 2 the test, 1 back from schedule()
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      Task t = c.current;
      if (f.phase == 0) {
        f.phase = 2;
        if (mightSleep && k.mightSleepHook != null) {
          ctx.push(k.mightSleepHook, false);
          return;
        }
      }
      if (f.phase == 2) {
        if (condition != null && condition.ready()) {
          f.advance();
          return;
        }
        wq.checkKernel(k, c);
        wq.add(t, exclusive);
        t.setState(sleepState);
        f.phase = 1;
        k.sched.callSchedule(c, ctx);
        return;
      }
      t.setState(TaskState.RUNNING);
      wq.remove(t);
      if (condition == null || condition.ready()) {
        f.advance();
      } else {
        f.phase = 2;
      }
    }

    @Override
    String describe() {
      if (label != null) {
        return label;
      }
      return (condition == null ? "sleep_on(&" : "wait_event(&") + wq.name() + ")";
    }
  }

  /**
   * {@code wake_up(wq)}, paying the policy's wake-up cost per task woken. In process context
   * the wake-up ends in {@code spin_unlock_irqrestore} of the wait-queue and runqueue locks,
   * which with CONFIG_PREEMPT is a preemption point.
   */
  @Models(file = "kernel/sched.c", function = "__wake_up", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "__wake_up_sync", version = "2.4.17")
  static final class WakeUp extends Op {
    final WaitQueue wq;
    final boolean sync;

    WakeUp(WaitQueue wq, boolean sync) {
      this.wq = wq;
      this.sync = sync;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        chargeWakeUps(k, c, f, k.sched.wakeUpQueue(c, wq, sync));
        return;
      }
      f.advance();
      c.preemptCheck(ctx);
    }

    /**
     * Phase 0 of an operation that woke {@code woken} tasks: the scheduler's cost of each
     * wake-up, after which phase 1 advances and, with the runqueue lock dropped, is a
     * preemption point.
     */
    static void chargeWakeUps(Kernel k, KernelCpu c, ExecContext.Frame f, int woken) {
      chargeWakeUps(k, c, f, woken, 1);
    }

    /** {@link #chargeWakeUps(Kernel, KernelCpu, ExecContext.Frame, int)}, going on at {@code phase}. */
    static void chargeWakeUps(Kernel k, KernelCpu c, ExecContext.Frame f, int woken, int phase) {
      f.phase = phase;
      c.compute(f, woken * k.scheduler().wakeUpCostNs(), false);
    }

    @Override
    String describe() {
      return (sync ? "wake_up_sync(&" : "wake_up(&") + wq.name() + ")";
    }
  }

  /** {@code cpu_idle()}: schedule when there is work, otherwise {@code sti; hlt}. */
  @Models(file = "arch/i386/kernel/process.c", function = "cpu_idle", version = "2.4.17")
  @Models(file = "arch/i386/kernel/process.c", function = "default_idle", version = "2.4.17")
  static final class Idle extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (c.current.needResched()) {
        k.sched.callSchedule(c, ctx);
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
  @Models(file = "arch/i386/kernel/entry.S", function = "system_call", version = "2.4.17")
  static final class Syscall extends Op {
    final KernelPath body;
    final SyscallArgs<?> args; // null: a call without arguments the kernel looks at

    Syscall(KernelPath body, SyscallArgs<?> args) {
      this.body = body;
      this.args = args;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      c.current.syscallArgs = args == null ? null : args.at(c);
      ctx.push(k.programs.retFromSysCall, false);
      ctx.push(body, false);
      ctx.push(k.programs.systemCallEntry, false);
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
  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_sys_call", version = "2.4.17")
  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_intr", version = "2.4.17")
  static final class RetToUser extends Op {
    final boolean fromSyscall;

    RetToUser(boolean fromSyscall) {
      this.fromSyscall = fromSyscall;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        k.checks.checkUserReturn(c);
        k.checks.checkUserReturnIrqState(c, 0);
        if (c.current.needResched()) {
          k.sched.callSchedule(c, ctx);
          return;
        }
        f.phase = 1;
        if (fromSyscall) {
          c.cpu.cli();
          c.compute(f, k.costs().syscallExitNs(), false);
          return;
        }
      }
      c.cpu.sti();
      if (fromSyscall) {
        c.current.syscallArgs = null;
      }
      f.advance();
    }

    @Override
    String describe() {
      return fromSyscall ? "ret_from_sys_call" : "ret_from_intr (to user)";
    }
  }

  /**
   * An exception taken by the running code, a page fault: {@code error_code} calls the handler
   * (arch/i386/kernel/entry.S 2.4.17; {@code do_page_fault} turns interrupts back on if the
   * faulting code had them on), then {@code ret_from_exception}: to user mode as
   * {@code ret_from_intr} does, into kernel code a preemption point under CONFIG_PREEMPT (both
   * preempt patches put a {@code cli} before {@code jmp ret_from_exception} and test there as
   * for an interrupt, with no look at the saved IF), and {@code iret} restores the flags the
   * fault came with. Exceptions do not raise preempt_count on entry, unlike interrupts.
   */
  @Models(file = "arch/i386/kernel/entry.S", function = "error_code", version = "2.4.17")
  static final class Fault extends Op {
    final KernelPath handler;

    Fault(KernelPath handler) {
      this.handler = handler;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      ctx.saveIrqFlag(c.cpu.interruptsEnabled());
      ctx.push(f.user ? k.programs.retFromExceptionToUser : k.programs.retFromExceptionToKernel, false);
      ctx.push(handler, false);
      if (k.mightSleepHook != null) {
        ctx.push(k.mightSleepHook, false); // handle_mm_fault's allocations may sleep: first
      }
    }

    @Override
    String describe() {
      return "page fault: " + handler.function() + "()";
    }
  }

  /** {@code ret_from_exception}: the decision, then {@code iret} with the saved flags. */
  @Models(file = "arch/i386/kernel/entry.S", function = "ret_from_exception", version = "2.4.17")
  static final class ExceptionReturn extends Op {
    final boolean toUser;

    ExceptionReturn(boolean toUser) {
      this.toUser = toUser;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        if (toUser) {
          k.checks.checkUserReturnIrqState(c, 1); // the fault's own saved flags: iret's
        }
        c.irqDisable(ctx);
        Task t = c.current;
        // Both ways back loop to the test after schedule() returns, with interrupts on in
        // between: ret_from_sys_call's "reschedule: call schedule; jmp ret_from_sys_call", and
        // the preempt patch's "call preempt_schedule; jmp ret_from_intr". An interrupt taken as
        // schedule() returns may have set need_resched again; the phase stays 0 so it is seen.
        if (toUser) {
          k.checks.checkUserReturn(c);
          if (t.needResched()) {
            k.sched.callSchedule(c, ctx);
            return;
          }
        } else if (k.preemption.preemptOnIrqReturn(c, t)) {
          ctx.push(k.programs.preemptSchedulePath, false);
          return;
        }
        f.phase = 1;
        return;
      }
      // iret: the flags the fault came with (user mode always had interrupts on).
      c.irqRestoreSaved(ctx);
      if (toUser) {
        c.irqEnable(ctx);
      }
      f.advance();
    }

    @Override
    String describe() {
      return toUser ? "ret_from_exception (to user)" : "ret_from_exception (to kernel)";
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

  /**
   * {@code do_exit()}: become a zombie and schedule away for good. __exit_mm's mm_release is
   * done here too if the task's paths did not (a vforked child that exits without exec must
   * not leave its parent asleep), and its reference to a shared mm is dropped (mmput); the
   * parent wakes without the wake-up's cost, which a path that calls
   * {@link KernelPath.Builder#mmRelease()} itself pays.
   */
  @Models(file = "kernel/exit.c", function = "do_exit", version = "2.4.17")
  @Models(file = "kernel/exit.c", function = "__exit_mm", version = "2.4.17")
  static final class Exit extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      k.checks.checkExit(c);
      Task t = c.current;
      Task parent = k.lifecycle.mmRelease(t);
      if (parent != null) {
        c.wakeUpProcess(parent);
      }
      if (t.mm() != null && t.mm().users() > 1) {
        t.mm().put();
      }
      t.setState(TaskState.ZOMBIE);
      f.advance();
      k.sched.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "do_exit()";
    }
  }

  /**
   * {@code do_fork()}'s scheduler part: the child is created and made runnable. For vfork
   * (CLONE_VM | CLONE_VFORK) the parent then sleeps in TASK_UNINTERRUPTIBLE until the child's
   * mm_release completes its vfork_done (do_fork's {@code wait_for_completion(&vfork)},
   * kernel/sched.c wait_for_completion, which loops until the completion is done).
   */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "wait_for_completion", version = "2.4.17")
  static final class Fork extends Op {
    final String comm;
    final KernelPath program;
    final boolean vfork;

    Fork(String comm, KernelPath program, boolean vfork) {
      this.comm = comm;
      this.program = program;
      this.vfork = vfork;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      Task t = c.current;
      if (f.phase == 0) {
        k.lifecycle.fork(c, comm, program, vfork);
        if (!vfork) {
          f.advance();
          return;
        }
        f.phase = 1;
      }
      if (t.vforkWaiting) {
        t.setState(TaskState.UNINTERRUPTIBLE);
        k.sched.callSchedule(c, ctx);
        return;
      }
      t.setState(TaskState.RUNNING);
      f.advance();
    }

    @Override
    String describe() {
      return (vfork ? "do_fork(CLONE_VFORK | CLONE_VM, " : "do_fork(") + comm + ")";
    }
  }

  /**
   * {@code mm_release()}: a vforked child that execs or exits completes its parent's
   * vfork_done, waking the parent ({@code complete()}: a wake-up under the completion's
   * wait-queue lock, whose {@code spin_unlock_irqrestore} is a preemption point with
   * CONFIG_PREEMPT). Nothing for any other task.
   */
  @Models(file = "kernel/fork.c", function = "mm_release", version = "2.4.17")
  @Models(file = "kernel/sched.c", function = "complete", version = "2.4.17")
  static final class MmRelease extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 0) {
        Task parent = k.lifecycle.mmRelease(c.current);
        if (parent == null) {
          f.advance();
          return;
        }
        WakeUp.chargeWakeUps(k, c, f, c.wakeUpProcess(parent) ? 1 : 0);
        return;
      }
      f.advance();
      c.preemptCheck(ctx);
    }

    @Override
    String describe() {
      return "mm_release()";
    }
  }

  /**
   * exec_mmap's move to a new mm when the old one has other users (a vforked child's exec):
   * mm_alloc, activate_mm, mmput of the old one, which loses a user and nothing else. Nothing
   * when the task is the old mm's only user: exec reuses it.
   */
  @Models(file = "fs/exec.c", function = "exec_mmap", version = "2.4.17")
  static final class ReplaceSharedMm extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      k.lifecycle.replaceSharedMm(c.current);
      f.advance();
    }

    @Override
    String describe() {
      return "exec_mmap(): a new mm if the old one is shared, mmput(old_mm)";
    }
  }

  /**
   * {@code schedule_timeout(timeout)} (kernel/sched.c 2.4.17) in TASK_INTERRUPTIBLE, with a
   * timer that wakes the task. As {@code sys_nanosleep} (kernel/timer.c) it converts the length
   * to {@code ceil(ns / tick) + 1} jiffies (one more, because the current tick is partly gone)
   * and, for a real-time task asking for 2 ms or less, busy-waits with {@code udelay} instead
   * of sleeping: a real-time task's short sleep is exact, at the price of the CPU.
   */
  @Models(file = "kernel/sched.c", function = "schedule_timeout", version = "2.4.17")
  @Models(file = "kernel/timer.c", function = "sys_nanosleep", version = "2.4.17")
  static final class SleepTimeout extends Op {
    /** sys_nanosleep's busy-wait limit for real-time tasks, 2 ms (kernel/timer.c 2.4.17). */
    static final long NANOSLEEP_UDELAY_LIMIT_NS = 2_000_000;
    /**
     * {@code MAX_SCHEDULE_TIMEOUT} as a jiffy count: 2.4's is LONG_MAX on a 32-bit long; the
     * model's jiffies are a 64-bit count, so any sleep past it is for ever.
     */
    static final long MAX_SCHEDULE_TIMEOUT_TICKS = Long.MAX_VALUE / 2;

    final Count length;
    final String lengthLabel;
    final boolean nanosleep;

    SleepTimeout(Distribution length, boolean nanosleep) {
      this(c -> c.sample(length), length.toString(), nanosleep);
    }

    SleepTimeout(Count length, String lengthLabel, boolean nanosleep) {
      this.length = length;
      this.lengthLabel = lengthLabel;
      this.nanosleep = nanosleep;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      Task t = c.current;
      if (f.phase == 0) {
        long ns = length.at(c);
        if (ns < 0) {
          throw new IllegalStateException(describe() + ": a sleep of " + ns + " ns, a length is 0 or more");
        }
        if (nanosleep && ns <= NANOSLEEP_UDELAY_LIMIT_NS && t.policy().isRealTime()) {
          c.compute(f, ns, true);
          return;
        }
        long tick = 1_000_000_000L / k.hz();
        long ticks = ns / tick + (ns % tick != 0 ? 1 : 0) + (nanosleep ? 1 : 0);
        // schedule_timeout(MAX_SCHEDULE_TIMEOUT) is a plain schedule(): a sleep longer than the
        // jiffies counter can reach is a sleep for ever, with no timer (kernel/sched.c 2.4.17)
        if (ticks < MAX_SCHEDULE_TIMEOUT_TICKS - k.jiffies()) {
          k.modTimer(k.lifecycle.timeoutTimer(t), k.jiffies() + ticks);
        }
        t.setState(TaskState.INTERRUPTIBLE);
        f.phase = 1;
        k.sched.callSchedule(c, ctx);
        return;
      }
      k.delTimer(k.lifecycle.timeoutTimer(t));
      t.setState(TaskState.RUNNING);
      f.advance();
    }

    @Override
    String describe() {
      return (nanosleep ? "sys_nanosleep: " : "") + "schedule_timeout(" + lengthLabel + ")";
    }
  }

  /**
   * {@code ktimers/N} where softirqs are threaded: the timer's softirqs that hard interrupts
   * left pending join the CPU's pending mask and one {@code do_softirq()} pass runs them all, as
   * 6.12's {@code run_ktimerd} does ({@code or_softirq_pending}, then {@code __do_softirq});
   * then it sleeps until the next timer interrupt wakes it.
   */
  @Models(file = "kernel/softirq.c", function = "run_ktimerd", version = "6.12")
  static final class Ktimerd extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (c.timerSoftirqPending != 0) {
        c.softirqPending |= c.timerSoftirqPending;
        c.timerSoftirqPending = 0;
        k.interrupts.pushSoftirqContext(c, true);
        return;
      }
      c.current.setState(TaskState.INTERRUPTIBLE);
      k.sched.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "run_ktimerd: do_softirq(); schedule()";
    }
  }

  /**
   * {@code ksoftirqd}: {@code while (softirq_pending(cpu)) { do_softirq(); if
   * (current->need_resched) schedule(); }}, then sleep until woken.
   */
  @Models(file = "kernel/softirq.c", function = "ksoftirqd", version = "2.4.17")
  static final class Ksoftirqd extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      if (f.phase == 1) {
        // Back from a do_softirq() pass: 2.4.17 looks at need_resched after every pass, before
        // softirq_pending again, so a softirq that keeps raising itself cannot keep the thread
        // on the CPU past its slice.
        f.phase = 0;
        if (c.current.needResched()) {
          k.sched.callSchedule(c, ctx);
          return;
        }
      }
      if (c.softirqPending != 0) {
        f.phase = 1;
        k.interrupts.pushSoftirqContext(c, true);
        return;
      }
      if (c.current.needResched()) {
        k.sched.callSchedule(c, ctx);
        return;
      }
      c.current.setState(TaskState.INTERRUPTIBLE);
      k.sched.callSchedule(c, ctx);
    }

    @Override
    String describe() {
      return "ksoftirqd: do_softirq(); schedule()";
    }
  }
}
