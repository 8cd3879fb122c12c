package dev.kernellab.lowlat;

import static dev.kernellab.paths.CatalogLock.DCACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.LRU_LIST_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGECACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGEMAP_LRU_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGE_TABLE_LOCK;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.mm.Filemap;
import dev.kernellab.paths.mm.Memory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lock breaks: docs/golden-scenarios.md S3 on catalog sites, every element visited once,
 * composition.
 */
class LockBreakTests {

  private static final long US = 1_000;

  @Test
  void breaksTheLockAtTheEndOfTheIterationWithOrWithoutPreempt() {
    long[] expected = {3_950 * US, 3_950 * US, 50 * US, 50 * US};
    boolean[][] configs = {{false, false}, {false, true}, {true, false}, {true, true}};
    for (int i = 0; i < configs.length; i++) {
      SiteRig r = new SiteRig();
      KernelPath k = r.loopAt(Buffer.INVALIDATE_BDEV, List.of(LRU_LIST_LOCK), 50, 100 * US);
      assertThat(r.latency(k, 1_050 * US, configs[i][0], configs[i][1]))
          .as("lowlat=%s preempt=%s", configs[i][0], configs[i][1])
          .isEqualTo(expected[i]);
    }
  }

  @Test
  void dropsAndRetakesTheLockAndVisitsEveryElementOnce() {
    SiteRig r = new SiteRig();
    KernelPath k = r.loopAt(Buffer.INVALIDATE_BDEV, List.of(LRU_LIST_LOCK), 400, 50 * US);
    Kernel kernel = r.builder(k, true, false, true, null).build();
    kernel.machine().rtc().setPeriodicRate(2048);
    kernel.machine().rtc().setPeriodicInterrupt(true);
    kernel.run(40_000 * US);
    SpinLock lru = r.catalog.locks().lruListLock;
    assertThat(r.visited).isEqualTo(400);
    assertThat(lru.acquisitions()).isGreaterThan(30);
    // Held at most from one break to the iteration after the next RTC period (488.28 us).
    assertThat(lru.maxHoldNs()).isLessThanOrEqualTo(489 * US + 50 * US + 350);
    assertThat(r.rig.latencies).hasSizeGreaterThan(30).allMatch(l -> l <= 50 * US);
  }

  @Test
  void aCountedBreakWaitsForItsNthIteration() {
    SiteRig r = new SiteRig();
    KernelPath k = r.loopAt(Dcache.PRUNE_DCACHE, List.of(DCACHE_LOCK), 300, 10 * US);
    // The interrupt lands in iteration 5. TEST_RESCHED_COUNT(100) is ++resched_count > 100
    // (include/linux/low-latency.h): the first test that passes is after iteration 100, the
    // 101st, at 1,010 us.
    assertThat(r.latency(k, 55 * US, true, false)).isEqualTo(955 * US);
  }

  @Test
  void aTwoLockBreakDropsBothLocks() {
    SiteRig r = new SiteRig();
    KernelPath k = r.loopAt(Filemap.INVALIDATE, List.of(PAGEMAP_LRU_LOCK, PAGECACHE_LOCK), 50, 100 * US);
    assertThat(r.latency(k, 1_050 * US, true, true)).isEqualTo(50 * US);
    assertThat(r.visited).isEqualTo(50);
  }

  @Test
  void theBreakEndsThePreemptOffRegionUnderPreempt() {
    long[] offEndsAfterIrq = new long[2];
    long[] latency = new long[2];
    long tIrq = 1_001 * US;
    for (int lowlat = 0; lowlat < 2; lowlat++) {
      SiteRig r = new SiteRig();
      KernelPath k = r.loopAt(Memory.ZAP_PTE_RANGE, List.of(PAGE_TABLE_LOCK), 2_000, 2 * US);
      int i = lowlat;
      offEndsAfterIrq[i] = Long.MAX_VALUE;
      Tracer t = new Tracer() {
        @Override
        public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
          if (now >= tIrq && now - lengthNs < tIrq && offEndsAfterIrq[i] == Long.MAX_VALUE) {
            offEndsAfterIrq[i] = now - tIrq;
          }
        }
      };
      latency[i] = r.rig.firstLatency(r.builder(k, lowlat == 1, true, true, t), tIrq, 20_000 * US);
    }
    // Preempt alone: preemptible only at the unlock after 2,000 ptes. With lowlat the patch's
    // zap_page_range unlocks at every 256-page chunk, due or not, and each chunk pays its TLB
    // flush (2 us) after the relock: chunks end at 512 us and 512 + 2 + 512 = 1,026 us, so the
    // region around the interrupt ends 25 us after it.
    assertThat(offEndsAfterIrq[0]).isEqualTo(2_999 * US);
    assertThat(latency[0]).isEqualTo(2_999 * US);
    assertThat(offEndsAfterIrq[1]).isEqualTo(25 * US);
    assertThat(latency[1]).isEqualTo(25 * US);
  }

  /**
   * A due lock break calls schedule() whatever the unlock did: the patch's break is
   * {@code spin_unlock(&l); unconditional_schedule(); spin_lock(&l);} (include/linux/
   * low-latency.h: set_running_and_schedule()). With the preempt patch the unlock itself
   * already preempted B for P; B then still goes through schedule() once more.
   */
  @Test
  void aDueBreakSchedulesEvenAfterTheUnlockPreempted() {
    int[] schedules = {0, 0};
    for (int preempt = 0; preempt < 2; preempt++) {
      SiteRig r = new SiteRig();
      KernelPath k = r.loopAt(Buffer.INVALIDATE_BDEV, List.of(LRU_LIST_LOCK), 50, 100 * US);
      int i = preempt;
      Tracer t = new Tracer() {
        @Override
        public void pathEnter(long now, int cpu, PathView path) {
          if (path.function().equals("schedule") && now >= 1_050 * US && now < 1_200 * US) {
            schedules[i]++;
          }
        }
      };
      Kernel kernel = r.builder(k, true, preempt == 1, true, t).build();
      RtcProbeRig.assertRtcAt(kernel, 1_050 * US);
      kernel.run(5_000 * US);
    }
    // Without preempt: the break's schedule() (to P), and P's own when it sleeps again. With
    // preempt: the unlock's preempt_schedule() (to P), P's sleep, and the break's schedule().
    assertThat(schedules[0]).isEqualTo(2);
    assertThat(schedules[1]).isEqualTo(3);
  }
}
