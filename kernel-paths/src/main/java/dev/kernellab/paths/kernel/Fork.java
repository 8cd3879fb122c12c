package dev.kernellab.paths.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import java.util.List;

/**
 * Models kernel/fork.c {@code do_fork()} (2.4.17): {@code copy_mm} / {@code dup_mmap} with
 * mm/memory.c {@code copy_page_range()} (see mm/Memory), then linking the child under
 * {@code write_lock_irq(&tasklist_lock)} and waking it.
 */
public final class Fork {

  /** SET_LINKS + hash_pid under write_lock_irq(tasklist_lock): assumption, 1 us. */
  public static final long SET_LINKS_NS = 1_000;

  private final Locks locks;
  private final KernelPath dupMmap;
  private final CatalogEntry dupMmapEntry;

  /** Builds fork for one kernel around {@code dupMmap} (see mm/Memory). */
  public Fork(Locks l, KernelPath dupMmap, CatalogEntry dupMmapEntry) {
    this.locks = l;
    this.dupMmap = dupMmap;
    this.dupMmapEntry = dupMmapEntry;
  }

  /** fork(2) of a child named {@code comm} that runs {@code child}. */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  public KernelPath sysFork(String comm, KernelPath child) {
    return KernelPath.path("kernel/fork.c", "do_fork")
        .call(dupMmap)
        .localIrqDisable()
        .writeLock(locks.tasklistLock)
        .compute(SET_LINKS_NS)
        .writeUnlock(locks.tasklistLock)
        .localIrqEnable()
        .fork(comm, child)
        .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries(KernelPath sampleChild) {
    return List.of(
        new CatalogEntry(
            "sys_fork", sysFork("child", sampleChild),
            List.of("page_table_lock", "tasklist_lock (irq)"),
            dupMmapEntry.typicalNs() + SET_LINKS_NS, dupMmapEntry.tailNs() + SET_LINKS_NS,
            dupMmapEntry.tail(), dupMmapEntry.source()));
  }
}
