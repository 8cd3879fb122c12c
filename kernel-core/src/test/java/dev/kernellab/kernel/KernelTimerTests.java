package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kernel/timer.c (2.4.17): a timer runs from the timer bottom half of the first tick at which
 * jiffies has reached its expiry; timers due at the same jiffy run in the order they were
 * armed; mod_timer moves an armed timer; del_timer disarms it and says whether it was armed.
 */
class KernelTimerTests {

  private static final long MS = 1_000_000;

  private static Kernel idleKernel() {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .build();
  }

  @Test
  void timersRunAtTheirJiffyInExpiryThenArmingOrder() {
    Kernel k = idleKernel();
    List<String> ran = new ArrayList<>();
    long j0 = k.jiffies();
    KernelTimer a = new KernelTimer("a", c -> ran.add("a@" + (c.kernel().jiffies() - j0)));
    KernelTimer b = new KernelTimer("b", c -> ran.add("b@" + (c.kernel().jiffies() - j0)));
    KernelTimer c2 = new KernelTimer("c", c -> ran.add("c@" + (c.kernel().jiffies() - j0)));
    k.modTimer(a, j0 + 2);
    k.modTimer(b, j0 + 1);
    k.modTimer(c2, j0 + 2);
    assertThat(a.pending()).isTrue();
    k.run(35 * MS);
    assertThat(ran).containsExactly("b@1", "a@2", "c@2");
    assertThat(a.pending()).isFalse();
    assertThat(a).hasToString("a");
    assertThat(a.name()).isEqualTo("a");
  }

  @Test
  void modTimerMovesAnArmedTimerAndDelTimerDisarmsIt() {
    Kernel k = idleKernel();
    List<Long> ran = new ArrayList<>();
    long j0 = k.jiffies();
    KernelTimer moved = new KernelTimer("moved", c -> ran.add(c.kernel().jiffies() - j0));
    KernelTimer deleted = new KernelTimer("deleted", c -> ran.add(-1L));
    k.modTimer(moved, j0 + 1);
    k.modTimer(moved, j0 + 3);
    k.modTimer(deleted, j0 + 2);
    assertThat(k.delTimer(deleted)).isTrue();
    assertThat(k.delTimer(deleted)).as("already disarmed").isFalse();
    assertThat(deleted.pending()).isFalse();
    k.run(45 * MS);
    assertThat(ran).containsExactly(3L);
  }

  @Test
  void aTimerArmedForAJiffyAlreadyPastRunsAtTheNextTick() {
    Kernel k = idleKernel();
    List<Long> ran = new ArrayList<>();
    long j0 = k.jiffies();
    k.run(25 * MS); // two ticks: jiffies is j0 + 2
    k.modTimer(new KernelTimer("late", c -> ran.add(c.kernel().jiffies() - j0)), j0);
    k.run(35 * MS);
    assertThat(ran).containsExactly(3L);
  }
}
