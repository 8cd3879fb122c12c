package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.Ext2;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.rt.RtPatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the RTC's handler runs in its irq/8 thread, the probe is woken by that thread, and what
 * holds the probe back is what kept the thread off the CPU: the anatomy names it there, in its
 * own part, and the parts still add up to the sample. The hold is ext2_truncate's, under the big
 * kernel lock: non-preemptible where interrupts and softirqs are threaded but locks spin, gone
 * from the sample where the rt patch makes the lock sleep too.
 */
class ThreadedHandlerScenarioTests {

  private static final long MS = 1_000_000;

  /** Threaded interrupts and softirqs with spinning locks: rt without its sleeping locks. */
  private static final KernelPatch THREADED_ONLY = new KernelPatch() {
    @Override
    public String name() {
      return "threaded-only";
    }

    @Override
    public void apply(Patching kernel) {
      kernel.threadInterrupts();
      kernel.threadSoftirqs();
    }
  };

  /** rm of a 100 MB file not in the page cache, 20 ms after boot: ext2_truncate under the BKL. */
  private static SampleAnatomy unlinkUnder(KernelPatch rt) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    VfsFile big = paths.pageCache().create("big.iso", 25_600);
    FileIo io = new FileIo();
    return PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("rm",
        KernelPath.userProgram("rm")
            .syscall(Timer.sysNanosleep(20 * MS))
            .syscall(paths.filemap().sysUnlink, c -> io.on(big, 0, 0))
            .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS)))
            .build())), k -> { }, 100 * MS, rt);
  }

  @Test
  void aNonPreemptibleHoldDelaysTheHandlerThreadAndIsNamedAsItsWait() {
    SampleAnatomy w = unlinkUnder(THREADED_ONLY);
    assertThat(w.segments()).extracting(Segment::part).containsExactly(Part.INTERRUPT_LATENCY, Part.HANDLER,
        Part.WAIT_FOR_HANDLER_THREAD, Part.HANDLER_THREAD, Part.WAIT_FOR_CPU, Part.SWITCH_TO_USER);
    assertThat(w.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(w.latencyNs());
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_HANDLER_THREAD);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Ext2.Ext2Truncate());
      assertThat(d.task().comm()).isEqualTo("rm");
    });
    assertThat(w.latencyNs()).isGreaterThan(2 * MS);
  }

  @Test
  void withTheHandlerInTheHardInterruptTheSameHoldIsTheProbesOwnWait() {
    SampleAnatomy w = unlinkUnder(null);
    assertThat(w.segments()).extracting(Segment::part)
        .isEqualTo(List.of(Part.INTERRUPT_LATENCY, Part.HANDLER, Part.WAIT_FOR_CPU, Part.SWITCH_TO_USER));
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class,
        d -> assertThat(d.cause()).isEqualTo(new Ext2.Ext2Truncate()));
  }

  @Test
  void whereTheBigKernelLockSleepsTheSameHoldNoLongerDelaysTheHandlerThread() {
    SampleAnatomy w = unlinkUnder(new RtPatch());
    assertThat(w.segments().stream().mapToLong(Segment::ns).sum()).isEqualTo(w.latencyNs());
    assertThat(w.culprit()).isNotInstanceOf(Cause.Declared.class);
    assertThat(w.latencyNs()).as("rm is preempted inside ext2_truncate").isLessThan(MS / 10);
  }
}
