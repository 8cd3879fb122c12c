package dev.kernellab.lockbreak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPatch;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SchedulerProvider;
import dev.kernellab.kernel.Site;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.preempt.PreemptKernelPatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scenario machine of docs/golden-scenarios.md (probe P FIFO 99 asleep on the RTC, task B in
 * kernel path K, every cost zero) with K a walk at a site of the patch, worked by hand.
 */
class LockBreakScenarioTests {

  private static final long US = 1_000;

  /** K: {@code lock} taken, {@code n} iterations of {@code iterNs} at {@code site}, released. */
  private static KernelPath walk(Site site, SpinLock lock, long n, long iterNs, long[] visited) {
    return KernelPath.path(site.file(), site.function())
        .spinLock(lock)
        .loop(site, n, body -> body.compute(iterNs).effect("visit", c -> visited[0]++))
        .spinUnlock(lock)
        .build();
  }

  private static long latency(Site site, long n, long iterNs, long tIrq, boolean lockbreak, long[] visited) {
    RtcProbeRig rig = new RtcProbeRig();
    Kernel24Paths catalog = Kernel24Paths.withDefaults();
    SpinLock lock = site.equals(Dcache.PRUNE_DCACHE) ? catalog.locks().dcacheLock : catalog.locks().lruListLock;
    KernelBuilder b = rig.builder(SchedulerProvider.create("goodness"),
        RtcProbeRig.busyTask(walk(site, lock, n, iterNs, visited)));
    b.attach(Kernel24Paths.class, catalog);
    b.patch(new PreemptKernelPatch());
    if (lockbreak) {
      b.patch(new LockBreakPatch());
    }
    return rig.firstLatency(b, tIrq, 20_000 * US);
  }

  @Test
  void aCountedBreakPreemptsAtTheFirstTestThatPassesAfterTheWakeUp() {
    long[] visited = {0};
    // prune_dcache, 300 x 10 us under dcache_lock; the RTC at 55 us (iteration 6). Preempt
    // alone: P waits for the unlock at 3,000 us. With the patch, TEST_LOCK_COUNT(100) is
    // ++count > 100: the first test that passes follows iteration 101, at 1,010 us, and
    // need_resched is set: break_spin_lock's unlock preempts B there.
    assertThat(latency(Dcache.PRUNE_DCACHE, 300, 10 * US, 55 * US, false, visited)).isEqualTo(2_945 * US);
    assertThat(latency(Dcache.PRUNE_DCACHE, 300, 10 * US, 55 * US, true, visited)).isEqualTo(955 * US);
  }

  @Test
  void aCountedBreakWithoutANeedReschedTestDropsTheLockEvery33rdIterationAndVisitsEachOnce() {
    long[] visited = {0};
    // fsync_buffers_list, 100 x 20 us under lru_list_lock: TEST_LOCK_COUNT(32) with no
    // need_resched test, so the lock drops after iterations 33, 66 and 99 whatever happens;
    // the RTC at 110 us wakes P, which preempts B at the first drop, 660 us.
    assertThat(latency(Buffer.FSYNC_BUFFERS_LIST, 100, 20 * US, 110 * US, true, visited)).isEqualTo(550 * US);
    assertThat(visited[0]).isEqualTo(100);
  }

  @Test
  void theKernelRefusesLockBreakWithoutPreemptOrWithLowLatency() {
    KernelBuilder alone = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler("goodness");
    Kernel24Paths.withDefaults().install(alone);
    alone.patch(new LockBreakPatch());
    assertThatThrownBy(alone::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("patch lockbreak requires preempt: apply both (preempt+lockbreak)");
    KernelBuilder withLowlat = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler("goodness");
    Kernel24Paths.withDefaults().install(withLowlat);
    // Morton's patch is not a dependency of this module: a patch by its name stands for it.
    KernelPatch lowlat = new KernelPatch() {
      @Override
      public String name() {
        return "lowlat";
      }

      @Override
      public void apply(KernelBuilder.Patching kernel) {}
    };
    withLowlat.patch(new PreemptKernelPatch()).patch(new LockBreakPatch()).patch(lowlat);
    assertThatThrownBy(withLowlat::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("patch lockbreak conflicts with lowlat: a kernel has one or the other");
  }

  @Test
  void everyHunkIsAtASiteTheCatalogHas() {
    List<Site> sites = Kernel24Paths.withDefaults().sites();
    LockBreakSites.TABLE.forEach(h -> assertThat(sites).as(h.describe()).contains(h.site()));
  }
}
