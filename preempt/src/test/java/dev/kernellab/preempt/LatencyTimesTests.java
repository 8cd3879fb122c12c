package dev.kernellab.preempt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of /proc/latencytimes (kernel/latency.c of preempt-stats-rml-2.4.17): the
 * tracer is fed the events a kernel would send, and the expected table is written out by hand.
 */
class LatencyTimesTests {

  private static final long US = 1_000;
  private static final SpinLock DCACHE = SpinLock.spin("dcache_lock");
  private static final SpinLock BKL = SpinLock.bigKernelLock();
  private static final KernelPath PRUNE = KernelPath.path("fs/dcache.c", "prune_dcache").compute(1).build();
  private static final KernelPath PRUNE_AGAIN = KernelPath.path("fs/dcache.c", "prune_dcache").compute(2).build();
  private static final KernelPath SCHEDULE = KernelPath.path("kernel/sched.c", "schedule").compute(1).build();
  private static final KernelPath EXIT = KernelPath.path("kernel/exit.c", "do_exit").compute(1).build();

  private static void locked(LatencyTimes t, int cpu, long at, long length, SpinLock lock, KernelPath on, KernelPath off) {
    t.preemptOff(at, cpu, on);
    t.lockAcquire(at, cpu, lock, on, 0);
    t.preemptOn(at + length, cpu, off, length);
  }

  /** A library refusal in the library's words: a command line names its own option (lab). */
  @Test
  void aKernelThatCannotPreemptKernelCodeIsRefusedAtBoot() {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(LatencyTimes.preemptOff());
    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("preempt-stats measures a preemptible kernel (CONFIG_PREEMPT)");
  }

  @Test
  void aPairOfPlacesKeepsOneEntryItsWorstAndEveryPeriodIsCounted() {
    LatencyTimes t = LatencyTimes.preemptOff();
    locked(t, 0, 0, 300 * US, DCACHE, PRUNE, PRUNE);
    locked(t, 0, 1_000 * US, 900 * US, DCACHE, PRUNE_AGAIN, PRUNE);
    locked(t, 0, 3_000 * US, 100 * US, DCACHE, PRUNE, PRUNE);
    assertThat(t.worst(0)).containsExactly(
        new LatencyTimes.Entry(900 * US, "spin_lock(dcache_lock)", PRUNE_AGAIN, PRUNE, 1_000 * US));
    assertThat(t.measured(0)).isEqualTo(3);
  }

  @Test
  void theCauseIsWhatRaisedTheCountAtTheInstantItLeftZero() {
    LatencyTimes t = LatencyTimes.preemptOff();
    locked(t, 0, 0, 50 * US, BKL, EXIT, SCHEDULE);
    t.preemptOff(100 * US, 0, SCHEDULE);
    t.irqEntry(100 * US, 0, 14);
    t.preemptOn(130 * US, 0, SCHEDULE, 30 * US);
    t.preemptOff(200 * US, 0, SCHEDULE);
    t.softirqEntry(200 * US, 0, 1);
    t.preemptOn(220 * US, 0, SCHEDULE, 20 * US);
    t.preemptOff(300 * US, 0, EXIT);
    t.lockAcquire(301 * US, 0, DCACHE, EXIT, 0); // a lock taken later is not why it went off
    t.preemptOn(310 * US, 0, EXIT, 10 * US);
    // spinning since the count went up: the lock is still the cause
    t.preemptOff(400 * US, 0, PRUNE);
    t.lockAcquire(405 * US, 0, DCACHE, PRUNE, 5 * US);
    t.preemptOn(406 * US, 0, PRUNE, 6 * US);
    assertThat(t.worst(0)).extracting(LatencyTimes.Entry::cause)
        .containsExactly("BKL", "vector 14", "softirq", "preempt_off", "spin_lock(dcache_lock)");
  }

  @Test
  void aFullTableKeepsTheTwentyWorstPairsAndEachCpuHasItsOwn() {
    LatencyTimes t = LatencyTimes.preemptOff();
    for (int i = 0; i < 30; i++) {
      KernelPath p = KernelPath.path("fs/test.c", "f" + i).compute(1).build();
      locked(t, 1, i * 1_000 * US, (i + 1) * US, DCACHE, p, p);
    }
    assertThat(t.worst(1)).hasSize(LatencyTimes.KEPT);
    assertThat(t.worst(1).get(0).lengthNs()).isEqualTo(30 * US);
    assertThat(t.worst(1).get(LatencyTimes.KEPT - 1).lengthNs()).isEqualTo(11 * US);
    assertThat(t.worst(0)).isEmpty();
    t.reset();
    assertThat(t.worst(1)).isEmpty();
    assertThat(t.measured(1)).isZero();
  }

  @Test
  void theIrqsOffSiblingCountsInterruptsOffPeriodsOnly() {
    LatencyTimes t = LatencyTimes.irqsOff();
    locked(t, 0, 0, 300 * US, DCACHE, PRUNE, PRUNE);
    t.irqsOff(1_000 * US, 0, EXIT);
    t.irqsOn(1_002 * US, 0, EXIT, 2 * US);
    assertThat(t.worst(0)).containsExactly(new LatencyTimes.Entry(2 * US, "cli", EXIT, EXIT, 1_000 * US));
    assertThat(t.kind()).hasToString("irqs-off");
  }

  @Test
  void theTablePrintsAsProcLatencytimesDidWithPlacesForLines() {
    LatencyTimes t = LatencyTimes.preemptOff();
    locked(t, 0, 0, 3_616 * US + 400, DCACHE, PRUNE, SCHEDULE);
    assertThat(t.table()).containsExactly(
        "cpu 0 worst 20 preempt-off latency times of 1 measured in this period.",
        "  usec  cause                        start                                          end",
        "  3616  spin_lock(dcache_lock)       fs/dcache.c:prune_dcache                       kernel/sched.c:schedule");
  }
}
