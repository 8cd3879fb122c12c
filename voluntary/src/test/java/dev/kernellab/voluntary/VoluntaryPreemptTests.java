package dev.kernellab.voluntary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.Semaphore;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Site;
import org.junit.jupiter.api.Test;

/**
 * Voluntary preemption on the zero-cost uniprocessor of docs/golden-scenarios.md: P (SCHED_FIFO
 * 99) sleeps on the RTC; B walks 10 iterations of 1 ms in kernel mode; the RTC fires at 2.5 ms
 * and its handler wakes P, which sets B's need_resched. Vanilla runs P when B's system call
 * returns (10 ms); voluntary at B's next might_sleep() point.
 */
class VoluntaryPreemptTests {

  private static final long MS = 1_000_000;
  private static final long T_IRQ = 2_500_000;
  private static final Site WALK = new Site("fs/test.c", "walk", "walk");

  /** B's system call: each iteration copies a page to user space (a might_sleep point), 1 ms. */
  private static KernelPath copyingWalk() {
    return KernelPath.path(WALK.file(), WALK.function())
        .loop(WALK, 10, body -> body.mightSleep().compute(MS))
        .build();
  }

  private static long latency(KernelPath walk, KernelPatch patch) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(walk));
    if (patch != null) {
      b.patch(patch);
    }
    return rig.firstLatency(b, T_IRQ, 30 * MS);
  }

  @Test
  void everyMightSleepPointIsAReschedulePoint() {
    assertThat(latency(copyingWalk(), null)).as("vanilla: at the system call's return").isEqualTo(7_500_000);
    assertThat(latency(copyingWalk(), new VoluntaryPreemptPatch()))
        .as("voluntary: at the might_sleep() of the 4th iteration, 3 ms").isEqualTo(500_000);
  }

  /** A walk with no might_sleep() point is not touched: voluntary preemption is not preemption. */
  @Test
  void codeThatCannotSleepStaysNonPreemptible() {
    KernelPath bare = KernelPath.path(WALK.file(), WALK.function()).loop(WALK, 10, body -> body.compute(MS)).build();
    assertThat(latency(bare, new VoluntaryPreemptPatch())).isEqualTo(7_500_000);
  }

  /** down() of a free semaphore takes it without sleeping, but its might_sleep() reschedules. */
  @Test
  void anUncontendedDownIsAReschedulePoint() {
    Semaphore sem = new Semaphore("i_sem", 1);
    KernelPath downs = KernelPath.path(WALK.file(), WALK.function())
        .loop(WALK, 10, body -> body.down(sem).compute(MS).up(sem))
        .build();
    assertThat(latency(downs, null)).isEqualTo(7_500_000);
    assertThat(latency(downs, new VoluntaryPreemptPatch())).isEqualTo(500_000);
  }

  @Test
  void itConflictsWithThePreemptPatch() {
    assertThat(new VoluntaryPreemptPatch().conflicts()).containsExactly("preempt");
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(copyingWalk()))
        .patch(new VoluntaryPreemptPatch()).patch("preempt");
    assertThatThrownBy(b::build).hasMessageContaining("patch voluntary conflicts with preempt");
  }
}
