package dev.kernellab.kernel;

import dev.kernellab.hw.Machine;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.Pit;
import dev.kernellab.hw.Vectors;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.Softirq;

/**
 * Time in the kernel: the PIT's timer interrupt and {@code do_timer()} ({@code jiffies}), the
 * per-CPU local APIC timer of an SMP machine, {@code update_process_times()} (the scheduler's
 * tick), and the timer list, run from the timer bottom half ({@link TimerBh}).
 */
final class TimerInterrupts {

  private final Kernel k;
  private final Scheduler scheduler;
  private final TimerList timers = new TimerList();
  private long jiffies = 1;

  TimerInterrupts(Kernel k, Scheduler scheduler) {
    this.k = k;
    this.scheduler = scheduler;
  }

  long jiffies() {
    return jiffies;
  }

  /**
   * Registers the timer interrupt, the SMP local timers and the reschedule and call-function
   * IPIs on their vectors, programs the PIT for {@code hz}, and makes {@code run_timer_list}
   * the HI softirq's handler unless a patch installed one.
   */
  @Models(file = "arch/i386/kernel/time.c", function = "timer_interrupt", version = "2.4.17")
  @Models(file = "arch/i386/kernel/apic.c", function = "smp_apic_timer_interrupt",
      version = "2.4.17")
  @Models(file = "arch/i386/kernel/smp.c", function = "smp_reschedule_interrupt",
      version = "2.4.17")
  void install(Machine machine, int hz) {
    KernelPath doTimer =
        KernelPath.path("arch/i386/kernel/time.c", "timer_interrupt")
            .op(new FlowOps.DynamicCompute("PIT latch read",
                (kk, c) -> kk.costs().pitReadNs() + kk.costs().tscReadNs()))
            .effect("do_timer(): jiffies++, update_process_times(), mark_bh(TIMER_BH)", this::doTimer)
            .build();
    k.setIrqAction(machine.ioApic().vectorOf(Pit.IRQ), new Kernel.IrqAction("timer", doTimer, true));
    machine.pit().program(Kernel.latch(hz));
    int cpus = machine.cpuCount();
    if (cpus > 1) {
      KernelPath local =
          KernelPath.path("arch/i386/kernel/apic.c", "smp_apic_timer_interrupt")
              .effect("update_process_times()", this::updateProcessTimes)
              .build();
      k.setIrqAction(Vectors.LOCAL_TIMER_VECTOR, new Kernel.IrqAction("local-timer", local, true));
      for (int i = 0; i < cpus; i++) {
        machine.localApic(i).startTimer(1_000_000_000L / hz);
      }
    }
    KernelPath ack = KernelPath.path("arch/i386/kernel/smp.c", "smp_reschedule_interrupt").build();
    k.setIrqAction(Vectors.RESCHEDULE_VECTOR, new Kernel.IrqAction("reschedule", ack, true));
    k.setIrqAction(Vectors.CALL_FUNCTION_VECTOR, new Kernel.IrqAction("call-function", ack, true));
    if (k.softirqHandler(Softirq.HI.ordinal()) == null) {
      k.setSoftirqHandler(Softirq.HI, new TimerBh(k, timers, hz).timerBh);
    }
  }

  @Models(file = "kernel/timer.c", function = "do_timer", version = "2.4.17")
  private void doTimer(KernelCpu c) {
    jiffies++;
    if (k.cpuCount() == 1) {
      updateProcessTimes(c);
    }
    // mark_bh(TIMER_BH) on every tick: timer_bh runs update_times() and run_timer_list().
    c.raiseSoftirq(Softirq.HI);
  }

  @Models(file = "kernel/timer.c", function = "update_process_times", version = "2.4.17")
  private void updateProcessTimes(KernelCpu c) {
    scheduler.tick(c.id, interruptedUserMode(c));
  }

  private static boolean interruptedUserMode(KernelCpu c) {
    ExecContext below = c.contextDepth >= 2 ? c.contexts[c.contextDepth - 2] : c.current.context;
    return below.kind == ExecContext.Kind.TASK && below.inUserMode();
  }

  void mod(KernelTimer timer, long expires) {
    if (timer == null) {
      throw new IllegalArgumentException("mod_timer: no timer (null)");
    }
    if (expires < 0) {
      throw new IllegalArgumentException(
          "mod_timer(" + timer + ", " + expires + "): expires is a jiffy count, never negative");
    }
    timers.mod(timer, expires);
  }

  boolean del(KernelTimer timer) {
    return timers.del(timer);
  }

  void forget(KernelTimer timer) {
    timers.forget(timer);
  }
}
