package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Tunables.BITMAP_WORDS;
import static dev.kernellab.sched.o1.O1Tunables.MAX_PRIO;

import dev.kernellab.hw.Models;
import java.util.List;

/**
 * Models {@code struct prio_array} and its helpers {@code enqueue_task}, {@code dequeue_task}
 * and {@code sched_find_first_bit} (kernel/sched.c, include/asm-i386/mmu_context.h; 2.5.5, K3).
 *
 * <p>One FIFO list per priority, a bitmap of the non-empty lists, and a count. The lists are
 * intrusive (the nodes are the {@link O1Entity} fields), so no operation allocates.
 */
@Models(file = "kernel/sched.c", function = "struct prio_array", version = "2.5.5")
final class PrioArray {

  /*
   * Bitmap layout, 3 longs for 141 bits:
   *
   *   word 0: prio  0..63   (RT)
   *   word 1: prio 64..127  (RT 64..99, SCHED_OTHER 100..127)
   *   word 2: prio 128..139 (SCHED_OTHER), bit 12 = prio 140 = delimiter, bits 13..63 zero
   *
   * The delimiter is set once and never cleared, so an empty array's first set bit is MAX_PRIO.
   */
  private final long[] bitmap = new long[BITMAP_WORDS]; // bit k < 140 set iff queue k non-empty
  private final O1Entity[] head = new O1Entity[MAX_PRIO]; // queue[k] head, null iff empty
  private final O1Entity[] tail = new O1Entity[MAX_PRIO]; // queue[k] tail, null iff empty
  private int nrActive; // total length of the 140 lists

  PrioArray() {
    bitmap[MAX_PRIO >>> 6] |= 1L << (MAX_PRIO & 63);
  }

  int nrActive() {
    return nrActive;
  }

  /** {@code enqueue_task}: append at the tail of queue[prio], set its bit. */
  @Models(file = "kernel/sched.c", function = "enqueue_task", version = "2.5.5")
  void enqueue(O1Entity e) {
    int p = e.prio;
    e.next = null;
    e.prev = tail[p];
    if (tail[p] == null) {
      head[p] = e;
      bitmap[p >>> 6] |= 1L << (p & 63);
    } else {
      tail[p].next = e;
    }
    tail[p] = e;
    nrActive++;
    e.array = this;
  }

  /** {@code dequeue_task}: unlink, clear the bit if the list emptied. Leaves {@code e.array}. */
  @Models(file = "kernel/sched.c", function = "dequeue_task", version = "2.5.5")
  void dequeue(O1Entity e) {
    int p = e.prio;
    nrActive--;
    if (e.prev == null) {
      head[p] = e.next;
    } else {
      e.prev.next = e.next;
    }
    if (e.next == null) {
      tail[p] = e.prev;
    } else {
      e.next.prev = e.prev;
    }
    e.next = null;
    e.prev = null;
    if (head[p] == null) {
      bitmap[p >>> 6] &= ~(1L << (p & 63));
    }
  }

  /** Requeue at the tail of its own list (RR expiry, yield at prio 139 or RT). */
  void requeue(O1Entity e) {
    dequeue(e);
    enqueue(e);
  }

  /** {@code sched_find_first_bit}: the best non-empty priority, or MAX_PRIO if none. */
  @Models(file = "include/asm-i386/mmu_context.h", function = "sched_find_first_bit",
      version = "2.5.5")
  int findFirstBit() {
    for (int w = 0; w < BITMAP_WORDS - 1; w++) {
      if (bitmap[w] != 0) {
        return (w << 6) + Long.numberOfTrailingZeros(bitmap[w]);
      }
    }
    return ((BITMAP_WORDS - 1) << 6) + Long.numberOfTrailingZeros(bitmap[BITMAP_WORDS - 1]);
  }

  /** {@code find_next_bit(bitmap, MAX_PRIO, from)}: first set bit at or above {@code from}. */
  @Models(file = "include/asm-i386/bitops.h", function = "find_next_bit", version = "2.5.5")
  int findNextBit(int from) {
    int w = from >>> 6;
    long word = bitmap[w] & (-1L << (from & 63));
    while (word == 0) {
      word = bitmap[++w];
    }
    return (w << 6) + Long.numberOfTrailingZeros(word);
  }

  /** Head of queue[prio] (the next to run at that level), or null. */
  O1Entity head(int prio) {
    return head[prio];
  }

  /** Tail of queue[prio] (the most recently queued), or null. */
  O1Entity tail(int prio) {
    return tail[prio];
  }

  /** True if bit {@code prio} of the bitmap is set (0..140). */
  boolean bit(int prio) {
    return (bitmap[prio >>> 6] & (1L << (prio & 63))) != 0;
  }

  /** Appends every queued entity, best priority first, FIFO within a level. For checks. */
  void addTo(List<O1Entity> out) {
    for (int p = findFirstBit(); p < MAX_PRIO; p = findNextBit(p + 1)) {
      for (O1Entity e = head[p]; e != null; e = e.next) {
        out.add(e);
      }
    }
  }

  /** Checks invariants 1-2 of docs/scheduler-invariants.md for this array; returns nr_active. */
  int check(String name) {
    int total = 0;
    for (int p = 0; p < MAX_PRIO; p++) {
      int len = 0;
      O1Entity last = null;
      for (O1Entity e = head[p]; e != null; e = e.next) {
        if (e.array != this || e.prio != p || e.prev != last) {
          throw new IllegalStateException(name + ": " + e + " misplaced in queue " + p);
        }
        last = e;
        len++;
      }
      if (last != tail[p]) {
        throw new IllegalStateException(name + ": queue " + p + " tail is not its last node");
      }
      if (bit(p) != (len > 0)) {
        throw new IllegalStateException(name + ": bit " + p + " disagrees with queue length " + len);
      }
      total += len;
    }
    if (!bit(MAX_PRIO)) {
      throw new IllegalStateException(name + ": delimiter bit 140 cleared");
    }
    for (int p = MAX_PRIO + 1; p < BITMAP_WORDS * 64; p++) {
      if (bit(p)) {
        throw new IllegalStateException(name + ": bit " + p + " beyond the delimiter set");
      }
    }
    if (total != nrActive) {
      throw new IllegalStateException(name + ": nr_active " + nrActive + " but " + total + " queued");
    }
    return total;
  }
}
