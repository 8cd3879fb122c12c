package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What do_IRQ pays its interrupt controller before the handler runs: on a uniprocessor the
 * 8259A's mask_and_ack_8259A, 4 ISA accesses for the RTC's line 8 (arch/i386/kernel/i8259.c
 * 2.4.17); on SMP the local APIC's EOI write. And what a switch to a task pays after it.
 */
class InterruptControllerTests {

  private static final long MS = 1_000_000;

  private static long handlerDelay(int cpus) {
    List<Long> delay = new ArrayList<>();
    KernelPath rtc = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("note the delay", c -> {
          c.machine().rtc().readRegisterC();
          delay.add(c.now() - c.machine().ioApic().lastAssertNs(Rtc.IRQ));
        })
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .requestIrq(Rtc.IRQ, "rtc", rtc, true)
        .build();
    RtcProbeRig.assertRtcAt(k, 3 * MS);
    k.run(5 * MS);
    assertThat(delay).hasSize(1);
    return delay.get(0);
  }

  @Test
  void aUniprocessorAcknowledgesTheRtcAtThe8259AWithFourIsaAccesses() {
    CostTable c = CostTable.pentium3At800MHz();
    assertThat(handlerDelay(1)).isEqualTo(c.irqEntryNs() + 4 * c.isaPortNs());
  }

  @Test
  void anSmpKernelAcknowledgesAtTheLocalApic() {
    CostTable c = CostTable.pentium3At800MHz();
    assertThat(handlerDelay(2)).isEqualTo(c.irqEntryNs() + c.apicAckNs());
  }
}
