package dev.kernellab.lowlat;

import static dev.kernellab.paths.CatalogLock.DCACHE_LOCK;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.mm.Filemap;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A conditional_schedule site (docs/golden-scenarios.md S4 at do_generic_file_read's page loop).
 */
class ConditionalScheduleTests {

  private static final long US = 1_000;

  @Test
  void reschedulesAtTheEndOfTheIterationInWhichNeedReschedWasSet() {
    SiteRig r = new SiteRig();
    KernelPath k = r.loopAt(Filemap.READ_PAGE, List.of(), 50, 100 * US);
    assertThat(r.latency(k, 1_050 * US, false, false)).isEqualTo(3_950 * US);
    assertThat(new SiteRig().latency(new SiteRig().loopAt(Filemap.READ_PAGE, List.of(), 50, 100 * US),
        1_050 * US, true, false)).isEqualTo(50 * US);
  }

  @Test
  void doesNotScheduleWhenNoReschedulingIsDue() {
    SiteRig r = new SiteRig();
    KernelPath k = r.loopAt(Filemap.READ_PAGE, List.of(), 50, 100 * US);
    long[] switchesAwayFromB = {0};
    Tracer t = new Tracer() {
      @Override
      public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
        if (prev.comm().equals("B") && now < 5_000 * US) {
          switchesAwayFromB[0]++;
        }
      }
    };
    Kernel kernel = r.builder(k, true, false, true, t).build();
    kernel.run(6_000 * US);
    assertThat(r.visited).isEqualTo(50);
    assertThat(switchesAwayFromB[0]).isZero();
  }

  /**
   * /proc/sys/kernel/lowlatency gates only TEST_RESCHED_COUNT: in the non-debug build
   * conditional_schedule_needed() is current->need_resched alone (include/linux/low-latency.h).
   * With the switch at 0 a per-page conditional_schedule still acts; prune_dcache's counted
   * break does not.
   */
  @Test
  void theSysctlGatesOnlyTheCountedTests() {
    SiteRig r = new SiteRig();
    KernelPath k = r.loopAt(Filemap.READ_PAGE, List.of(), 50, 100 * US);
    Kernel kernel = r.builder(k, true, false, false, null).build();
    RtcProbeRig.assertRtcAt(kernel, 1_050 * US);
    kernel.run(10_000 * US);
    assertThat(r.rig.latencies.get(0)).isEqualTo(50 * US);

    SiteRig counted = new SiteRig();
    KernelPath prune = counted.loopAt(Dcache.PRUNE_DCACHE, List.of(DCACHE_LOCK), 300, 10 * US);
    Kernel off = counted.builder(prune, true, false, false, null).build();
    RtcProbeRig.assertRtcAt(off, 55 * US);
    off.run(10_000 * US);
    assertThat(counted.rig.latencies.get(0)).isEqualTo(3_000 * US - 55 * US);
  }
}
