package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SchedulerProvider;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.WaitQueue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two schedulers' context switches under an interrupt: 2.4.17's goodness {@code schedule()}
 * drops {@code runqueue_lock} with {@code spin_unlock_irq} before {@code switch_to}, so an
 * interrupt is taken inside the switch; 2.5.5's O(1) switches under {@code rq->lock} with
 * interrupts off ({@code finish_arch_switch} unlocks after), so the interrupt waits for its end.
 *
 * <p>One CPU, every cost zero but a 100 us context switch. T (SCHED_FIFO 50) sleeps on a
 * queue, H computes in user mode. An interrupt at 1 ms wakes T; T's switch back in takes
 * 1 ms..1.1 ms; a second interrupt is asserted at 1.05 ms.
 */
class SwitchLockingTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  private static List<Long> handlerEntries(String scheduler) {
    List<Long> entered = new ArrayList<>();
    WaitQueue wq = new WaitQueue("q");
    KernelPath irq = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("ack, note the instant", c -> {
          c.machine().rtc().readRegisterC();
          entered.add(c.now());
        })
        .wakeUp(wq)
        .build();
    Kernel k = new KernelBuilder(
            MachineSpec.uniprocessor().withCosts(new CostTable(0, 0, 100 * US, 0, 0, 0, 0, 0, 0, 0, 0)), 1)
        .scheduler(SchedulerProvider.create(scheduler))
        .debugChecks(DebugChecks.all())
        .requestIrq(Rtc.IRQ, "rtc", irq, true)
        .task(TaskSpec.user("T", KernelPath.userProgram("T")
            .syscall(KernelPath.path("test/t.c", "wait").sleepOn(wq).build())
            .loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()).fifo(50))
        .task(TaskSpec.user("H", RtcProbeRig.userHog()))
        .build();
    RtcProbeRig.assertRtcAt(k, MS);
    k.machine().simulation().schedule(
        new Event("rtc.assert again", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), MS + 50 * US);
    k.run(2 * MS);
    k.checkInvariants();
    return entered;
  }

  @Test
  void theGoodnessSchedulersSwitchCanBeInterrupted() {
    assertThat(handlerEntries("goodness")).containsExactly(MS, MS + 50 * US);
  }

  @Test
  void theO1SchedulersSwitchCannot() {
    assertThat(handlerEntries("o1")).containsExactly(MS, MS + 100 * US);
  }
}
