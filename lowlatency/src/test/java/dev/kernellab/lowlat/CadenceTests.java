package dev.kernellab.lowlat;

import static dev.kernellab.paths.CatalogLock.DCACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGECACHE_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGEMAP_LRU_LOCK;
import static dev.kernellab.paths.CatalogLock.PAGE_TABLE_LOCK;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.CatalogLock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What is the low-latency patch's own in a lock break, on top of kernel-core's primitive
 * (include/linux/low-latency.h, 2.4.32 copy): the counted test {@code TEST_RESCHED_COUNT},
 * the sysctl {@code kernel/lowlatency} that gates it, and zap_page_range's chunked form, which
 * drops its lock at every chunk whether or not a reschedule is due. On the zero-cost
 * uniprocessor of docs/golden-scenarios.md: P (SCHED_FIFO 99) sleeps on the RTC; B walks a
 * loop of 1 ms iterations under L, at a site the patch's table hooks (the table names a catalog
 * lock; L stands for it); the RTC fires at 2.5 ms and its handler wakes P, which sets B's
 * need_resched.
 */
class CadenceTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final long T_IRQ = 2_500_000;
  private static final Site WALK = new Site("fs/test.c", "walk", "walk");

  /** B's walk: L held across {@code n} x 1 ms at WALK, recording each iteration's start. */
  private static KernelPath walk(SpinLock l, int n, List<String> starts, List<Long> end) {
    return KernelPath.path(WALK.file(), WALK.function())
        .spinLock(l)
        .loop(WALK, n, body -> body
            .effect("start", c -> starts.add(c.loopIndex() + "@" + c.now() / US + " held=" + l.isHeldExclusive()))
            .compute(MS))
        .spinUnlock(l)
        .effect("end", c -> end.add(c.now()))
        .build();
  }

  /** The patch with {@code hunk} as its whole table, {@code l} the lock the hunk's key stands for. */
  private static KernelBuilder builder(RtcProbeRig rig, KernelPath k, PatchedSite hunk, SpinLock l, boolean gateOn) {
    return rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k))
        .patch(LowLatencyPatch.forSites(List.of(hunk), key -> l).enabledAtBoot(gateOn));
  }

  /**
   * TEST_RESCHED_COUNT(1) looks every 2nd iteration ((i + 1) % 2 == 0): need_resched is set
   * at 2.5 ms, and the first look that finds it is after the 4th iteration, at 4 ms.
   */
  @Test
  void aCountedLockBreakLooksOnlyEveryNthIteration() {
    SpinLock l = SpinLock.spin("L");
    PatchedSite counted = PatchedSite.lbCounted(WALK, List.of(DCACHE_LOCK), 1, 50 * US, "TEST_RESCHED_COUNT(1)", "test");
    RtcProbeRig rig = new RtcProbeRig();
    long lat = rig.firstLatency(
        builder(rig, walk(l, 10, new ArrayList<>(), new ArrayList<>()), counted, l, true), T_IRQ, 30 * MS);
    assertThat(lat).isEqualTo(1_500_000);
    assertThat(l.acquisitions()).isEqualTo(2);
  }

  /** The sysctl off: no break at all; P runs when B's system call returns at 10 ms: 7.5 ms. */
  @Test
  void aLockBreakBehindASysctlThatIsOffNeverBreaks() {
    SpinLock l = SpinLock.spin("L");
    PatchedSite counted = PatchedSite.lbCounted(WALK, List.of(DCACHE_LOCK), 1, 50 * US, "TEST_RESCHED_COUNT(1)", "test");
    List<Long> end = new ArrayList<>();
    RtcProbeRig rig = new RtcProbeRig();
    long lat = rig.firstLatency(builder(rig, walk(l, 10, new ArrayList<>(), end), counted, l, false), T_IRQ, 30 * MS);
    assertThat(lat).isEqualTo(7_500_000);
    assertThat(end).containsExactly(10 * MS);
    assertThat(l.acquisitions()).isEqualTo(1);
  }

  /** B's walk with no lock: {@code n} x 1 ms at WALK (ext2_free_data's walk, under the BKL in the catalog). */
  private static KernelPath bareWalk(int n) {
    return KernelPath.path(WALK.file(), WALK.function())
        .loop(WALK, n, body -> body.compute(MS))
        .build();
  }

  /**
   * ext2_free_data's hunk: TEST_RESCHED_COUNT(1) in front of a conditional_schedule(), no lock.
   * The look after the 2nd and the 4th iteration: need_resched is set at 2.5 ms and first seen
   * at 4 ms, a latency of 1.5 ms; a conditional schedule looked at after every iteration sees it
   * at 3 ms.
   */
  @Test
  void aCountedConditionalScheduleLooksOnlyEveryNthIteration() {
    RtcProbeRig rig = new RtcProbeRig();
    assertThat(rig.firstLatency(builder(rig, bareWalk(10), PatchedSite.csCounted(WALK, 1, "TEST_RESCHED_COUNT(1)"),
        SpinLock.spin("L"), true), T_IRQ, 30 * MS)).isEqualTo(1_500_000);
    RtcProbeRig every = new RtcProbeRig();
    assertThat(every.firstLatency(builder(every, bareWalk(10), PatchedSite.cs(WALK, "every iteration"),
        SpinLock.spin("L"), true), T_IRQ, 30 * MS)).isEqualTo(500 * US);
  }

  /** The sysctl off: the counted conditional schedule never looks; P runs at the walk's end, 10 ms. */
  @Test
  void aCountedConditionalScheduleBehindASysctlThatIsOffNeverSchedules() {
    RtcProbeRig rig = new RtcProbeRig();
    assertThat(rig.firstLatency(builder(rig, bareWalk(10), PatchedSite.csCounted(WALK, 1, "TEST_RESCHED_COUNT(1)"),
        SpinLock.spin("L"), false), T_IRQ, 30 * MS)).isEqualTo(7_500_000);
  }

  /**
   * zap_page_range's chunking: the lock is dropped at every 3rd iteration (index 2 is the
   * first) whether or not a reschedule is due, the drop paying 100 us (the TLB flush); with no
   * reschedule due nobody else runs, and the 4th iteration starts at 3 ms + 100 us with the
   * lock held again.
   */
  @Test
  void aChunkedWalkDropsItsLocksEveryChunkAndPaysEachTime() {
    SpinLock l = SpinLock.spin("page_table_lock");
    PatchedSite chunk = PatchedSite.chunked(WALK, List.of(PAGE_TABLE_LOCK), 3, 100 * US, "chunks of 3", "test");
    List<String> starts = new ArrayList<>();
    List<String> switches = new ArrayList<>();
    RtcProbeRig rig = new RtcProbeRig();
    builder(rig, walk(l, 6, starts, new ArrayList<>()), chunk, l, true)
        .tracer(new Tracer() {
          @Override
          public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
            if (now > 0) {
              switches.add(prev.comm() + "->" + next.comm());
            }
          }
        })
        .build().run(9 * MS);
    assertThat(starts.subList(0, 4))
        .containsExactly("0@0 held=true", "1@1000 held=true", "2@2000 held=true", "3@3100 held=true");
    assertThat(l.acquisitions()).as("the first take and the retake").isGreaterThanOrEqualTo(2);
    assertThat(l.maxHoldNs()).as("0..3 ms, the first stretch").isGreaterThanOrEqualTo(3 * MS);
    assertThat(switches).as("no reschedule due: the drop schedules nobody").isEmpty();
  }

  /**
   * With a reschedule due, the chunk's drop runs conditional_schedule(): P, woken at 2.5 ms,
   * runs at the first chunk's end, 3 ms.
   */
  @Test
  void aChunkedWalkSchedulesAtTheDropWhenAReschedulingIsDue() {
    SpinLock l = SpinLock.spin("page_table_lock");
    PatchedSite chunk = PatchedSite.chunked(WALK, List.of(PAGE_TABLE_LOCK), 3, 100 * US, "chunks of 3", "test");
    RtcProbeRig rig = new RtcProbeRig();
    long lat = rig.firstLatency(
        builder(rig, walk(l, 6, new ArrayList<>(), new ArrayList<>()), chunk, l, true), T_IRQ, 30 * MS);
    assertThat(lat).isEqualTo(500 * US);
  }

  /** The hook lists each form as the patch writes it, naming the sysctl that gates it. */
  @Test
  void theHookListsEachFormWithItsLocksCadenceAndGate() {
    Sysctl gate = new Sysctl("kernel/ll", true);
    SpinLock a = SpinLock.spin("A");
    SpinLock b = SpinLock.spin("B");
    java.util.function.Function<CatalogLock, SpinLock> locks = key -> key == PAGEMAP_LRU_LOCK ? a : b;
    assertThat(LowLatencyPatch.hook(PatchedSite.cs(WALK, "cs"), locks, gate).listing())
        .containsExactly("cond_resched()");
    assertThat(LowLatencyPatch.hook(PatchedSite.csCounted(WALK, 32, "cs"), locks, gate).listing())
        .containsExactly("conditional_schedule(), every 33 [kernel/ll]");
    assertThat(LowLatencyPatch.hook(PatchedSite.lbCounted(WALK, List.of(PAGEMAP_LRU_LOCK, PAGECACHE_LOCK), 3, 10, "h", "s"), locks, gate)
        .listing()).containsExactly("cond_resched_lock(&A, &B, every 4) [kernel/ll]");
    assertThat(LowLatencyPatch.hook(PatchedSite.lb(WALK, List.of(PAGEMAP_LRU_LOCK), 10, "h", "s"), locks, gate).listing())
        .containsExactly("cond_resched_lock(&A)");
    assertThat(LowLatencyPatch.hook(PatchedSite.chunked(WALK, List.of(PAGEMAP_LRU_LOCK, PAGECACHE_LOCK), 256, 10, "h", "s"), locks, gate)
        .listing()).containsExactly("unlock(&A, &B); conditional_schedule(); relock, every 256");
    assertThat(LowLatencyPatch.hook(PatchedSite.chunked(WALK, List.of(PAGEMAP_LRU_LOCK), 1, 10, "h", "s"), locks, gate)
        .listing()).containsExactly("unlock(&A); conditional_schedule(); relock, every 1");
    assertThat(LowLatencyPatch.hook(PatchedSite.lb(WALK, List.of(PAGEMAP_LRU_LOCK), 10, "h", "s"), locks, gate).function())
        .isEqualTo("walk/lock break");
  }
}
