package dev.kernellab.kernel;

import dev.kernellab.hw.CostTable;

/**
 * The kernel's own programs, built once per kernel from its cost table: {@code schedule()} and
 * {@code preempt_schedule()}, the entry.S paths into and out of the kernel, {@code do_IRQ},
 * {@code do_softirq}, the idle loop and {@code do_exit}. The interpreter pushes them; the
 * operations they are made of (SchedOps, TaskOps, IrqOps) hold the behaviour.
 */
final class EntryPrograms {

  final KernelPath schedulePath;
  final KernelPath preemptSchedulePath;
  final KernelPath reacquireKernelLock;
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

  EntryPrograms(CostTable costs) {
    schedulePath =
        KernelPath.of(
            "kernel/sched.c", "schedule", false,
            new SchedOps.ScheduleEntry(),
            new SchedOps.PolicyCost(),
            new SchedOps.Switch(),
            new SchedOps.SwitchCost(),
            new SchedOps.ScheduleTail());
    reacquireKernelLock =
        KernelPath.of("lib/kernel_lock.c", "__reacquire_kernel_lock", false, new LockOps.ReacquireKernelLock());
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
            new IrqOps.IrqAck(),
            new IrqOps.IrqEnter(),
            new IrqOps.HandleIrqEvent(),
            new IrqOps.IrqEnd(),
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
  }
}
