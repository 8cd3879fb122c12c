package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.PTE_TEST_NS;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models mm/swapfile.c (2.4.17): {@code try_to_unuse()} (swapoff), with its vanilla
 * need_resched test per swap entry, and {@code si_swapinfo()} (read of /proc/meminfo), which
 * walks every swap_map slot with {@code swaplock} held.
 */
public final class Swapfile {

  /*
   * Implementation overview
   *
   * try_to_unuse, for each used swap entry, reads the page back and then walks every process's
   * page tables (unuse_process, page_table_lock held per process) under read_lock(tasklist_lock)
   * to replace the swap pte: quadratic, which is why swapoff was slow. The per-process walk is
   * one lump here (no patch breaks it; a drawn length instead of one op per pte keeps the event
   * count sane). si_swapinfo scans swap_map in 64-slot steps (one step = two cache lines of
   * unsigned shorts).
   */

  /** try_to_unuse's loop over swap entries (vanilla reschedule point). */
  public static final Site TRY_TO_UNUSE = new Site("mm/swapfile.c", "try_to_unuse", "try_to_unuse");
  /** si_swapinfo's walk of swap_map, swaplock held. */
  public static final Site SI_SWAPINFO = new Site("mm/swapfile.c", "si_swapinfo", "si_swapinfo");

  /** Processes on the machine: assumption, 60. */
  public static final long PROCESSES = 60;
  /** unuse_process of one mm: 600 ptes tested at {@code PTE_TEST_NS}, log-normal like mm sizes. */
  public static final Distribution UNUSE_PROCESS_NS = Distribution.logNormal(600 * PTE_TEST_NS, 1.2);
  /** Swap entries in use at swapoff: assumption, ~10 MB swapped, 2,500 entries. */
  public static final Distribution SWAP_ENTRIES = Distribution.logNormal(2_500, 1.0);
  /** 64-slot steps of a 256 MB swap partition: 65,536 slots. */
  public static final long SWAP_MAP_STEPS = 65_536 / 64;
  /** One 64-slot step of swap_map: sequential, L2-prefetched: assumption, 300 ns. */
  public static final long SWAP_MAP_STEP_NS = 300;

  /** sys_swapoff's try_to_unuse. */
  public final KernelPath tryToUnuse;
  /** si_swapinfo, from the /proc/meminfo read. */
  public final KernelPath siSwapinfo;

  /** Builds the paths for one kernel. */
  public Swapfile(Locks l) {
    tryToUnuse =
        KernelPath.path("mm/swapfile.c", "try_to_unuse")
            .loop(TRY_TO_UNUSE.label(), SWAP_ENTRIES, e -> e
                .condResched()
                .readLock(l.tasklistLock)
                .loop("unuse_process", PROCESSES, p -> p
                    .spinLock(l.pageTableLock)
                    .compute(UNUSE_PROCESS_NS)
                    .spinUnlock(l.pageTableLock))
                .readUnlock(l.tasklistLock))
            .build();
    siSwapinfo =
        KernelPath.path("mm/swapfile.c", "si_swapinfo")
            .spinLock(l.swapLock)
            .loop(SI_SWAPINFO.label(), SWAP_MAP_STEPS, s -> s.compute(SWAP_MAP_STEP_NS))
            .spinUnlock(l.swapLock)
            .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    long perEntry = PROCESSES * Quantiles.typical(UNUSE_PROCESS_NS);
    return List.of(
        new CatalogEntry(
            "sys_swapoff", tryToUnuse, List.of("tasklist_lock (read)", "page_table_lock"),
            Quantiles.typical(SWAP_ENTRIES) * perEntry, Quantiles.tail(SWAP_ENTRIES) * perEntry,
            "swapoff is rare (admin); each entry walks every mm (one lock hold per mm)",
            "60 ns/pte tested (assumption); 60 processes of 600 pages (assumption)"),
        new CatalogEntry(
            "si_swapinfo (/proc/meminfo)", siSwapinfo, List.of("swaplock"),
            SWAP_MAP_STEPS * SWAP_MAP_STEP_NS, SWAP_MAP_STEPS * SWAP_MAP_STEP_NS,
            "fixed: every read of /proc/meminfo walks the whole 256 MB swap map",
            "300 ns per 64 slots (assumption); swap size an assumption"));
  }
}
