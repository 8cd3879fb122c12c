package dev.kernellab.paths.mm;

import static dev.kernellab.paths.Calibration.PTE_TEST_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models mm/swapfile.c (2.4.17): {@code try_to_unuse()} (swapoff), with its vanilla
 * need_resched test per swap entry; {@code si_swapinfo()} (read of /proc/meminfo), which walks
 * the swap_map slots of an area under {@code swaplock} only while that area is being swapped
 * off ({@code flags == SWP_USED}: not yet SWP_WRITEOK again); and {@code get_swaparea_info()}
 * (read of /proc/swaps), which walks the whole swap_map of every area with no lock held.
 */
@Models(file = "mm/swapfile.c", function = "try_to_unuse", version = "2.4.17")
@Models(file = "mm/swapfile.c", function = "si_swapinfo", version = "2.4.17")
@Models(file = "mm/swapfile.c", function = "get_swaparea_info", version = "2.4.17")
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
  /** try_to_unuse's unuse_process() of every task for one entry, tasklist_lock read-held. */
  public static final Site UNUSE_PROCESS = new Site("mm/swapfile.c", "try_to_unuse", "unuse_process");
  /** si_swapinfo's walk of the swap_map of an area being swapped off, swaplock held. */
  public static final Site SI_SWAPINFO = new Site("mm/swapfile.c", "si_swapinfo", "si_swapinfo");
  /** get_swaparea_info's walk of every swap_map slot, no lock. */
  public static final Site GET_SWAPAREA_INFO =
      new Site("mm/swapfile.c", "get_swaparea_info", "get_swaparea_info");
  /** si_swapinfo's pass over the swap_info[] areas when none is being swapped off: 0.2 us. */
  public static final long SI_SWAPINFO_AREAS_NS = 200;

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
  /** si_swapinfo, from the /proc/meminfo read, no swapoff running. */
  public final KernelPath siSwapinfo;
  /** si_swapinfo while an area is being swapped off: its whole swap_map under swaplock. */
  public final KernelPath siSwapinfoDuringSwapoff;
  /** get_swaparea_info, the read of /proc/swaps. */
  public final KernelPath getSwapareaInfo;

  /** Builds the paths for one kernel. */
  public Swapfile(Locks l) {
    tryToUnuse =
        KernelPath.path("mm/swapfile.c", "try_to_unuse")
            .loop(TRY_TO_UNUSE, SWAP_ENTRIES, e -> e
                .condResched()
                .readLock(l.tasklistLock)
                .loop(UNUSE_PROCESS, PROCESSES, p -> p
                    .spinLock(l.pageTableLock)
                    .compute(UNUSE_PROCESS_NS)
                    .spinUnlock(l.pageTableLock))
                .readUnlock(l.tasklistLock))
            .build();
    siSwapinfo =
        KernelPath.path("mm/swapfile.c", "si_swapinfo")
            .spinLock(l.swapLock)
            .compute(SI_SWAPINFO_AREAS_NS)
            .spinUnlock(l.swapLock)
            .build();
    siSwapinfoDuringSwapoff =
        KernelPath.path("mm/swapfile.c", "si_swapinfo")
            .spinLock(l.swapLock)
            .loop(SI_SWAPINFO, SWAP_MAP_STEPS, s -> s.compute(SWAP_MAP_STEP_NS))
            .spinUnlock(l.swapLock)
            .build();
    getSwapareaInfo =
        KernelPath.path("mm/swapfile.c", "get_swaparea_info")
            .loop(GET_SWAPAREA_INFO, SWAP_MAP_STEPS, s -> s.compute(SWAP_MAP_STEP_NS))
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
            SI_SWAPINFO_AREAS_NS, SI_SWAPINFO_AREAS_NS,
            "fixed: one pass over swap_info[]; the swap_map walk is only for an area in swapoff",
            "0.2 us (assumption): a few areas, a few cache lines each"),
        new CatalogEntry(
            "si_swapinfo during swapoff", siSwapinfoDuringSwapoff, List.of("swaplock"),
            SWAP_MAP_STEPS * SWAP_MAP_STEP_NS, SWAP_MAP_STEPS * SWAP_MAP_STEP_NS,
            "a /proc/meminfo read while swapoff runs walks the area's whole 256 MB swap map",
            "300 ns per 64 slots (assumption); swap size an assumption"),
        new CatalogEntry(
            "get_swaparea_info (/proc/swaps)", getSwapareaInfo, List.of(),
            SWAP_MAP_STEPS * SWAP_MAP_STEP_NS, SWAP_MAP_STEPS * SWAP_MAP_STEP_NS,
            "fixed: every read of /proc/swaps counts the used slots of the whole map, no lock",
            "300 ns per 64 slots (assumption); swap size an assumption"));
  }
}
