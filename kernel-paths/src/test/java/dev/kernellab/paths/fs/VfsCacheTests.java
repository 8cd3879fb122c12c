package dev.kernellab.paths.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.paths.mm.Slab;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dentry and inode caches follow the load: closed files go on dentry_unused, a prune frees
 * nr_unused / priority oldest first (passing referenced dentries once), pruned dentries release
 * their inodes, prune_icache passes inodes with cached pages, an unlink leaves a negative
 * dentry, and the inode sync writes each dirty inode once.
 */
class VfsCacheTests {

  private static final long REST_UNUSED = VfsCache.DENTRIES_AT_BOOT - VfsCache.DENTRIES_IN_USE_AT_BOOT;

  private final PageCache pc = new PageCache();
  private final VfsCache vfs = new VfsCache(new Slab());

  private List<VfsFile> createAndClose(int n, String prefix) {
    List<VfsFile> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      VfsFile f = pc.create(prefix + i, 0);
      vfs.create(f);
      vfs.dput(f);
      out.add(f);
    }
    return out;
  }

  @Test
  void bootStateIsTheStatedDesktopAfterABuild() {
    assertThat(vfs.nrDentry()).isEqualTo(30_000);
    assertThat(vfs.nrUnusedDentries()).isEqualTo(27_000);
    assertThat(vfs.nrInodes()).isEqualTo(10_000);
    assertThat(vfs.nrUnusedInodes()).isEqualTo(2_000);
    assertThat(vfs.nrDirtyInodes()).isZero();
  }

  @Test
  void filesCreatedAndClosedGoOnDentryUnusedAndThePruneFreesNrUnusedOverPriority() {
    createAndClose(600, "f");
    assertThat(vfs.nrUnusedDentries()).isEqualTo(REST_UNUSED + 600);
    assertThat(vfs.nrDentry()).isEqualTo(30_600);
    assertThat(vfs.nrInodes()).isEqualTo(10_600);
    // the oldest first: the rest's dentries, (27,000 + 600) / 6 of them
    assertThat(vfs.planPruneDcache(6)).isEqualTo((REST_UNUSED + 600) / 6);
    assertThat(vfs.nrUnusedDentries()).isEqualTo(REST_UNUSED + 600 - (REST_UNUSED + 600) / 6);
  }

  @Test
  void aPruneOfEverythingReleasesTheInodesOfPositiveDentries() {
    List<VfsFile> files = createAndClose(100, "f");
    long unusedInodes = vfs.nrUnusedInodes();
    long walked = vfs.planPruneDcache(1);
    assertThat(walked).isEqualTo(REST_UNUSED + 100);
    assertThat(vfs.nrUnusedDentries()).isZero();
    // the rest's 5,000 positive dentries and the 100 files' each drop their inode's last use
    assertThat(vfs.nrUnusedInodes()).isEqualTo(unusedInodes + VfsCache.POSITIVE_UNUSED_DENTRIES_AT_BOOT + 100);
    assertThat(files).allSatisfy(f -> {
      assertThat(f.dentryCached()).isFalse();
      assertThat(f.inodeCached()).isTrue();
    });
  }

  @Test
  void aDentryLookedUpSinceItWentUnusedIsPassedOnceThenFreed() {
    List<VfsFile> files = createAndClose(10, "f");
    for (VfsFile f : files.subList(0, 4)) {
      assertThat(vfs.lookup(f)).as("a hit").isFalse();
      vfs.dput(f);
    }
    // priority 1: all of it; four referenced dentries are walked twice
    assertThat(vfs.planPruneDcache(1)).isEqualTo(REST_UNUSED + 10 + 4);
    long freed = 0;
    for (long i = 0; i < REST_UNUSED + 14; i++) {
      freed += vfs.nextPrunedDentryFreed() ? 1 : 0;
    }
    assertThat(freed).isEqualTo(REST_UNUSED + 10);
  }

  @Test
  void referencedDentriesTheCountDoesNotReachStayForTheNextPrune() {
    vfs.planPruneDcache(1); // empty the rest
    List<VfsFile> files = createAndClose(12, "f");
    for (VfsFile f : files) {
      vfs.lookup(f);
      vfs.dput(f);
    }
    // 12 unused, count 2: all twelve referenced ones are passed, then two freed
    assertThat(vfs.planPruneDcache(6)).isEqualTo(14);
    assertThat(vfs.nrUnusedDentries()).isEqualTo(10);
    assertThat(vfs.planPruneDcache(5)).as("10 / 5, none referenced now").isEqualTo(2);
  }

  @Test
  void pruneIcacheWalksPastInodesWithCachedPagesAndFreesTheOthers() {
    vfs.planPruneDcache(1);
    vfs.planPruneIcache(1); // the rest: its freeable third gone, the cached two thirds stay
    long restLeft = vfs.nrUnusedInodes();
    List<VfsFile> cached = createAndClose(30, "c");
    for (VfsFile f : cached) {
      pc.write(f, 0, 0);
    }
    createAndClose(20, "e");
    vfs.planSyncUnlockedInodes(); // new inodes are dirty: clean them so they can go unused
    vfs.planPruneDcache(1);
    assertThat(vfs.nrUnusedInodes()).isEqualTo(restLeft + 50);
    long walked = vfs.planPruneIcache(1);
    assertThat(walked).isEqualTo(restLeft + 50);
    assertThat(vfs.lastPruneIcacheFreed()).isEqualTo(20);
    assertThat(vfs.nrUnusedInodes()).isEqualTo(restLeft + 30);
  }

  @Test
  void theFirstPrunesAfterBootWalkThreeInodesPerOneFreed() {
    vfs.planPruneDcache(6);
    long unused = vfs.nrUnusedInodes();
    long walked = vfs.planPruneIcache(6);
    assertThat(vfs.lastPruneIcacheFreed()).isEqualTo(unused / 6);
    assertThat(walked).isBetween(3 * (unused / 6) - 3, 3 * (unused / 6) + 3);
  }

  /**
   * Reclaim frees the oldest pages first, the rest's: every PAGES_PER_REST_INODE pages one of
   * its unused inodes loses its last page, and once all have, prune_icache frees what it walks.
   */
  @Test
  void reclaimTakesTheRestsPagesFirstUntilItsInodesCanBeFreed() {
    long withPages = vfs.restUnusedWithPages();
    assertThat(withPages).isPositive();
    for (int i = 0; i < 10 * VfsCache.PAGES_PER_REST_INODE; i++) {
      vfs.pageReclaimed();
    }
    assertThat(vfs.restUnusedWithPages()).isEqualTo(withPages - 10);
    for (long i = 0; i < withPages * VfsCache.PAGES_PER_REST_INODE; i++) {
      vfs.pageReclaimed();
    }
    assertThat(vfs.restUnusedWithPages()).isZero();
    long unused = vfs.nrUnusedInodes();
    assertThat(vfs.planPruneIcache(6)).as("every inode walked is freed").isEqualTo(unused / 6);
    assertThat(vfs.lastPruneIcacheFreed()).isEqualTo(unused / 6);
  }

  @Test
  void anUnlinkFreesTheInodeAndLeavesANegativeDentryThatACreateReuses() {
    VfsFile f = pc.create("tmp", 0);
    vfs.create(f);
    assertThat(vfs.nrDirtyInodes()).isEqualTo(1);
    vfs.unlink(f);
    pc.unlink(f);
    assertThat(vfs.nrInodes()).isEqualTo(10_000);
    assertThat(vfs.nrDirtyInodes()).isZero();
    assertThat(vfs.nrDentry()).isEqualTo(30_001);
    assertThat(vfs.nrUnusedDentries()).isEqualTo(REST_UNUSED + 1);
    assertThat(f.dentryCached()).isTrue();
    pc.recreate(f);
    vfs.create(f);
    assertThat(vfs.nrDentry()).as("the negative dentry, reused").isEqualTo(30_001);
    assertThat(vfs.nrUnusedDentries()).isEqualTo(REST_UNUSED);
    assertThat(vfs.nrInodes()).isEqualTo(10_001);
  }

  @Test
  void theSyncWritesEachDirtyInodeOnce() {
    List<VfsFile> files = createAndClose(40, "f");
    vfs.markDirty(files.get(0));
    assertThat(vfs.planSyncUnlockedInodes()).isEqualTo(40);
    assertThat(vfs.planSyncUnlockedInodes()).isZero();
    vfs.markDirty(files.get(3));
    vfs.markDirty(files.get(3));
    assertThat(vfs.planSyncUnlockedInodes()).isEqualTo(1);
  }

  @Test
  void aWriteOfAFileNeverOpenedBringsItsDentryAndInodeIn() {
    VfsFile obj = pc.create("obj", 0);
    vfs.markDirty(obj);
    assertThat(obj.dentryCached()).isTrue();
    assertThat(obj.dentryCount()).isZero();
    assertThat(vfs.nrUnusedDentries()).isEqualTo(REST_UNUSED + 1);
    assertThat(vfs.nrDirtyInodes()).isEqualTo(1);
  }

  @Test
  void aCloseWithoutAnOpenIsRefused() {
    VfsFile f = pc.create("f", 0);
    assertThatThrownBy(() -> vfs.dput(f)).isInstanceOf(IllegalStateException.class);
  }
}
