package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Threaded softirqs (Patching.threadSoftirqs): nothing runs on the way out of a hard interrupt;
 * the timer's softirq waits for ktimers/N, the others for ksoftirqd.
 */
class ThreadedSoftirqsTests {

  private static final long MS = 1_000_000;

  private static final KernelPatch THREADED = RtSwitches.of("threaded-softirqs", false, true, false);

  /** Who ran the NET_RX action, and in which context. */
  private final List<String> ran = new ArrayList<>();

  private KernelBuilder machine(boolean threaded) {
    KernelPath rx = KernelPath.path("net/core/dev.c", "net_rx_action")
        .effect("who", c -> ran.add(c.current().comm() + (c.inInterrupt() ? " in softirq" : " in task")))
        .build();
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").raiseSoftirq(Softirq.NET_RX).build();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .requestIrq(Rtc.IRQ, "rtc", handler, true)
        .openSoftirq(Softirq.NET_RX, rx)
        .task(TaskSpec.user("B", KernelPath.userProgram("B").loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()));
    return threaded ? b.patch(THREADED) : b;
  }

  @Test
  void aSoftirqRaisedInAHardInterruptRunsInAThreadNotAtItsExit() {
    Kernel k = machine(true).build();
    RtcProbeRig.assertRtcAt(k, MS);
    k.run(3 * MS);
    // ksoftirqd, woken at the exit, is nice 19 and waits for B's slice
    assertThat(ran).as("nothing at the interrupt's exit").isEmpty();
    k.run(12 * MS);
    k.checkInvariants();
    // the tick at 10 ms wakes ktimers (FIFO 1), whose one pass runs every pending softirq
    // (run_ktimerd: or_softirq_pending, then __do_softirq)
    assertThat(ran).containsExactly("ktimers/0 in softirq");
  }

  @Test
  void withoutThreadingItRunsAtTheInterruptsExitOverWhateverRan() {
    Kernel k = machine(false).build();
    RtcProbeRig.assertRtcAt(k, MS);
    k.run(3 * MS);
    assertThat(ran).containsExactly("B in softirq");
  }

  /** S (SCHED_FIFO 10) naps 2 ms at a time at HZ 1000: the tasks current where it is woken. */
  private List<String> wakersOfANapper(boolean threaded, List<Kernel> built) {
    List<String> wakers = new ArrayList<>();
    Kernel[] kernel = new Kernel[1];
    Tracer who = new Tracer() {
      @Override
      public void schedWakeup(long now, int cpu, TaskView task) {
        if (task.comm().equals("S")) {
          wakers.add(kernel[0].current(cpu).comm());
        }
      }
    };
    KernelPath sleeper = KernelPath.userProgram("S")
        .loop("nap", Long.MAX_VALUE, l -> l.syscall(KernelPath.path("test/nap.c", "nap").sleepFor(2 * MS).build()))
        .build();
    Kernel k = machine(threaded).hz(1000).task(TaskSpec.user("S", sleeper).fifo(10)).tracer(who).build();
    kernel[0] = k;
    built.add(k);
    k.run(10 * MS);
    k.checkInvariants();
    return wakers;
  }

  @Test
  void theTimersSoftirqRunsInKtimersAtFifoOne() {
    List<Kernel> k = new ArrayList<>();
    assertThat(wakersOfANapper(true, k)).isNotEmpty().containsOnly("ktimers/0");
    TaskView ktimers = k.get(0).task("ktimers/0").orElseThrow();
    assertThat(ktimers.policy()).isEqualTo(SchedPolicy.FIFO);
    assertThat(ktimers.rtPriority()).isEqualTo(Kernel.KTIMERD_PRIORITY);
  }

  @Test
  void withoutThreadingTheTimerWakesTheSleeperFromTheTicksSoftirq() {
    List<Kernel> k = new ArrayList<>();
    assertThat(wakersOfANapper(false, k)).isNotEmpty().doesNotContain("ktimers/0");
    assertThat(k.get(0).task("ktimers/0")).isEmpty();
  }

  @Test
  void threadedSoftirqsNeedKsoftirqdAndTheirThreadsNames() {
    assertThatIllegalStateException().isThrownBy(() -> machine(true).ksoftirqd(false).build())
        .withMessageContaining("ksoftirqd");
    KernelPath idle = KernelPath.userProgram("x").loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> machine(true).task(TaskSpec.user("ktimers/0", idle)).build())
        .withMessageContaining("ktimers/0");
  }
}
