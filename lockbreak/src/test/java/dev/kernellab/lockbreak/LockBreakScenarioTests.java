package dev.kernellab.lockbreak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.CondReschedLock;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Inode;
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

  /**
   * The macro is the hunk's choice: break_spin_lock relies on its unlock to preempt;
   * break_spin_lock_and_resched runs conditional_schedule() itself, for walks where another lock
   * (the big kernel lock, which the catalog does not hold there) keeps the count up so that the
   * unlock cannot. With a stand-in for preempt whose unlocks never preempt, invalidate_list (50 x
   * 100 us under inode_lock, the RTC at 1,050 us; the hunk breaks after every inode and pays
   * 350 ns to unpin it): the real hunk's _and_resched lets realfeel run at the end of the 11th
   * iteration, 11 x 100 + 10 x 0.35 = 1,103.5 us; the same hunk with plain break_spin_lock
   * leaves it waiting for the system call's return, 50 x 100 + 49 x 0.35 = 5,017.15 us.
   */
  @Test
  void breakSpinLockAndReschedReschedulesWhereTheUnlockCannotPreempt() {
    BrokenSite real = LockBreakSites.TABLE.stream()
        .filter(h -> h.site().equals(Inode.INVALIDATE_LIST)).findFirst().orElseThrow();
    assertThat(real.macro()).isEqualTo(Macro.BREAK_SPIN_LOCK_AND_RESCHED);
    BrokenSite plain = new BrokenSite(real.site(), real.locks(), Macro.BREAK_SPIN_LOCK, real.onlyIfNeedResched(),
        real.every(), real.revalidateNs(), real.hunk(), real.revalidateSource());
    assertThat(real.revalidateNs()).isEqualTo(350);
    assertThat(latencyWithoutUnlockPreemption(real)).isEqualTo(1_103_500 - 1_050 * US);
    assertThat(latencyWithoutUnlockPreemption(plain)).isEqualTo(5_017_150 - 1_050 * US);
  }

  private static long latencyWithoutUnlockPreemption(BrokenSite hunk) {
    RtcProbeRig rig = new RtcProbeRig();
    Kernel24Paths catalog = Kernel24Paths.withDefaults();
    KernelBuilder b = rig.builder(SchedulerProvider.create("goodness"),
        RtcProbeRig.busyTask(walk(hunk.site(), catalog.locks().inodeLock, 50, 100 * US, new long[] {0})));
    b.attach(Kernel24Paths.class, catalog);
    b.patch(new KernelPatch() {
      @Override
      public String name() {
        return "preempt"; // what lockbreak requires, by name; it never preempts at an unlock
      }

      @Override
      public void apply(Patching kernel) {
        kernel.preemptionModel(PreemptionModel.VANILLA);
      }
    });
    b.patch(new LockBreakPatch(List.of(hunk)));
    return rig.firstLatency(b, 1_050 * US, 20_000 * US);
  }

  /** Each hunk's hook reads as the patch's C: its count, its need_resched test, its macro. */
  @Test
  void eachHookListsItsTestAndMacro() {
    SpinLock l = SpinLock.spin("dcache_lock");
    List<String> listings = LockBreakSites.TABLE.stream()
        .filter(h -> h.site().equals(Dcache.PRUNE_DCACHE) || h.site().equals(Inode.INVALIDATE_LIST)
            || h.site().equals(Buffer.FSYNC_BUFFERS_LIST))
        .map(h -> BreakSpinLock.hook(h, List.of(l)).listing().get(0))
        .toList();
    assertThat(listings).containsExactly(
        "if (TEST_LOCK_COUNT(100)) if (conditional_schedule_needed()) break_spin_lock(&dcache_lock)",
        "break_spin_lock_and_resched(&dcache_lock)",
        "if (TEST_LOCK_COUNT(32)) break_spin_lock(&dcache_lock)");
    assertThat(BreakSpinLock.hook(LockBreakSites.TABLE.get(0), List.of(l)).function())
        .isEqualTo("prune_dcache/lock break");
    assertThat(Macro.BREAK_SPIN_LOCK.then()).isEqualTo(CondReschedLock.Then.NOTHING);
    assertThat(Macro.BREAK_SPIN_LOCK_AND_RESCHED.then()).isEqualTo(CondReschedLock.Then.COND_RESCHED);
    assertThatThrownBy(() -> BreakSpinLock.hook(LockBreakSites.TABLE.get(0), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the lock it breaks");
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
      public void apply(Patching kernel) {}
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
