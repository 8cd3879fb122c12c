package dev.kernellab.lowlat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.WriteSomeBuffersWalkTests;
import dev.kernellab.paths.fs.Buffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fs/buffer.c write_some_buffers with the patch (2.4.32 copy) against 2.4.17: the walk's refile
 * of a skipped locked buffer keeps a dirty one on BUF_DIRTY, and a full batch ends in
 * conditional_schedule(), lru_list_lock released, whoever called it.
 */
class WriteSomeBuffersTests {

  /**
   * The patch's __refile_buffer of a skipped locked buffer leaves a dirty one on BUF_DIRTY
   * (dirty wins in its dispose): the buffers written again while their batch is in flight are
   * passed by the patched walk as by vanilla's.
   */
  @Test
  void thePatchedWalkStillPassesLockedBuffersWrittenAgainInFlight() {
    assertThat(holds(true)).isEqualTo(holds(false));
    long batch = Buffer.NRSYNC * Buffer.COLLECT_BH_NS;
    assertThat(holds(true)).containsExactly(
        batch, batch + WriteSomeBuffersWalkTests.REWRITTEN * Calibration.LIST_VISIT_NS, batch);
  }

  private static List<Long> holds(boolean lowlat) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    if (lowlat) {
      b.patch("lowlat");
    }
    return WriteSomeBuffersWalkTests.holds(p, b, new long[1]);
  }

  @Test
  void aFullBatchEndsInAConditionalScheduleForEveryCallerBalanceDirtyIncluded() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    assertThat(p.buffer().writeSomeBuffers.sites()).containsExactly(Buffer.WRITE_SOME_BUFFERS, Buffer.FULL_BATCH);
    assertThat(p.sites()).contains(Buffer.FULL_BATCH);
    assertThat(LowLatencySites.TABLE).filteredOn(ps -> ps.site().equals(Buffer.FULL_BATCH))
        .singleElement()
        .satisfies(ps -> assertThat(ps.technique()).isEqualTo(Technique.CONDITIONAL_SCHEDULE));
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    Kernel k = b.patch("lowlat").build();
    assertThat(k.hookAt(Buffer.FULL_BATCH)).isPresent();
    assertThat(String.join("\n", p.buffer().writeSomeBuffers.listing())).endsWith("site fs/buffer.c:write_some_buffers#full_batch");
  }
}
