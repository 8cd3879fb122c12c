package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The interrupt and softirq tracepoints (irq_handler_entry/exit, softirq_entry/exit) around
 * arch/i386/kernel/irq.c do_IRQ and kernel/softirq.c do_softirq (2.4.17): the handler between
 * irq_enter and irq_exit; the pending softirqs run at the outermost irq_exit, so after
 * irq_handler_exit; the wake-up tracepoint names the task woken. One zero-cost CPU; the RTC
 * (IRQ 8) fires at 1 ms; its handler runs 100 us and raises NET_RX, whose handler runs 50 us
 * and wakes R, a reader asleep on a queue.
 */
class InterruptTraceTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  @Test
  void anInterruptsEntryExitAndItsSoftirqAreTracedInTheOrderDoIrqRunsThem() {
    List<String> seen = new ArrayList<>();
    int[] rtcVector = {-1};
    Tracer t = new Tracer() {
      @Override
      public void irqEntry(long now, int cpu, int vector) {
        if (vector == rtcVector[0]) {
          seen.add("irq_entry @" + now / US);
        }
      }

      @Override
      public void irqExit(long now, int cpu, int vector) {
        if (vector == rtcVector[0]) {
          seen.add("irq_exit @" + now / US);
        }
      }

      @Override
      public void softirqEntry(long now, int cpu, int pending) {
        if (pending == Softirq.NET_RX.bit()) {
          seen.add("softirq_entry @" + now / US);
        }
      }

      @Override
      public void softirqExit(long now, int cpu) {
        if (now == MS + 150 * US) {
          seen.add("softirq_exit @" + now / US);
        }
      }

      @Override
      public void schedWakeup(long now, int cpu, TaskView task) {
        if (task.comm().equals("R")) {
          seen.add("wakeup R @" + now / US + " cpu" + cpu);
        }
      }

      @Override
      public void pathExit(long now, int cpu, PathView path) {
        if (path.function().equals("do_IRQ") && now > 0 && now < 2 * MS) {
          seen.add("iret @" + now / US);
        }
      }
    };
    WaitQueue q = new WaitQueue("q");
    KernelPath h = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .compute(100 * US).raiseSoftirq(Softirq.NET_RX).build();
    KernelPath netRx = KernelPath.path("net/core/dev.c", "net_rx_action").compute(50 * US).wakeUp(q).build();
    KernelPath reader = KernelPath.userProgram("R")
        .syscall(KernelPath.path("net/socket.c", "sys_recv").sleepOn(q).build())
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(t)
        .openSoftirq(Softirq.NET_RX, netRx)
        .requestIrq(Rtc.IRQ, "rtc", h, true)
        .task(TaskSpec.user("R", reader))
        .task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .build();
    rtcVector[0] = k.machine().ioApic().vectorOf(Rtc.IRQ);
    k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), MS);
    k.run(3 * MS);
    assertThat(seen).containsExactly(
        "irq_entry @1000", "irq_exit @1100", "softirq_entry @1100", "wakeup R @1150 cpu0",
        "softirq_exit @1150", "iret @1150");
  }

  @Test
  void composedTracersSeeEveryEventInTheOrderGiven() {
    List<String> seen = new ArrayList<>();
    Tracer a = new Tracer() {
      @Override
      public void latencySample(long now, int cpu, TaskView task, long latencyNs) {
        seen.add("a" + latencyNs);
      }
    };
    Tracer b = new Tracer() {
      @Override
      public void latencySample(long now, int cpu, TaskView task, long latencyNs) {
        seen.add("b" + latencyNs);
      }
    };
    Tracer.compose(a).latencySample(0, 0, null, 1);
    Tracer.compose(a, b, a).latencySample(0, 0, null, 2);
    assertThat(seen).containsExactly("a1", "a2", "b2", "a2");
    assertThatIllegalArgumentException().isThrownBy(Tracer::compose)
        .withMessage("compose needs at least one tracer");
  }

  /** TASK_INTERRUPTIBLE and TASK_UNINTERRUPTIBLE are the sleeping states (include/linux/sched.h). */
  @Test
  void onlyTheTwoWaitStatesAreSleeping() {
    assertThat(java.util.Arrays.stream(TaskState.values()).filter(TaskState::isSleeping))
        .containsExactly(TaskState.INTERRUPTIBLE, TaskState.UNINTERRUPTIBLE);
  }

  /** A run-time switch reads as /proc/sys prints it. */
  @Test
  void aSysctlReadsAndPrintsItsValue() {
    Sysctl s = new Sysctl("kernel/lowlatency", true);
    assertThat(s).hasToString("kernel/lowlatency=1");
    s.set(false);
    assertThat(s.get()).isFalse();
    assertThat(s).hasToString("kernel/lowlatency=0");
    assertThat(s.name()).isEqualTo("kernel/lowlatency");
  }

  /** cpus_allowed is a bit mask of CPUs: a task may run on CPU c iff bit c is set. */
  @Test
  void aTaskMayRunExactlyOnTheCpusOfItsMask() {
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(3), 1)
        .scheduler(new SimpleRoundRobinScheduler()).ksoftirqd(false)
        .task(TaskSpec.user("T", RtcProbeRig.userHog()).onCpu(2).allowedOn(0b101))
        .build();
    Task t = k.allTasks().get(0);
    assertThat(t.mayRunOn(0)).isTrue();
    assertThat(t.mayRunOn(1)).isFalse();
    assertThat(t.mayRunOn(2)).isTrue();
    assertThat(t.cpu()).isEqualTo(2);
    assertThat(t.signalPending()).isFalse();
  }
}
