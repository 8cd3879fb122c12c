package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsFile;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The page cache and the file paths that consult it: a read misses where its page is not
 * cached and only there, a write dirties pages that writeback cleans, the cache holds what the
 * machine's memory allows and a large copy pushes other pages out, an unlink drops the file's
 * pages, and a fork's page_table_lock hold grows with the forking process's pages.
 */
class PageCacheTests {

  private static final long MS = 1_000_000;

  @Test
  void aSecondReadOfAPageHitsAndReadAheadBringsTheNextPagesIn() {
    PageCache pc = new PageCache();
    VfsFile f = pc.create("f", 100);
    assertThat(pc.read(f, 0)).isFalse();
    assertThat(pc.read(f, 0)).isTrue();
    pc.readAhead(f, 1);
    assertThat(f.isCached(1)).isTrue();
    assertThat(pc.hits()).isEqualTo(1);
    assertThat(pc.misses()).isEqualTo(1);
  }

  @Test
  void theCacheHoldsWhatMemoryAllowsAndAColdCopyPushesOtherPagesOut() {
    PageCache pc = new PageCache();
    pc.setMemory(MachineSpec.MIN_MEMORY_BYTES + PageCache.RESERVED_BYTES);
    int cap = pc.capacityPages();
    VfsFile old = pc.create("old", cap);
    for (long p = 0; p < cap; p++) {
      pc.read(old, p);
    }
    assertThat(pc.cachedPages()).isEqualTo(cap);
    VfsFile big = pc.create("big", cap);
    for (long p = 0; p < cap; p++) {
      pc.read(big, p);
    }
    assertThat(pc.cachedPages()).isEqualTo(cap);
    assertThat(old.cachedPages()).isLessThan(cap / 10);
    assertThat(pc.evictions()).isGreaterThanOrEqualTo(cap - cap / 10);
  }

  @Test
  void dirtyPagesAreCleanedOldestFirstAndCrossTheBdflushLimits() {
    PageCache pc = new PageCache();
    VfsFile f = pc.create("log", 0);
    long soft = (pc.capacityPages() * (long) PageCache.NFRACT + 99) / 100;
    for (long p = 0; p < soft; p++) {
      pc.write(f, p, p);
    }
    assertThat(pc.overSoftDirtyLimit()).isTrue();
    assertThat(pc.overHardDirtyLimit()).isFalse();
    assertThat(pc.dirtyOlderThan(9)).isEqualTo(10);
    assertThat(pc.oldestDirtyLba()).isEqualTo(f.lbaOf(0));
    assertThat(pc.writeback(32, Long.MAX_VALUE)).isEqualTo(32);
    assertThat(pc.oldestDirtyLba()).isEqualTo(f.lbaOf(32));
    assertThat(pc.dirtyPages()).isEqualTo(soft - 32);
    assertThat(pc.unlink(f)).isEqualTo(soft);
    assertThat(pc.dirtyPages()).isZero();
  }

  /** A kernel of a fresh catalog running one user task, with the program made over it. */
  private static Kernel24Paths run(Function<Kernel24Paths, KernelPath> program, long pages) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    b.task(TaskSpec.user("t", program.apply(p)).residentPages(pages));
    b.build().run(2_000 * MS);
    return p;
  }

  @Test
  void aReadOfACachedFileDoesNoDiskIoAndAColdOneDoes() {
    FileIo io = new FileIo();
    long[] requestsAfterFirst = {-1};
    long[] requestsAfterSecond = {-1};
    Kernel24Paths p = run(c -> {
      VfsFile data = c.pageCache().create("data", 64);
      return KernelPath.userProgram("cat")
          .syscall(c.filemap().sysRead, k -> io.on(data, 0, 64 * PageCache.PAGE_SIZE))
          .probe((k, t, now) -> requestsAfterFirst[0] = k.machine().disk().served())
          .syscall(c.filemap().sysRead, k -> io.on(data, 0, 64 * PageCache.PAGE_SIZE))
          .probe((k, t, now) -> requestsAfterSecond[0] = k.machine().disk().served())
          .build();
    }, 0);
    // 64 pages; each miss reads its page and 3 ahead (32 sectors): 16 requests, then none.
    assertThat(requestsAfterFirst[0]).isEqualTo(16);
    assertThat(requestsAfterSecond[0]).isEqualTo(16);
    assertThat(p.pageCache().misses()).isEqualTo(16);
    assertThat(p.pageCache().hits()).as("48 read-ahead pages of the first pass, 64 of the second").isEqualTo(112);
  }

  @Test
  void aForkOfALargerProcessHoldsPageTableLockLongerInProportion() {
    // copy_page_range: 300 ns a pte under the child's page_table_lock (Calibration).
    assertThat(forkHold(1_000)).isEqualTo(1_000 * Calibration.PTE_COPY_NS);
    assertThat(forkHold(10_000)).isEqualTo(10_000 * Calibration.PTE_COPY_NS);
  }

  private static long forkHold(long pages) {
    KernelPath child = KernelPath.userProgram("child").compute(MS).build();
    Kernel24Paths p = run(c -> KernelPath.userProgram("parent")
        .syscall(c.fork().sysFork("child", child)).build(), pages);
    return p.locks().pageTableLock.maxHoldNs();
  }
}
