package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.VfsFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * latencytest's per-phase figures recounted from its samples as they are taken: each sample's
 * latency is the RTC interrupt's assertion to the loop's return (the listener's two instants),
 * an overrun is one past the audio buffer of 3 fragments of 1/2048 s (3 x 488,281 ns), and a
 * sample belongs to the phase do_tests is in when it is taken. The disk phases move the whole
 * file: 8 MiB written, copied and read in 64 KiB calls leave two files of 2,048 pages.
 */
class LatencytestPhaseTests {

  private static final long MS = 1_000_000;

  @Test
  void eachPhaseReportsItsOwnSamplesOverrunsAndWorstAndTheDiskPhasesMoveTheWholeFile() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 4).scheduler(SchedulerProvider.create("goodness"));
    paths.install(b);
    paths.installDaemons(b);
    Latencytest lt = new Latencytest(paths, 8L << 20, 300 * MS);
    lt.tasks().forEach(b::task);
    Kernel k = b.build();
    int n = Latencytest.PHASES.size();
    long[] samples = new long[n];
    long[] overruns = new long[n];
    long[] worst = new long[n];
    long[] all = {0};
    long buffer = 3 * (1_000_000_000L / 2048);
    lt.listen((probe, start, end, cpu) -> {
      all[0]++;
      int p = Latencytest.PHASES.indexOf(lt.phaseName());
      if (p >= 0) {
        long lat = end - start;
        samples[p]++;
        worst[p] = Math.max(worst[p], lat);
        if (lat > buffer) {
          overruns[p]++;
        }
      }
    });
    lt.start(k, paths.pageCache());
    for (long t = 100; t <= 30_000 && !lt.phaseName().equals("done"); t += 100) {
      k.run(t * MS);
    }
    assertThat(lt.phaseName()).isEqualTo("done");
    ProbeResult r = lt.result();
    assertThat(all[0]).isEqualTo(lt.samples()).isEqualTo(r.latency().samples());
    for (int p = 0; p < n; p++) {
      ProbeResult.PhaseResult pr = r.phases().get(p);
      assertThat(pr.phase()).isEqualTo(Latencytest.PHASES.get(p));
      assertThat(pr.latency().samples()).as(pr.phase()).isEqualTo(samples[p]).isPositive();
      assertThat(pr.overruns()).as(pr.phase()).isEqualTo(overruns[p]);
      assertThat(pr.latency().maxNs()).as(pr.phase()).isEqualTo(worst[p]);
    }
    List<VfsFile> files = paths.pageCache().files();
    assertThat(files).filteredOn(f -> f.name().equals("stress")).singleElement()
        .satisfies(f -> assertThat(f.sizePages()).isEqualTo(2_048));
    assertThat(files).filteredOn(f -> f.name().equals("stress.copy")).singleElement()
        .satisfies(f -> assertThat(f.sizePages()).isEqualTo(2_048));
    // The timed phases last their 300 ms and end at do_tests' next check of the clock, which
    // waits while X draws the requests the X phase queued: do_tests, a CPU hog, has spent its
    // counter, and goodness() runs X until X's is spent too. A task that sleeps keeps
    // counter / 2 + NICE_TO_TICKS(0) at each recalculation (kernel/sched.c, 2.4.17), which stays
    // under 2 x 6 ticks: 120 ms at HZ 100, and one more 2 ms drawing. At 2048 Hz 614 samples,
    // up to 2048 x 0.122 s = 250 more; a few fewer when one rtc_read returns interrupts that
    // came while latencytest waited.
    long timed = 2048 * 300 / 1000;
    long xSlice = 2048 * (2 * 6 * 10 + Latencytest.X_DRAW_NS / 1_000_000) / 1000;
    assertThat(samples[0]).isBetween(timed - 14, timed + xSlice);
    assertThat(samples[1]).isBetween(timed - 14, timed + xSlice);
  }
}
