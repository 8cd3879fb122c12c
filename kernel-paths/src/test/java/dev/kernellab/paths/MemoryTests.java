package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.mm.Memory;
import org.junit.jupiter.api.Test;

/**
 * mm/mmap.c exit_mmap and kernel/fork.c dup_mmap of 2.4.17 take page_table_lock once per vma
 * (zap_page_range / copy_page_range per vma) and not once per process.
 */
class MemoryTests {

  private static final long MS = 1_000_000;

  private static SpinLock run(Kernel24Paths p, KernelPath body) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    b.task(TaskSpec.user("t", KernelPath.userProgram("t").syscall(body).build()));
    Kernel k = b.build();
    k.run(2_000 * MS);
    return p.locks().pageTableLock;
  }

  @Test
  void exitMmapTakesPageTableLockOncePerVmaAndFlushesInsideIt() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    SpinLock ptl = run(p, p.memory().exitMmap);
    // detach + one zap per small vma + the large vma + clear_page_tables
    assertThat(ptl.acquisitions()).isEqualTo(1 + Memory.SMALL_VMAS + 1 + 1);
    assertThat(ptl.isHeldExclusive()).isFalse();
    assertThat(String.join("\n", p.memory().exitMmap.listing())).contains("loop mm/mmap.c:exit_mmap#vmas");
  }

  @Test
  void dupMmapTakesPageTableLockOncePerVma() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    SpinLock ptl = run(p, p.memory().dupMmap);
    assertThat(ptl.acquisitions()).isEqualTo(Memory.SMALL_VMAS + 1);
  }
}
