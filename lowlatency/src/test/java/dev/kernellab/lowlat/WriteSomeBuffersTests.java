package dev.kernellab.lowlat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.fs.Buffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fs/buffer.c write_some_buffers with the patch (2.4.32 copy) against 2.4.17: the walk refiles
 * a locked buffer the first time it skips it, so the next walk does not pass it again; and a
 * full batch ends in conditional_schedule(), lru_list_lock released, whoever called it.
 */
class WriteSomeBuffersTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final long LOCKED = 2_000;

  /** The defaults with a dirty list whose head is always {@value #LOCKED} locked buffers. */
  private static PathParams lockedHead() {
    PathParams d = PathParams.defaults();
    return new PathParams(
        d.processPages(), d.munmapPages(), d.readPages(), d.writePages(), d.pageCacheMissRate(),
        d.dirtyBalanceRate(), d.truncatePages(), d.truncateSkipPages(), Distribution.fixed(LOCKED),
        d.pruneDentries(), d.pruneInodes(), d.swapOutPtes(), d.shrinkCacheScan(), d.deviceBuffers(),
        d.openFiles(), d.kswapdWakeRate(), d.framebufferConsole());
  }

  /** The lru_list_lock holds of five write_some_buffers calls in a row, ns. */
  private static List<Long> holds(boolean lowlat) {
    Kernel24Paths p = new Kernel24Paths(lockedHead());
    List<Long> holds = new ArrayList<>();
    SpinLock lru = p.locks().lruListLock;
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(new Tracer() {
          @Override
          public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
            if (lock == lru) {
              holds.add(heldNs);
            }
          }
        });
    p.install(b);
    if (lowlat) {
      b.patch("lowlat");
    }
    b.task(TaskSpec.user("w", KernelPath.userProgram("w")
        .loop("batches", 5, l -> l.syscall(p.buffer().writeSomeBuffers))
        .loop("idle", Long.MAX_VALUE, l -> l.compute(MS))
        .build()));
    Kernel k = b.build();
    k.run(500 * MS);
    assertThat(p.buffer().refilesSkippedLockedBuffers()).isEqualTo(lowlat);
    return holds;
  }

  @Test
  void vanillaWalksTheLockedStretchOnEveryBatchThePatchedWalkOnce() {
    long full = LOCKED * Calibration.LIST_VISIT_NS + Buffer.NRSYNC * Buffer.COLLECT_BH_NS;
    assertThat(holds(false)).containsExactly(full, full, full, full, full);
    List<Long> patched = holds(true);
    assertThat(patched).hasSize(5);
    assertThat(patched.get(0)).isEqualTo(full);
    // A batch's I/O takes some ms: the disk can have locked only tens of buffers since
    // (one per 137 us, the media time of a page at 30 MB/s).
    assertThat(patched.subList(1, 5)).allSatisfy(h -> assertThat(h).isLessThan(full / 4));
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
