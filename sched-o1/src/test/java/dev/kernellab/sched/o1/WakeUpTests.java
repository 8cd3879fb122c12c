package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import org.junit.jupiter.api.Test;

/** activate_task's sleep credit and try_to_wake_up (2.5.5 kernel/sched.c). */
class WakeUpTests {

  @Test
  void sleepCreditsWholeTicksSleptAndRecomputesPrio() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.hog(0);
    f.h.schedule(0);
    f.h.block(0); // sleep_timestamp = 1
    for (int i = 0; i < 150; i++) {
      f.h.tick();
    }
    assertThat(f.h.wake(a, 0)).isTrue();
    assertThat(e(a).sleepAvg).isEqualTo(150);
    assertThat(e(a).prio).as("bonus floor(1500/200) - 5 = 2").isEqualTo(118);
    f.h.schedule(0);
    f.h.block(0);
    for (int i = 0; i < 500; i++) {
      f.h.tick();
    }
    f.h.wake(a, 0);
    assertThat(e(a).sleepAvg).as("capped at MAX_SLEEP_AVG").isEqualTo(200);
  }

  @Test
  void aSleepOfZeroWholeTicksEarnsNoCreditAndKeepsPrio() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.hog(0);
    f.h.schedule(0);
    f.h.block(0);
    f.h.wake(a, 0);
    assertThat(e(a).sleepAvg).isZero();
    assertThat(e(a).prio).isEqualTo(120);
  }

  @Test
  void aWakeUpPreemptsOnlyAStrictlyWorsePrio() {
    O1Fixture f = new O1Fixture(1);
    Task a = f.hog(0);
    Task b = f.hog(0);
    Task c = f.hog(0);
    Task hog = f.hog(0);
    f.h.schedule(0);
    f.h.block(0);
    f.h.block(0);
    f.h.block(0); // a, b, c asleep since jiffies 1; hog runs at 120
    assertThat(f.h.current(0)).isSameAs(hog);
    f.h.wake(a, 0); // same tick: prio 120 = 120
    assertThat(hog.needResched()).isFalse();
    f.h.setJiffies(41); // time passes without ticks, so hog's prio stays 120
    f.h.wake(b, 0); // sleep_avg 40: bonus -3, prio 123
    assertThat(e(b).prio).isEqualTo(123);
    assertThat(hog.needResched()).isFalse();
    f.h.setJiffies(201);
    f.h.wake(c, 0); // sleep_avg 200: prio 115
    assertThat(hog.needResched()).isTrue();
    assertThat(f.h.schedule(0)).isSameAs(c);
  }

  @Test
  void aWokenTaskGoesToActiveEvenWhenExpiredIsStarving() {
    O1Fixture f = new O1Fixture(1);
    Task sleeper = f.hog(0);
    Task b = f.hog(0);
    f.hog(0);
    f.h.schedule(0);
    f.h.block(0);
    f.run(15); // b expires; the third task runs
    f.h.setJiffies(5_000);
    assertThat(f.rq(0).expiredStarving(5_000, 200)).isTrue();
    f.h.wake(sleeper, 0);
    assertThat(e(sleeper).array).isSameAs(f.rq(0).active);
    assertThat(e(b).array).isSameAs(f.rq(0).expired);
  }

  @Test
  void aWokenTaskReturnsToTheCpuItLastRanOnAndARemoteIdleCpuGetsAnIpi() {
    O1Fixture f = new O1Fixture(2);
    Task a = f.hog(1);
    f.h.schedule(1);
    f.h.block(1);
    assertThat(f.h.wake(a, 0)).isTrue();
    assertThat(a.cpu()).isEqualTo(1);
    assertThat(f.h.ipis()).containsExactly(new StandaloneSchedulerHost.Ipi(0, 1));
    assertThat(f.h.wake(a, 0)).as("already queued").isFalse();
  }
}
