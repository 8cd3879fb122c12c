package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.Site;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The static walk behind {@code kernel-lab list sources}: each loop and each stretch of work
 * under a lock, with the state in force around it read from the path's own operations, as the
 * kernel function it models would be read by eye.
 */
class HoldRegionsTests {

  private static final SpinLock L = SpinLock.spin("L");
  private static final SpinLock IRQ = SpinLock.spin("irq_lock");
  private static final SpinLock BKL = SpinLock.bigKernelLock();
  private static final Site WALK = new Site("fs/test.c", "walker", "walk");
  private static final Site IDLE = new Site("fs/test.c", "free", "idle");
  private static final Site SLEEPY = new Site("fs/test.c", "free", "sleepy");

  @Test
  void aLoopUnderALockIsOneRegionWithTheIterationsWorkOnItsRow() {
    KernelPath p = KernelPath.path("fs/test.c", "walker")
        .spinLock(L)
        .loop(WALK, 40, b -> b.compute(500))
        .compute(2_000)
        .spinUnlock(L)
        .build();
    List<HoldRegions.Region> r = HoldRegions.of(p);
    assertThat(r).extracting(HoldRegions.Region::where, HoldRegions.Region::held, HoldRegions.Region::length)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("fs/test.c:walker#walk", List.of("spin_lock(&L)"),
                "x " + Distribution.fixed(40) + ", each compute(500 ns)"),
            org.assertj.core.groups.Tuple.tuple("fs/test.c:walker", List.of("spin_lock(&L)"), "compute(2000 ns)"));
    assertThat(r.get(0).irqsOff()).isFalse();
    assertThat(r.get(0).site()).contains(WALK);
    assertThat(r.get(1).site()).isEmpty();
  }

  @Test
  void aCalledPathInheritsTheCallersLocksAndIrqFormsTurnInterruptsOff() {
    KernelPath inner = KernelPath.path("fs/test.c", "inner").lockKernel(BKL).compute(300).unlockKernel(BKL).build();
    KernelPath p = KernelPath.path("fs/test.c", "outer")
        .spinLockIrq(IRQ)
        .call(inner)
        .spinUnlockIrq(IRQ)
        .localBhDisable().compute(100).localBhEnable()
        .build();
    List<HoldRegions.Region> r = HoldRegions.of(p);
    assertThat(r).hasSize(2);
    assertThat(r.get(0).where()).isEqualTo("fs/test.c:inner");
    assertThat(r.get(0).held()).containsExactly("spin_lock_irq(&irq_lock)", "lock_kernel()");
    assertThat(r.get(0).irqsOff()).isTrue();
    assertThat(r.get(1).held()).containsExactly("local_bh_disable()");
    assertThat(r.get(1).bhOff()).isTrue();
    assertThat(r.get(1).irqsOff()).isFalse();
  }

  @Test
  void anUnlockedLoopIsASourceUnlessItsBodySleepsAndWorkUnderMoreThanTheLoopIsPerIteration() {
    KernelPath p = KernelPath.path("fs/test.c", "free")
        .loop(IDLE, 8, b -> b.compute(1_000).condResched().spinLock(L).compute(50).spinUnlock(L))
        .loop(SLEEPY, 8, b -> b.sleepFor(1_000_000))
        .build();
    List<HoldRegions.Region> r = HoldRegions.of(p);
    assertThat(r).extracting(HoldRegions.Region::where)
        .containsExactly("fs/test.c:free#idle", "fs/test.c:free#idle (each iteration)");
    assertThat(r.get(0).held()).isEmpty();
    assertThat(r.get(0).reschedules()).as("cond_resched() in the body").isTrue();
    assertThat(r.get(1).perIteration()).isTrue();
    assertThat(r.get(1).held()).containsExactly("spin_lock(&L)");
    assertThat(r.get(1).length()).isEqualTo("compute(50 ns)");
  }

  @Test
  void aHoldAroundBookkeepingOnlyIsARegionOfNoTime() {
    KernelPath p = KernelPath.path("fs/test.c", "reader")
        .spinLockIrq(IRQ).effect("data = 0", c -> { }).spinUnlockIrq(IRQ)
        .spinLock(L).compute(10).effect("x = 1", c -> { }).spinUnlock(L)
        .build();
    List<HoldRegions.Region> r = HoldRegions.of(p);
    assertThat(r).extracting(HoldRegions.Region::length)
        .containsExactly("no time (only bookkeeping is modelled under it)", "compute(10 ns)");
    assertThat(r.get(0).irqsOff()).isTrue();
  }

  @Test
  void aReleaseOfALockTheCallerTookDoesNotUnderflow() {
    KernelPath p = KernelPath.path("fs/test.c", "unlocker").spinUnlock(L).compute(10).build();
    assertThat(HoldRegions.of(p)).isEmpty();
    HoldRegions.Region any = new HoldRegions.Region("f", "g", Optional.empty(), false, List.of(), false, false, "x", false);
    assertThat(any.where()).isEqualTo("f:g");
  }
}
