package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.fs.VfsCache;
import dev.kernellab.paths.fs.VfsFile;
import org.junit.jupiter.api.Test;

/**
 * The prune and the inode sync run as long as the load made them, in a running kernel: a
 * program that creates and closes files lengthens the next prune_dcache by a sixth of them, and
 * kupdate's hold of the BKL by one inode write each.
 */
class VfsCacheScenarioTests {

  private static final long MS = 1_000_000;
  private static final long REST_UNUSED = VfsCache.DENTRIES_AT_BOOT - VfsCache.DENTRIES_IN_USE_AT_BOOT;

  /** Creates and closes {@code n} files, then runs prune_dcache once; returns its duration. */
  private static long pruneAfterCreating(int n) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    b.task(TaskSpec.user("t", program(p, n)
        .probe((c, t, now) -> start[0] = now)
        .syscall(p.dcache().pruneDcache)
        .probe((c, t, now) -> end[0] = now)
        .build()));
    b.build().run(2_000 * MS);
    assertThat(p.vfsCache().nrUnusedDentries()).isEqualTo(REST_UNUSED + n - (REST_UNUSED + n) / 6);
    return end[0] - start[0];
  }

  private static final long[] start = new long[1];
  private static final long[] end = new long[1];

  /** A program that creates {@code n} files (open O_CREAT) and closes each. */
  private static KernelPath.Builder program(Kernel24Paths p, int n) {
    VfsFile[] files = new VfsFile[n];
    for (int i = 0; i < n; i++) {
      files[i] = p.pageCache().create("f" + i, 0);
    }
    int[] at = {0};
    FileIo io = new FileIo();
    KernelPath creat = KernelPath.path("fs/namei.c", "open_namei: O_CREAT")
        .call(p.syscalls().open)
        .effect("ext2_create()", c -> p.vfsCache().create(files[at[0]]))
        .build();
    return KernelPath.userProgram("creat")
        .loop("files", n, l -> l
            .syscall(creat)
            .syscall(p.syscalls().close, c -> io.on(files[at[0]], 0, 0))
            .probe((c, t, now) -> at[0]++));
  }

  @Test
  void pruneDcacheWalksASixthOfTheUnusedDentriesTheLoadLeft() {
    long none = pruneAfterCreating(0);
    long many = pruneAfterCreating(12_000);
    long perDentry = Dcache.PASS_REFERENCED_NS + Dcache.PRUNE_LOCKED_NS + Dcache.DENTRY_IPUT_NS;
    assertThat(none).isBetween(REST_UNUSED / 6 * perDentry, REST_UNUSED / 6 * perDentry * 102 / 100);
    // 12,000 more unused dentries: 2,000 more freed
    assertThat(many - none).isBetween(2_000 * perDentry * 98 / 100, 2_000 * perDentry * 102 / 100);
  }

  /**
   * Longest BKL hold of a kernel whose program creates and closes {@code n} files, with kupdate
   * (two CPUs: on one, lock_kernel takes no lock).
   */
  private static long kupdateBklHold(int n) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    b.task(TaskSpec.kernelThread("kupdated", p.buffer().kupdate));
    b.task(TaskSpec.user("t", program(p, n).build()));
    b.build().run(5_500 * MS);
    assertThat(p.vfsCache().nrDirtyInodes()).as("kupdate wrote them").isZero();
    return p.locks().kernelFlag.maxHoldNs();
  }

  @Test
  void kupdateHoldsTheBklForEveryInodeTheLoadDirtied() {
    long perInode = Inode.SYNC_ONE_NS + Calibration.LIST_VISIT_NS;
    long few = kupdateBklHold(10);
    long many = kupdateBklHold(1_010);
    assertThat(many - few).isBetween(1_000 * perInode * 98 / 100, 1_000 * perInode * 102 / 100);
  }
}
