package dev.kernellab.paths;

import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fs/buffer.c write_some_buffers (2.4.17) walks BUF_DIRTY past the buffers locked for I/O: the
 * load's own, those written again while their batch is in flight (__mark_dirty refiles them to
 * BUF_DIRTY still locked). A walk passes exactly the ones still in flight, none once their I/O
 * has ended.
 */
public class WriteSomeBuffersWalkTests {

  private static final long MS = 1_000_000;
  /** Pages of the first batch written again while it is on the disk. */
  public static final int REWRITTEN = 10;

  /**
   * lru_list_lock holds of three write_some_buffers calls, ns: a batch of 32 fresh pages; while
   * it is under I/O, {@value #REWRITTEN} of its pages written again and 40 new ones, and a walk;
   * after both batches' I/O, a third walk. {@code locked} gets the pages locked when the second
   * task writes.
   */
  public static List<Long> holds(Kernel24Paths p, KernelBuilder b, long[] locked) {
    List<Long> holds = new ArrayList<>();
    SpinLock lru = p.locks().lruListLock;
    b.tracer(new Tracer() {
      @Override
      public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
        if (lock == lru) {
          holds.add(heldNs);
        }
      }
    });
    PageCache pc = p.pageCache();
    VfsFile[] f = new VfsFile[1];
    b.task(TaskSpec.user("first", KernelPath.userProgram("first")
        .effect("write 32 pages", c -> {
          f[0] = pc.create("f", 0);
          for (int i = 0; i < Buffer.NRSYNC; i++) {
            pc.write(f[0], i, c.now());
          }
        })
        .syscall(p.buffer().writeSomeBuffers)
        .loop("idle", Long.MAX_VALUE, l -> l.compute(MS))
        .build()));
    b.task(TaskSpec.user("second", KernelPath.userProgram("second")
        .syscall(KernelPath.path("test", "nap").sleepFor(MS).build())
        .effect("write again 10 pages in flight, and 40 new", c -> {
          locked[0] = pc.lockedPages();
          for (int i = 0; i < REWRITTEN; i++) {
            pc.write(f[0], i, c.now());
          }
          for (int i = Buffer.NRSYNC; i < Buffer.NRSYNC + 40; i++) {
            pc.write(f[0], i, c.now());
          }
        })
        .syscall(p.buffer().writeSomeBuffers)
        .syscall(p.buffer().writeSomeBuffers)
        .loop("idle", Long.MAX_VALUE, l -> l.compute(MS))
        .build()));
    b.build().run(500 * MS);
    return holds;
  }

  @Test
  void aWalkSkipsTheBuffersWrittenAgainWhileTheirBatchIsInFlightAndNoneOnceItEnded() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    long[] locked = new long[1];
    List<Long> holds = holds(p, b, locked);
    long batch = Buffer.NRSYNC * Buffer.COLLECT_BH_NS;
    assertThat(locked[0]).as("the first batch is on the disk when the second task writes").isEqualTo(Buffer.NRSYNC);
    assertThat(holds).containsExactly(batch, batch + REWRITTEN * Calibration.LIST_VISIT_NS, batch);
    assertThat(p.pageCache().lockedPages()).as("the disk is idle").isZero();
    assertThat(p.pageCache().lockedDirtyPages()).isZero();
  }
}
