package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import org.junit.jupiter.api.Test;

/**
 * The two ways a scheduler asks another CPU to reschedule: 2.5.5 kernel/sched.c resched_task()
 * sends the reschedule IPI only if need_resched was clear (an idle loop that polls the flag, or
 * a CPU already flagged, needs no interrupt), never to the calling CPU; 2.4.17
 * reschedule_idle()'s busy path sets the flag and sends smp_send_reschedule() whatever the
 * flag was.
 */
class RescheduleIpiTests {

  private static final long MS = 1_000_000;

  private static Kernel twoIdleCpus() {
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .build();
    k.run(MS);
    return k;
  }

  private static long ipis(Kernel k, int cpu) {
    return k.machine().localApic(cpu).ipisReceived();
  }

  @Test
  void reschedTaskInterruptsARemoteCpuOnlyIfItsFlagWasClear() {
    Kernel k = twoIdleCpus();
    long before = ipis(k, 1);
    k.current(1).setNeedResched(false);
    k.schedulerHost().reschedule(1);
    assertThat(k.current(1).needResched()).isTrue();
    k.run(2 * MS);
    assertThat(ipis(k, 1)).isEqualTo(before + 1);

    k.current(1).setNeedResched(true);
    k.schedulerHost().reschedule(1);
    k.run(3 * MS);
    assertThat(ipis(k, 1)).as("already flagged").isEqualTo(before + 1);
  }

  @Test
  void reschedTaskOnTheCallingCpuOnlySetsTheFlag() {
    Kernel k = twoIdleCpus();
    long before = ipis(k, 0);
    k.current(0).setNeedResched(false);
    k.schedulerHost().reschedule(0);
    assertThat(k.current(0).needResched()).isTrue();
    k.run(2 * MS);
    assertThat(ipis(k, 0)).isEqualTo(before);
  }

  @Test
  void theBusyPathOfRescheduleIdleAlwaysInterrupts() {
    Kernel k = twoIdleCpus();
    long before = ipis(k, 1);
    k.current(1).setNeedResched(true);
    k.schedulerHost().rescheduleAndInterrupt(1);
    k.run(2 * MS);
    assertThat(ipis(k, 1)).isEqualTo(before + 1);
    long self = ipis(k, 0);
    k.schedulerHost().rescheduleAndInterrupt(0);
    assertThat(k.current(0).needResched()).isTrue();
    k.run(3 * MS);
    assertThat(ipis(k, 0)).as("no IPI to oneself").isEqualTo(self);
  }
}
