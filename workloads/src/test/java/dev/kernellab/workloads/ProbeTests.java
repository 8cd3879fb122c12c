package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.drivers.Rtc;
import dev.kernellab.paths.kernel.Timer;
import org.junit.jupiter.api.Test;

/** The probes on small machines whose answers are known by hand. */
class ProbeTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  /** A zero-cost UP machine with the catalog's drivers and {@code tasks}. */
  private static KernelBuilder machine(Kernel24Paths p, TaskSpec... tasks) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    for (TaskSpec t : tasks) {
      b.task(t);
    }
    return b;
  }

  @Test
  void realfeelWakesAtTheRtcRateWithNoLatencyOnAnIdleMachine() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Realfeel rf = new Realfeel(p, 2048);
    Kernel k = machine(p, rf.task()).build();
    rf.start(k);
    k.run(1_000 * MS);
    ProbeResult r = rf.result();
    // 2048 periods in a second (the first one ends at 488 us); on a zero-cost CPU each takes
    // only the driver's own work: rtc_interrupt's mod_timer of rtc_irq_timer and rtc_read's tail
    // (rtc_interrupt's CMOS read is port I/O at the machine's isaPortNs, zero here).
    assertThat(r.latency().samples()).isBetween(2046L, 2048L);
    assertThat(r.latency().maxNs()).isEqualTo(Rtc.MOD_TIMER_NS + Rtc.READ_TAIL_NS);
    assertThat(r.latency().minNs()).isEqualTo(Rtc.MOD_TIMER_NS + Rtc.READ_TAIL_NS);
    assertThat(r.periodError().maxNs()).isLessThan(US);
    assertThat(r.realfeelBins().lines()).first().asString().startsWith("0.0 ");
  }

  /**
   * One stretch of L = 3 ms with the probe unable to run shows as about L in both measures:
   * the true latency from the interrupt it finally reads, and realfeel's period error.
   */
  @Test
  void aSingleLateWakeUpShowsAsLInBothMeasures() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Realfeel rf = new Realfeel(p, 2048);
    // A kernel path that keeps interrupts off for 3 ms, once, at 100 ms.
    KernelPath hog =
        KernelPath.userProgram("hog")
            .compute(100 * MS)
            .syscall(KernelPath.path("test/hog.c", "cli_stretch")
                .localIrqDisable().compute(3 * MS).localIrqEnable().build())
            .loop("idle", Long.MAX_VALUE, l -> l.syscall(
                KernelPath.path("kernel/timer.c", "sys_nanosleep").nanosleep(c -> 50 * MS).build()))
            .build();
    Kernel k = machine(p, rf.task(), TaskSpec.user("hog", hog)).build();
    rf.start(k);
    k.run(300 * MS);
    ProbeResult r = rf.result();
    long period = 1_000_000_000L / 2048;
    // The interrupt raised just after the cli waits nearly the whole 3 ms (the periods within
    // merge into one read), and the probe's next period is late by the same amount.
    assertThat(r.latency().maxNs()).isBetween(3 * MS - period, 3 * MS);
    assertThat(r.periodError().maxNs()).isBetween(3 * MS - 2 * period, 3 * MS);
    assertThat(r.worst().get(0).atNs()).isBetween(103 * MS - period, 103 * MS + period);
  }

  @Test
  void cyclictestOn24SleepsWholeJiffiesPlusOneAndBusyWaitsShortRealTimeSleeps() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Cyclictest jiffies = new Cyclictest(1, 10 * MS);
    Kernel k = machine(p, jiffies.tasks().toArray(new TaskSpec[0])).build();
    k.run(1_000 * MS);
    // 10 ms asked, HZ 100: a sleep of ceil(remaining/10 ms) + 1 jiffies wakes on a tick up to
    // a jiffy past the expiry.
    LatencySummary l = jiffies.result().latency();
    assertThat(l.samples()).isPositive();
    assertThat(l.maxNs()).isLessThanOrEqualTo(20 * MS + US);
    assertThat(l.minNs()).isGreaterThan(0);

    Kernel24Paths q = Kernel24Paths.withDefaults();
    Cyclictest busy = new Cyclictest(1, 1 * MS);
    Kernel k2 = machine(q, busy.tasks().toArray(new TaskSpec[0])).build();
    k2.run(100 * MS);
    // 1 ms asked by SCHED_FIFO: udelay, exact on a zero-cost machine but for sys_nanosleep's
    // own setup, which runs after cyclictest read the time left.
    assertThat(busy.result().latency().maxNs()).isEqualTo(Timer.NANOSLEEP_SETUP_NS);
    assertThat(busy.result().latency().samples()).isBetween(98L, 100L);
  }
}
