package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.rt.RtPatch;
import dev.kernellab.workloads.Cyclictest;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where softirqs run in threads (rt), the tick only wakes ktimers/0, whose timer list wakes the
 * cyclictest thread: a raw spinlock held over the tick keeps ktimers off the CPU (an ordinary
 * spinlock_t would sleep under rt, and its holder be preempted), and the anatomy names that hold
 * as the wait for the handler thread, with the timer's softirqs in ktimers/0 as the thread's
 * part. Zero-cost uniprocessor, HZ 100; B takes the lock from 19 ms to 21 ms, over the tick at
 * 20 ms that expires the thread's timer (asked for at 10 ms).
 */
class ThreadedTimerSoftirqScenarioTests {

  private static final long MS = 1_000_000;

  private static SampleAnatomy worst(boolean rt, boolean raw) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Cyclictest ct = new Cyclictest(1, 10 * MS);
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"))
        .patch(new PreemptKernelPatch());
    if (rt) {
      kb.patch(new RtPatch());
    }
    paths.install(kb);
    LatencyAnatomy anatomy = new LatencyAnatomy(ct.probe(), 8);
    kb.tracer(anatomy);
    ct.tasks().forEach(kb::task);
    SpinLock lock = raw ? SpinLock.raw("scenario_lock") : SpinLock.spin("scenario_lock");
    KernelPath k = KernelPath.path("scenario/lock.c", "K")
        .compute(19 * MS).spinLock(lock).compute(2 * MS).spinUnlock(lock).compute(3 * MS).build();
    kb.task(TaskSpec.user("B", KernelPath.userProgram("B").syscall(k)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build()));
    ct.listen(anatomy);
    Kernel kernel = kb.build();
    kernel.run(40 * MS);
    List<SampleAnatomy> all = anatomy.worst();
    for (SampleAnatomy s : all) {
      assertThat(s.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(s.latencyNs());
    }
    return all.stream().max(Comparator.comparingLong(SampleAnatomy::latencyNs)).orElseThrow();
  }

  @Test
  void aLockHeldOverTheTickDelaysKtimersAndIsNamedAsTheWaitForIt() {
    SampleAnatomy s = worst(true, true);
    assertThat(s.segments()).extracting(Segment::part).containsExactly(Part.TIMER_GRANULARITY,
        Part.INTERRUPT_LATENCY, Part.HANDLER, Part.WAIT_FOR_HANDLER_THREAD, Part.HANDLER_THREAD,
        Part.WAIT_FOR_CPU, Part.SWITCH_TO_USER);
    assertThat(s.dominant().part()).isEqualTo(Part.WAIT_FOR_HANDLER_THREAD);
    Segment wait = s.segment(Part.WAIT_FOR_HANDLER_THREAD).orElseThrow();
    // the tick is asserted at 20 ms; the lock goes at 21 ms
    assertThat(wait.ns()).isBetween(MS - 50_000, MS);
    assertThat(wait.cause()).isInstanceOfSatisfying(Cause.SpinlockHeld.class, h -> {
      assertThat(h.lock().name()).isEqualTo("scenario_lock");
      assertThat(h.task().comm()).isEqualTo("B");
    });
    assertThat(s.segment(Part.HANDLER_THREAD).orElseThrow().cause())
        .isInstanceOfSatisfying(Cause.SoftirqThread.class, t -> assertThat(t.thread().comm()).isEqualTo("ktimers/0"));
    assertThat(s.segment(Part.WAIT_FOR_CPU).orElseThrow().ns()).isLessThan(MS / 10);
  }

  @Test
  void withTheTimersSoftirqAtTheTicksExitTheHoldIsTheProbesOwnWait() {
    SampleAnatomy s = worst(false, true);
    assertThat(s.segments()).extracting(Segment::part).containsExactly(Part.TIMER_GRANULARITY,
        Part.INTERRUPT_LATENCY, Part.HANDLER, Part.WAIT_FOR_CPU, Part.SWITCH_TO_USER);
    Segment wait = s.segment(Part.WAIT_FOR_CPU).orElseThrow();
    assertThat(wait.ns()).isBetween(MS - 50_000, MS);
    assertThat(wait.cause()).isInstanceOf(Cause.SpinlockHeld.class);
  }

  @Test
  void aSleepingSpinlocksHolderIsPreemptedAndKtimersRunsAtOnce() {
    SampleAnatomy s = worst(true, false);
    assertThat(s.segment(Part.WAIT_FOR_HANDLER_THREAD).orElseThrow().ns()).isLessThan(MS / 10);
    assertThat(s.latencyNs() - s.segment(Part.TIMER_GRANULARITY).orElseThrow().ns()).isLessThan(MS / 10);
  }
}
