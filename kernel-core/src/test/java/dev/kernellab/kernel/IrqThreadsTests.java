package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Forced interrupt threading: what the hard interrupt still does, and what its thread does. */
class IrqThreadsTests {

  private static final long MS = 1_000_000;

  /** A patch that threads the interrupts, as rt does. */
  private static final KernelPatch THREADED = RtSwitches.of("threaded", true, false, false);

  /** Who ran the RTC handler, with interrupts on or off, bottom halves off or on. */
  private final List<String> ran = new ArrayList<>();

  private KernelBuilder machine(boolean threaded) {
    return machine(threaded, 0);
  }

  private KernelBuilder machine(boolean threaded, long handlerNs) {
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .compute(handlerNs)
        .effect("who", c -> ran.add(c.current().comm() + " irqs " + (c.interruptsEnabled() ? "on" : "off")
            + " count " + Integer.toHexString(c.preemptCount())))
        .build();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .requestIrq(Rtc.IRQ, "rtc", handler, true)
        .task(TaskSpec.user("B", KernelPath.userProgram("B").loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()));
    return threaded ? b.patch(THREADED) : b;
  }

  @Test
  void aThreadedHandlerRunsInItsOwnFifoThreadWithInterruptsOnAndPreemptible() {
    Kernel k = machine(true).build();
    TaskView rtc = k.task("irq/8-rtc").orElseThrow();
    assertThat(rtc.policy()).isEqualTo(SchedPolicy.FIFO);
    assertThat(rtc.rtPriority()).isEqualTo(IrqThreads.DEFAULT_PRIORITY);
    assertThat(k.task("irq/" + IdeDisk.IRQ + "-ide0")).as("the disk's line is threaded too").isPresent();
    assertThat(k.task("irq/0-timer")).as("the tick stays hard").isEmpty();
    RtcProbeRig.assertRtcAt(k, MS);
    k.run(3 * MS);
    k.checkInvariants();
    // preempt count 0: under PREEMPT_RT irq_forced_thread_fn's local_bh_disable() is a lock
    assertThat(ran).containsExactly("irq/8-rtc irqs on count 0");
  }

  @Test
  void withoutThreadingTheHandlerRunsInTheHardInterruptOverWhateverRan() {
    Kernel k = machine(false).build();
    assertThat(k.task("irq/8-rtc")).isEmpty();
    RtcProbeRig.assertRtcAt(k, MS);
    k.run(3 * MS);
    // HARDIRQ_OFFSET (0x10000), interrupts off: SA_INTERRUPT
    assertThat(ran).containsExactly("B irqs off count 10000");
  }

  @Test
  void edgesWhileTheThreadRunsTheHandlerMakeItRunOnceMore() {
    Kernel k = machine(true, 100_000).build();
    RtcProbeRig.assertRtcAt(k, MS);
    // inside the 100 us handler: IRQTF_RUNTHREAD set again, twice, which is one bit
    RtcProbeRig.assertRtcAt(k, MS + 30_000);
    RtcProbeRig.assertRtcAt(k, MS + 60_000);
    k.run(2 * MS);
    assertThat(ran).hasSize(2).allMatch(s -> s.startsWith("irq/8-rtc"));
  }

  @Test
  void aLinesThreadPriorityIsTheBuildersAndABadOneIsRefusedWhereItArrives() {
    Kernel k = machine(true).irqThreadPriority(Rtc.IRQ, 80).build();
    assertThat(k.task("irq/8-rtc").orElseThrow().rtPriority()).isEqualTo(80);
    assertThat(k.task("irq/14-ide0").orElseThrow().rtPriority()).isEqualTo(50);
    assertThatIllegalArgumentException().isThrownBy(() -> machine(true).irqThreadPriority(0, 80))
        .withMessage("IRQ 0 is the timer's, which stays a hard interrupt and has no thread to give a priority");
    assertThatIllegalArgumentException().isThrownBy(() -> machine(true).irqThreadPriority(8, 100))
        .withMessage("IRQ 8's thread: 100 is not a SCHED_FIFO priority (1 to 99)");
    assertThatIllegalArgumentException().isThrownBy(() -> machine(true).irqThreadPriority(5, 60).build())
        .withMessage("IRQ 5's thread priority: the line has no handler in this kernel (lines with one: [8, 14])");
    assertThatIllegalArgumentException().isThrownBy(() -> machine(false).irqThreadPriority(8, 60).build())
        .withMessage("IRQ 8's thread priority: no interrupt of this kernel runs in a thread"
            + " (a patch such as rt threads them)");
    assertThatIllegalArgumentException().isThrownBy(() -> machine(true)
            .task(TaskSpec.kernelThread("irq/8-rtc", KernelPath.path("t.c", "t").compute(1).build())).build())
        .withMessage("task irq/8-rtc has the name of IRQ 8's handler thread");
  }

  @Test
  void aPriorityWhereThreadedReachesAThreadedKernelAndLeavesAnotherAsItIs() {
    Kernel threaded = machine(true).irqThreadPriorityWhereThreaded(Rtc.IRQ, 80).build();
    assertThat(threaded.irqThread(Rtc.IRQ).orElseThrow().rtPriority()).isEqualTo(80);
    // the same unthreaded kernel refuses the unconditional form, so building is what the
    // where-threaded form changes, not only the threads it leaves absent
    assertThatIllegalArgumentException()
        .isThrownBy(() -> machine(false).irqThreadPriority(Rtc.IRQ, 80).build())
        .withMessageStartingWith("IRQ 8's thread priority: no interrupt of this kernel runs in");
    Kernel hard = machine(false).irqThreadPriorityWhereThreaded(Rtc.IRQ, 80).build();
    assertThat(hard.irqThread(Rtc.IRQ)).isEmpty();
    Kernel both = machine(true).irqThreadPriority(Rtc.IRQ, 70).irqThreadPriorityWhereThreaded(Rtc.IRQ, 80).build();
    assertThat(both.irqThread(Rtc.IRQ).orElseThrow().rtPriority()).as("the unconditional setting wins").isEqualTo(70);
    assertThatIllegalArgumentException().isThrownBy(() -> machine(true).irqThreadPriorityWhereThreaded(0, 80))
        .withMessage("IRQ 0 is the timer's, which stays a hard interrupt and has no thread to give a priority");
    assertThatIllegalArgumentException().isThrownBy(() -> machine(true).irqThreadPriorityWhereThreaded(5, 60).build())
        .withMessage("IRQ 5's thread priority: the line has no handler in this kernel (lines with one: [8, 14])");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> machine(false).irqThreadPriority(5, 60).build())
        .withMessageStartingWith("IRQ 5's thread priority: no interrupt of this kernel runs in");
    assertThat(machine(false).irqThreadPriorityWhereThreaded(5, 60).build().irqThread(5))
        .as("no threads, so no line to check").isEmpty();
  }

  @Test
  void theDeviceLinesAreTheDisksAndRequestIrqsWithTheirHandlersNames() {
    assertThat(machine(false).deviceLines()).containsExactly(Map.entry(Rtc.IRQ, "rtc"), Map.entry(14, "ide0"));
  }
}
