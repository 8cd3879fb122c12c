package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.fs.Readdir;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * getdents64 over ext2 as fs/readdir.c and fs/ext2/dir.c of 2.4.17 have it: vfs_readdir holds
 * the BKL over ext2_readdir, which walks the directory's pages and lists entries until the
 * reader's buffer is full, and each listing dirties the directory's atime.
 */
class ReaddirTests {

  private static final long MS = 1_000_000;

  /**
   * Lists {@code dir} to the end once on a two-CPU machine (on UP without the preempt patch
   * kernel_flag is compiled out); returns the BKL holds of each getdents64, in order.
   */
  private static List<Long> bklHoldsOfOneListing(Kernel24Paths p, Readdir.Directory dir, long[] calls) {
    Readdir.Getdents g = new Readdir.Getdents();
    List<Long> holds = new ArrayList<>();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(new Tracer() {
          @Override
          public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
            if (lock == p.locks().kernelFlag && path.function().equals("vfs_readdir")) {
              holds.add(heldNs);
            }
          }
        });
    p.install(b);
    b.task(TaskSpec.user("ls", KernelPath.userProgram("ls")
        .probe((c, t, now) -> g.open(dir))
        .loopWhile("readdir", c -> !g.atEnd(), r -> r
            .syscall(p.readdir().getdents, c -> g)
            .probe((c, t, now) -> calls[0]++))
        .build()));
    Kernel k = b.build();
    k.run(20 * MS);
    return holds;
  }

  /**
   * 2,002 entries of 12-byte names: 204 to a directory page (EXT2_DIR_REC_LEN 20) and 128 to a
   * 4 KiB buffer (linux_dirent64 of 32 bytes): 16 calls that list, the last 82 entries, and one
   * at the end that walks nothing. Each listing call holds the BKL for its fixed part, the pages
   * it touches and its entries; the call that straddles a page boundary walks two pages.
   */
  @Test
  void eachCallHoldsTheBklForTheEntriesItListsAndThePagesItWalks() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Readdir.Directory dir = new Readdir.Directory(null, 12);
    dir.entries(2_002);
    long[] calls = {0};
    List<Long> holds = bklHoldsOfOneListing(p, dir, calls);
    assertThat(calls[0]).isEqualTo(17);
    assertThat(holds).hasSize(17);
    long onePage = Readdir.GET_PAGE_NS;
    // the first call: entries 0..127, all on page 0
    assertThat(holds.get(0)).isEqualTo(onePage + 128 * Readdir.ENTRY_NS);
    // the second: entries 128..255, across pages 0 and 1
    assertThat(holds.get(1)).isEqualTo(2 * onePage + 128 * Readdir.ENTRY_NS);
    // the sixteenth: entries 1,920..2,001 on page 9 (1,836..2,039)
    assertThat(holds.get(15)).isEqualTo(onePage + 82 * Readdir.ENTRY_NS);
    // the end-of-directory call takes the BKL and walks nothing
    assertThat(holds.get(16)).isZero();
  }

  /** A bigger directory lengthens the walk, not a call: the buffer bounds what one call lists. */
  @Test
  void theReadersBufferBoundsOneCallWhateverTheDirectorysSize() {
    Readdir.Directory small = new Readdir.Directory(null, 12);
    small.entries(34);
    Readdir.Directory big = new Readdir.Directory(null, 12);
    big.entries(20_000);
    List<Long> a = bklHoldsOfOneListing(Kernel24Paths.withDefaults(), small, new long[1]);
    List<Long> b = bklHoldsOfOneListing(Kernel24Paths.withDefaults(), big, new long[1]);
    assertThat(a).hasSize(2);
    assertThat(a.get(0)).isEqualTo(Readdir.GET_PAGE_NS + 34 * Readdir.ENTRY_NS);
    assertThat(b).hasSize(20_000 / 128 + 2);
    assertThat(b.stream().mapToLong(Long::longValue).max().orElseThrow())
        .isEqualTo(2 * Readdir.GET_PAGE_NS + 128 * Readdir.ENTRY_NS);
  }

  /** UPDATE_ATIME: a listing marks the directory's inode dirty, for kupdate to write. */
  @Test
  void aListingDirtiesTheDirectorysInode() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    VfsFile d = p.pageCache().create("client0/", 1);
    p.vfsCache().create(d);
    p.vfsCache().planSyncUnlockedInodes(); // kupdate has written every inode
    assertThat(p.vfsCache().nrDirtyInodes()).isZero();
    Readdir.Directory dir = new Readdir.Directory(d, 12);
    dir.entries(10);
    bklHoldsOfOneListing(p, dir, new long[1]);
    assertThat(p.vfsCache().nrDirtyInodes()).isEqualTo(1);
  }

  @Test
  void aDirectoryRefusesImpossibleNamesAndCounts() {
    assertThatThrownBy(() -> new Readdir.Directory(null, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Readdir.Directory(null, 256)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Readdir.Directory(null, 12).entries(1)).isInstanceOf(IllegalArgumentException.class);
  }
}
