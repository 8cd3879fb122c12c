package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Task;
import org.junit.jupiter.api.Test;

/** load_balance (2.5.5 kernel/sched.c) on two CPUs, with direct calls. */
class LoadBalancerTests {

  private static int balance(O1Fixture f, int cpu, boolean idle) {
    f.h.setThisCpu(cpu);
    int before = f.s.nrRunning(cpu);
    f.s.loadBalance(cpu, idle);
    return f.s.nrRunning(cpu) - before;
  }

  @Test
  void anIdleCpuPullsOneTaskTheTailOfTheBestLevel() {
    O1Fixture f = new O1Fixture(2);
    f.hog(0);
    f.hog(0);
    Task c = f.hog(0);
    f.h.schedule(0);
    f.h.setJiffies(5);
    assertThat(balance(f, 1, true)).isEqualTo(1);
    assertThat(c.cpu()).isEqualTo(1);
    assertThat(e(c).array).isSameAs(f.rq(1).active);
    assertThat(f.h.idle(1).needResched()).isTrue();
    f.s.checkInvariants();
  }

  @Test
  void cacheHotTasksStay() {
    O1Fixture f = new O1Fixture(2);
    f.hog(0);
    f.hog(0);
    f.hog(0);
    f.h.schedule(0);
    assertThat(balance(f, 1, true)).as("queued this very tick: cache-hot").isZero();
    O1Fixture g = new O1Fixture(2, O1Tunables.forHz(100).withCacheDecayTicks(3));
    g.hog(0);
    g.hog(0);
    g.hog(0);
    g.h.schedule(0);
    g.h.setJiffies(4);
    assertThat(balance(g, 1, true)).isZero();
    g.h.setJiffies(5);
    assertThat(balance(g, 1, true)).isEqualTo(1);
  }

  @Test
  void tailOnlyBugATailThatMayNotMoveHidesTheRestOfItsLevel() {
    // 2.5.5 as written: from the tail, ->next is the list head, so the level is given up.
    O1Fixture f = new O1Fixture(2);
    f.hog(0);
    Task movable = f.hog(0);
    Task pinned = f.hog(0);
    f.h.setCpusAllowed(pinned, 0b01);
    f.h.schedule(0);
    f.h.setJiffies(5);
    assertThat(balance(f, 1, true)).isZero();
    assertThat(movable.cpu()).isZero();
  }

  @Test
  void aBusyCpuNeedsA25PercentImbalanceAndDampedLoads() {
    O1Fixture f = new O1Fixture(2);
    for (int i = 0; i < 5; i++) {
      f.hog(0);
    }
    for (int i = 0; i < 3; i++) {
      f.hog(1);
    }
    f.h.schedule(0);
    f.h.schedule(1);
    f.h.setJiffies(5);
    assertThat(balance(f, 1, false)).as("first look: prev_nr_running is 0 everywhere").isZero();
    assertThat(balance(f, 1, false)).as("5 vs 3: imbalance 1 < (5 + 3) / 4").isZero();
    assertThat(balance(f, 1, true)).as("an idle caller skips the 25 % test").isEqualTo(1);
  }

  @Test
  void aBusyCpuTakesASecondTaskOnlyAfterOneFromExpired() {
    O1Fixture f = new O1Fixture(2);
    Task[] t = new Task[7];
    for (int i = 0; i < 7; i++) {
      t[i] = f.hog(0);
      f.h.setCpusAllowed(t[i], 0b01); // keep cpu1's idle_tick from pulling during the run
    }
    f.h.schedule(0);
    f.run(15); // t0 expires into expired
    for (Task x : t) {
      f.h.setCpusAllowed(x, 0b11);
    }
    f.hog(1);
    f.h.schedule(1);
    f.h.setJiffies(50);
    // cpu1's idle ticks during the run already recorded prev_nr_running.
    assertThat(balance(f, 1, false)).as("7 vs 1: from expired, then from active").isEqualTo(2);
    assertThat(t[0].cpu()).isEqualTo(1);
    assertThat(e(t[0]).array).as("into active even from expired").isSameAs(f.rq(1).active);

    O1Fixture g = new O1Fixture(2);
    for (int i = 0; i < 7; i++) {
      g.hog(0);
    }
    g.h.schedule(0);
    g.hog(1);
    g.h.schedule(1);
    g.h.setJiffies(50);
    balance(g, 1, false);
    assertThat(balance(g, 1, false)).as("nothing expired: one task only").isEqualTo(1);
  }

  @Test
  void theRunningTaskIsNeverPulledAndUniprocessorsNeverBalance() {
    O1Fixture f = new O1Fixture(2);
    Task a = f.hog(0);
    Task b = f.hog(0);
    f.h.setCpusAllowed(b, 0b01);
    f.h.schedule(0);
    f.h.setJiffies(5);
    f.h.setThisCpu(0);
    f.s.yield(a, 0); // a at 121 is the only tail of its level, and running
    assertThat(balance(f, 1, true)).isZero();
    O1Fixture up = new O1Fixture(1);
    up.hog(0);
    up.hog(0);
    up.h.setJiffies(5);
    assertThat(balance(up, 0, true)).isZero();
  }

  /**
   * 2.5.5 load_balance: "Make sure nothing changed since we checked the runqueue length":
   * busiest must have more than one task above this CPU ({@code busiest->nr_running <=
   * nr_running + 1} gives up), so that one task does not ping-pong between two CPUs. An idle
   * CPU1 with one woken task not yet run leaves CPU0's two alone, and takes one of three.
   */
  @Test
  void anIdleCpuDoesNotPullFromACpuWithOnlyOneTaskMore() {
    O1Fixture f = new O1Fixture(2);
    f.hog(0);
    f.hog(0);
    f.h.schedule(0);
    f.hog(1); // runnable on cpu1, cpu1 still in its idle task
    f.h.setJiffies(5);
    assertThat(balance(f, 1, true)).as("2 vs 1").isZero();

    O1Fixture g = new O1Fixture(2);
    g.hog(0);
    g.hog(0);
    g.hog(0);
    g.h.schedule(0);
    g.hog(1);
    g.h.setJiffies(5);
    assertThat(balance(g, 1, true)).as("3 vs 1").isEqualTo(1);
    g.s.checkInvariants();
  }

  /**
   * The busy threshold at its edge: 4 vs 2 gives imbalance (4 - 2) / 2 = 1, which is not below
   * (4 + 3) / 4 = 1, and 4 > 2 + 1: one task moves. 4 vs 3 gives imbalance 0: nothing moves.
   */
  @Test
  void aBusyCpuPullsAtExactlyTheQuarterImbalance() {
    O1Fixture f = new O1Fixture(2);
    for (int i = 0; i < 4; i++) {
      f.hog(0);
    }
    f.hog(1);
    f.hog(1);
    f.h.schedule(0);
    f.h.schedule(1);
    f.h.setJiffies(5);
    assertThat(balance(f, 1, false)).as("first look records prev_nr_running").isZero();
    assertThat(balance(f, 1, false)).as("4 vs 2").isEqualTo(1);
    assertThat(f.s.nrRunning(0)).isEqualTo(3);

    O1Fixture g = new O1Fixture(2);
    for (int i = 0; i < 4; i++) {
      g.hog(0);
    }
    for (int i = 0; i < 3; i++) {
      g.hog(1);
    }
    g.h.schedule(0);
    g.h.schedule(1);
    g.h.setJiffies(5);
    balance(g, 1, false);
    assertThat(balance(g, 1, false)).as("4 vs 3").isZero();
  }
}
