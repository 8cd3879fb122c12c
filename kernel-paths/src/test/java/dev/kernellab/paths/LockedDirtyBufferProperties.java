package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsFile;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The page cache's buffers locked under a write_some_buffers batch's I/O, against a naive
 * reference (an ordered set of dirty pages as BUF_DIRTY, a set of locked ones, a queue of
 * batches): after every action of a story of writes, walks, I/O completions and truncates, the
 * counts agree and never go negative; and once every batch has completed (the disk idle), no
 * page is locked. The reference drops a truncated page's lock at once, as PageCache does
 * (truncate_inode_pages would wait for the I/O): the property does not cover that wait.
 */
class LockedDirtyBufferProperties {

  private static final int PAGES = 96;
  private static final int NRSYNC = 32;

  sealed interface Action permits Write, Walk, Complete, Truncate {}

  /** A write() of one page. */
  record Write(int page) implements Action {}

  /** A write_some_buffers walk and its batch's submission. */
  record Walk() implements Action {}

  /** The oldest batch's I/O completes. */
  record Complete() implements Action {}

  /** A truncate of the file from a page on. */
  record Truncate(int from) implements Action {}

  static Action decode(int code) {
    int a = code / 8;
    return switch (code % 8) {
      case 0, 1, 2, 3 -> new Write(a % PAGES);
      case 4, 5 -> new Walk();
      case 6 -> new Complete();
      default -> new Truncate(PAGES / 2 + a % (PAGES / 2));
    };
  }

  @Test
  void lockedBuffersAgreeWithAReferenceNeverGoNegativeAndReturnToZeroWhenTheDiskIsIdle() {
    qt().withFixedSeed(0x2417L)
        .withExamples(300)
        .withShrinkCycles(300)
        .forAll(lists().of(integers().between(0, 8 * 1000 - 1).map(LockedDirtyBufferProperties::decode))
            .ofSizeBetween(1, 200))
        .checkAssert(LockedDirtyBufferProperties::run);
  }

  private static void run(List<Action> story) {
    PageCache pc = new PageCache();
    VfsFile f = pc.create("f", 0);
    LinkedHashSet<Integer> dirty = new LinkedHashSet<>(); // BUF_DIRTY, oldest first
    Map<Integer, Integer> locked = new TreeMap<>(); // page -> the batch it is locked in
    ArrayDeque<Integer> batches = new ArrayDeque<>();
    int serial = 0;
    for (Action a : story) {
      if (a instanceof Write w) {
        pc.write(f, w.page(), 0);
        dirty.add(w.page()); // already dirty: keeps its place
      } else if (a instanceof Walk) {
        List<Integer> batch = new ArrayList<>();
        for (int p : dirty) {
          if (batch.size() < NRSYNC && !locked.containsKey(p)) {
            batch.add(p);
          }
        }
        dirty.removeAll(batch);
        serial++;
        for (int p : batch) {
          locked.put(p, serial);
        }
        assertThat(pc.startWriteback(NRSYNC)).isEqualTo(batch.size());
        if (!batch.isEmpty()) {
          batches.add(serial);
        }
      } else if (a instanceof Complete) {
        if (!batches.isEmpty()) {
          complete(locked, batches.remove());
          pc.endWriteback();
        }
      } else if (a instanceof Truncate t) {
        pc.truncate(f, t.from());
        dirty.removeIf(p -> p >= t.from());
        locked.keySet().removeIf(p -> p >= t.from());
      }
      check(pc, dirty, locked);
    }
    while (!batches.isEmpty()) {
      complete(locked, batches.remove());
      pc.endWriteback();
      check(pc, dirty, locked);
    }
    assertThat(pc.lockedPages()).isZero();
    assertThat(pc.lockedDirtyPages()).isZero();
    assertThat(pc.lockedSkipped(NRSYNC)).isZero();
  }

  /** The batch's pages unlock; a page truncated and locked again since is in a later batch. */
  private static void complete(Map<Integer, Integer> locked, int batch) {
    locked.values().removeIf(b -> b == batch);
  }

  private static void check(PageCache pc, LinkedHashSet<Integer> dirty, Map<Integer, Integer> locked) {
    long skipped = 0;
    int found = 0;
    for (int p : dirty) {
      if (found == NRSYNC) {
        break;
      }
      if (locked.containsKey(p)) {
        skipped++;
      } else {
        found++;
      }
    }
    long lockedDirty = dirty.stream().filter(locked::containsKey).count();
    assertThat(pc.lockedPages()).isGreaterThanOrEqualTo(0).isEqualTo(locked.size());
    assertThat(pc.lockedDirtyPages()).isGreaterThanOrEqualTo(0).isEqualTo((int) lockedDirty);
    assertThat(pc.lockedSkipped(NRSYNC)).isEqualTo(skipped).isLessThanOrEqualTo(lockedDirty);
    assertThat(pc.dirtyPages()).isEqualTo(dirty.size());
  }
}
