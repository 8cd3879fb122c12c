package dev.kernellab.sched.o1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import org.junit.jupiter.api.Test;

/** An O(1) scheduler's runqueues belong to one kernel: a second attach is refused. */
class O1SchedulerAttachTests {

  @Test
  void aSecondKernelIsRefusedTheSameScheduler() {
    O1Scheduler s = new O1Scheduler();
    StandaloneSchedulerHost first = new StandaloneSchedulerHost(s, 2, 100);
    assertThatIllegalStateException()
        .isThrownBy(() -> new StandaloneSchedulerHost(s, 1, 100))
        .withMessageContaining("already schedules a kernel");
    assertThat(first.scheduler().nrRunning(1)).isZero();
  }

  @Test
  void tunablesForAnotherHzAreRefused() {
    O1Scheduler s = new O1Scheduler(O1Tunables.forHz(1000));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new StandaloneSchedulerHost(s, 1, 100))
        .withMessageContaining("HZ=1000");
  }
}
