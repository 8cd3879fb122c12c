package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.kernel.spi.Site;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrimitivesTests {

  @Test
  void preemptCountFieldsFollowTheLater25Layout() {
    int c = 3 + 2 * PreemptCount.SOFTIRQ_OFFSET + PreemptCount.HARDIRQ_OFFSET;
    assertThat(PreemptCount.preemptDepth(c)).isEqualTo(3);
    assertThat(PreemptCount.inIrq(c)).isTrue();
    assertThat(PreemptCount.inSoftirq(c)).isTrue();
    assertThat(PreemptCount.inInterrupt(PreemptCount.SOFTIRQ_OFFSET)).isTrue();
    assertThat(PreemptCount.inInterrupt(1)).isFalse();
    assertThat(PreemptCount.inAtomic(PreemptCount.PREEMPT_ACTIVE)).isFalse();
    assertThat(PreemptCount.inAtomic(PreemptCount.PREEMPT_ACTIVE + 1)).isTrue();
    assertThat(PreemptCount.PREEMPT_ACTIVE).isEqualTo(0x04000000);
    assertThat(PreemptCount.describe(c)).isEqualTo(
        "preempt_count=0x00010203 (preempt 3, softirq 2, hardirq 1)");
  }

  @Test
  void distributionsSampleWithinTheirSupportAndNearTheirMean() {
    SplittableRandom r = new SplittableRandom(1);
    Distribution[] ds = {
      Distribution.fixed(7),
      Distribution.uniform(10, 20),
      Distribution.exponential(1_000),
      Distribution.logNormal(1_000, 0.5),
      Distribution.empirical(new long[] {1, 100}, new double[] {3, 1})
    };
    for (Distribution d : ds) {
      double sum = 0;
      int n = 200_000;
      for (int i = 0; i < n; i++) {
        long v = d.sample(r);
        assertThat(v).isNotNegative();
        sum += v;
      }
      assertThat(sum / n).as("%s", d).isCloseTo(d.mean(), org.assertj.core.data.Percentage.withPercentage(2));
    }
  }

  @Test
  void distributionsRejectNonsense() {
    assertThatThrownBy(() -> Distribution.uniform(5, 4)).hasMessageContaining("0 <= min <= max");
    assertThatThrownBy(() -> Distribution.exponential(0)).hasMessageContaining("mean must be > 0");
    assertThatThrownBy(() -> Distribution.empirical(new long[] {1}, new double[] {0}))
        .hasMessageContaining("sum to zero");
  }

  /**
   * The queue order __wake_up_common walks (kernel/fork.c add_wait_queue and
   * add_wait_queue_exclusive, 2.4.17): a non-exclusive waiter goes in ahead of every exclusive
   * one ({@code __add_wait_queue}, at the head), an exclusive one at the tail
   * ({@code __add_wait_queue_tail}), and remove_wait_queue takes one task out with its flag.
   * (The order among the non-exclusive ones is left open here: 2.4.17's list_add puts the
   * newest first, the model keeps them in arrival order; all of them wake either way.) What wake_up does with that order
   * is KernelPrimitiveSemanticsTests#wakeUpWakesEveryNonExclusiveWaiterAndOneExclusive and
   * WakeUpSemanticsTests.
   */
  @Test
  void waitQueuePutsNonExclusiveWaitersAheadOfExclusiveOnesAndRemovesOneWithItsFlag() {
    WaitQueue q = new WaitQueue("q");
    Task a = TestTasks.other(1);
    Task b = TestTasks.other(2);
    Task c = TestTasks.other(3);
    Task d = TestTasks.other(4);
    q.add(b, true);
    q.add(c, true);
    q.add(a, false);
    q.add(d, false);
    q.add(a, false); // already queued: add_wait_queue is never called twice for one sleep
    assertThat(q.size()).isEqualTo(4);
    assertThat(java.util.List.of(q.waiter(0), q.waiter(1))).containsExactlyInAnyOrder(a, d);
    assertThat(java.util.List.of(q.waiter(2), q.waiter(3))).containsExactly(b, c);
    assertThat(java.util.List.of(q.isExclusive(0), q.isExclusive(1), q.isExclusive(2), q.isExclusive(3)))
        .containsExactly(false, false, true, true);
    q.remove(b);
    q.remove(TestTasks.other(9)); // not queued: nothing happens
    assertThat(q.size()).isEqualTo(3);
    assertThat(q.contains(b)).isFalse();
    assertThat(java.util.List.of(q.waiter(0), q.waiter(1))).containsExactlyInAnyOrder(a, d);
    assertThat(q.waiter(2)).isSameAs(c);
    assertThat(java.util.List.of(q.isExclusive(0), q.isExclusive(1), q.isExclusive(2)))
        .containsExactly(false, false, true);
  }

  @Test
  void sitesPrintAsFileFunctionAndLabel() {
    assertThat(new Site("fs/dcache.c", "prune_dcache", "prune_dcache").key())
        .isEqualTo("fs/dcache.c:prune_dcache");
    assertThat(new Site("mm/filemap.c", "truncate_list_pages", "pages").key())
        .isEqualTo("mm/filemap.c:truncate_list_pages#pages");
  }

  @Test
  void pathsListTheirOperationsLikeTheCFunction() {
    SpinLock l = SpinLock.spin("dcache_lock");
    Site pruneDcache = new Site("fs/dcache.c", "prune_dcache", "prune_dcache");
    KernelPath p =
        KernelPath.path("fs/dcache.c", "prune_dcache")
            .spinLock(l)
            .loop(pruneDcache, Distribution.uniform(0, 400), b -> b.compute(1_800))
            .spinUnlock(l)
            .build();
    assertThat(p.listing())
        .containsExactly(
            "spin_lock(&dcache_lock)",
            "loop fs/dcache.c:prune_dcache x Uniform[min=0, max=400]",
            "    compute(1800 ns)",
            "spin_unlock(&dcache_lock)");
    assertThat(p.sites()).containsExactly(pruneDcache);
  }

  @Test
  void userAndKernelOperationsStayOnTheirSide() {
    assertThatThrownBy(() -> KernelPath.userProgram("u").spinLock(SpinLock.spin("x")))
        .hasMessageContaining("only kernel paths may do that");
    assertThatThrownBy(() -> KernelPath.path("f.c", "f").syscall(KernelPath.path("g.c", "g").build()))
        .hasMessageContaining("only user programs make system calls");
  }
}
