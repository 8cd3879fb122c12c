package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.rt.RtPatch;
import org.junit.jupiter.api.Test;

/**
 * The causes only realtime preemption has, on the RTC's threaded handler: a raw spinlock, which
 * still spins where the others sleep, and a task that holds the CPU on a priority a waiter lent
 * it. Both hold back the handler thread, and are named as its wait.
 */
class RtCauseScenarioTests {

  private static final long MS = 1_000_000;

  /**
   * A task that sleeps 20 ms (woken at a tick, 30 ms in at HZ 100), then holds {@code lock} over
   * {@code ns} of kernel work, then idles.
   */
  private static TaskSpec holder(String comm, SpinLock lock, long ns) {
    KernelPath hold = KernelPath.path("drivers/test/hold.c", "hold_it")
        .spinLock(lock).compute(ns).spinUnlock(lock).build();
    return TaskSpec.user(comm, KernelPath.userProgram(comm)
        .syscall(Timer.sysNanosleep(20 * MS))
        .syscall(hold)
        .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS)))
        .build());
  }

  @Test
  void aRawSpinlockHoldsTheHandlerThreadOffTheCpuAndIsNamedRaw() {
    SpinLock raw = SpinLock.raw("test_raw_lock");
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(),
        (p, kb) -> kb.task(holder("holder", raw, 5 * MS)), k -> { }, 60 * MS, new RtPatch());
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_HANDLER_THREAD);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.SpinlockHeld.class, s -> {
      assertThat(s.lock().name()).isEqualTo("test_raw_lock");
      assertThat(s.raw()).as("the kernel's other spinlocks sleep").isTrue();
      assertThat(s.task().comm()).isEqualTo("holder");
    });
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  @Test
  void withoutRtTheSameLockIsAPlainSpinlockAndTheProbesOwnWait() {
    SpinLock raw = SpinLock.raw("test_raw_lock");
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(),
        (p, kb) -> kb.task(holder("holder", raw, 5 * MS)), k -> { }, 60 * MS, (dev.kernellab.kernel.spi.KernelPatch) null);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.SpinlockHeld.class, s -> assertThat(s.raw()).isFalse());
  }

  @Test
  void aLockOwnerRunningOnAPriorityLentByItsWaiterHoldsTheHandlerThreadBack() {
    // "low" (SCHED_OTHER) holds a sleeping spinlock over 20 ms from 30 ms; "high" (SCHED_FIFO 60)
    // wants it from 40 ms on and lends low its priority, above the RTC thread's 50: the thread
    // waits for low's unlock, though nothing keeps low from being preempted.
    SpinLock lock = SpinLock.spin("test_pi_lock");
    KernelPath take = KernelPath.path("drivers/test/hold.c", "want_it").spinLock(lock).spinUnlock(lock).build();
    TaskSpec high = TaskSpec.user("high", KernelPath.userProgram("high")
        .syscall(Timer.sysNanosleep(25 * MS))
        .syscall(take)
        .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS)))
        .build()).fifo(60);
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(),
        (p, kb) -> kb.task(holder("low", lock, 20 * MS)).task(high), k -> { }, 80 * MS, new RtPatch());
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_HANDLER_THREAD);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.LentPriority.class, l -> {
      assertThat(l.task().comm()).isEqualTo("low");
      assertThat(l.priority()).isEqualTo(60);
      assertThat(l.path().function()).isEqualTo("hold_it");
      assertThat(l.chain()).singleElement().satisfies(loan -> {
        assertThat(loan.lender().comm()).as("the waiter that lent it").isEqualTo("high");
        assertThat(loan.lock().name()).isEqualTo("test_pi_lock");
      });
    });
    assertThat(w.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(w.latencyNs());
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  /**
   * A SCHED_FIFO task that sleeps 20 ms (woken at a tick, 30 ms in), then runs {@code ns} of
   * kernel work that holds nothing, then idles.
   */
  private static TaskSpec busy(String comm, int priority, long ns) {
    KernelPath busy = KernelPath.path("drivers/test/hold.c", "busy_it").compute(ns).build();
    return TaskSpec.user(comm, KernelPath.userProgram(comm)
        .syscall(Timer.sysNanosleep(20 * MS))
        .syscall(busy)
        .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS)))
        .build()).fifo(priority);
  }

  @Test
  void aTaskOfTheHandlerThreadsOwnPriorityHoldsItBackByPriorityAlone() {
    // "hog" (SCHED_FIFO 50, the RTC thread's default) runs 5 ms of preemptible kernel code: the
    // woken thread queues behind it, as SCHED_FIFO has it, though nothing keeps hog on the CPU
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(),
        (p, kb) -> kb.task(busy("hog", 50, 5 * MS)), k -> { }, 60 * MS, new RtPatch());
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_HANDLER_THREAD);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.PriorityNotLower.class, p -> {
      assertThat(p.holder().comm()).isEqualTo("hog");
      assertThat(p.policy()).isEqualTo(SchedPolicy.FIFO);
      assertThat(p.priority()).isEqualTo(50);
      assertThat(p.waiter().comm()).isEqualTo("irq/8-rtc");
      assertThat(p.waiterPriority()).isEqualTo(50);
      assertThat(p.held()).isInstanceOfSatisfying(Cause.NotPreemptible.class, n -> {
        assertThat(n.kernelPreemptible()).isTrue();
        assertThat(n.path().function()).isEqualTo("busy_it");
      });
    });
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  @Test
  void theHandlerThreadRaisedAboveTheTaskPreemptsIt() {
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(),
        (p, kb) -> kb.task(busy("hog", 50, 5 * MS)).irqThreadPriority(8, 80), k -> { }, 60 * MS, new RtPatch());
    assertThat(w.segments().stream().flatMap(s -> s.holders().stream())).noneMatch(h -> h instanceof Cause.PriorityNotLower);
    assertThat(w.latencyNs()).as("chrt -f -p 80 on irq/8-rtc").isLessThan(MS);
  }

  @Test
  void aLowerPriorityTaskHoldingARawSpinlockIsNoPriorityCause() {
    // SCHED_FIFO 40, below the thread's 50: only the raw lock keeps it on the CPU
    SampleAnatomy w = rawLockHolder(40);
    assertThat(w.culprit())
        .isInstanceOfSatisfying(Cause.SpinlockHeld.class, h -> assertThat(h.raw()).isTrue());
    assertThat(holders(w)).noneMatch(h -> h instanceof Cause.PriorityNotLower);
  }

  @Test
  void aTaskOfTheThreadsPriorityHoldingARawSpinlockIsNamedByTheLockNotItsPriority() {
    // SCHED_FIFO 50, the thread's own: a thread raised above it would still wait for the raw
    // lock, so the lock is the cause; the task's preemptible system-call entry and exit around
    // it did hold the thread off by priority alone
    SampleAnatomy w = rawLockHolder(50);
    assertThat(w.culprit())
        .isInstanceOfSatisfying(Cause.SpinlockHeld.class, h -> assertThat(h.raw()).isTrue());
    assertThat(holders(w)).filteredOn(h -> h instanceof Cause.PriorityNotLower).isNotEmpty()
        .allSatisfy(h -> assertThat(Cause.unwrapped(h))
            .isInstanceOfSatisfying(Cause.NotPreemptible.class,
                n -> assertThat(n.kernelPreemptible()).isTrue()));
  }

  private static java.util.stream.Stream<Cause.Holding> holders(SampleAnatomy w) {
    return w.segments().stream().flatMap(s -> s.holders().stream());
  }

  private static SampleAnatomy rawLockHolder(int priority) {
    SpinLock raw = SpinLock.raw("test_raw_lock");
    KernelPath hold = KernelPath.path("drivers/test/hold.c", "hold_it")
        .spinLock(raw).compute(5 * MS).spinUnlock(raw).build();
    TaskSpec low = TaskSpec.user("low", KernelPath.userProgram("low")
        .syscall(Timer.sysNanosleep(20 * MS))
        .syscall(hold)
        .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS)))
        .build()).fifo(priority);
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(),
        (p, kb) -> kb.task(low), k -> { }, 60 * MS, new RtPatch());
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_HANDLER_THREAD);
    return w;
  }
}
