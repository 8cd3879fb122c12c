package dev.kernellab.paths;

/**
 * The per-operation costs that the catalog's path lengths are built from, for an ~800 MHz
 * Pentium III of 2002 (the machine of {@code CostTable.pentium3At800MHz()}).
 *
 * <p>Each constant says where it comes from: an lmbench figure (A. Marathe, "[BENCHMARK] 2.5.62
 * Lmbench performance", 790 MHz, LKML 21 Feb 2003; docs/hardware-and-costs.md, lmbench costs),
 * a per-site figure published on LKML (named where used), a datasheet, or an assumption said
 * out loud. Nothing here is derived from the headline latencies of the 2002 reports, which the
 * model must predict.
 */
public final class Calibration {

  private Calibration() {}

  /** lmbench memory latency, ~175 ns: one cache miss to DRAM. */
  public static final long MEMORY_MISS_NS = 175;

  /** lmbench L2 latency, 8.9 ns. */
  public static final long L2_HIT_NS = 9;

  /** lmbench null system call, 0.44-0.46 us. */
  public static final long NULL_SYSCALL_NS = 450;

  /** lmbench page fault, ~4 us: fault entry, page allocation, pte set-up. */
  public static final long PAGE_FAULT_NS = 4_000;

  /** lmbench pipe latency, 8.1-8.6 us per round trip (two switches, two reads, two writes). */
  public static final long PIPE_ROUND_TRIP_NS = 8_400;

  /**
   * Copying one 4 KiB page between user and kernel space (copy_to_user / copy_from_user of an
   * uncached page). Assumption: ~400 MB/s memcpy bandwidth on a PC133 PIII-800, 10 us a page;
   * the lmbench run above has no bandwidth figure.
   */
  public static final long COPY_PAGE_NS = 10_000;

  /**
   * Tearing down one present pte (zap_pte_range: ptep_get_and_clear, the struct page's count
   * and flags, free_page_and_swap_cache). Assumption: ~1.7 DRAM misses at 175 ns, 300 ns.
   * Cross-check against the one per-site figure (Love, LKML 20 Jul 2002: zap_page_range held
   * page_table_lock 10-20 ms on a dual Athlon): 33,000-66,000 pages, a 130-260 MB process.
   */
  public static final long PTE_TEARDOWN_NS = 300;

  /**
   * Copying one present pte at fork (copy_page_range: wrprotect, get_page, set_pte).
   * Derived from lmbench fork 260-335 us: with the fixed part of do_fork taken as 150 us
   * (assumption) and lmbench's child mapping ~500 pages (assumption: binary + libc), 300 ns a
   * pte gives 150 + 500 x 0.3 = 300 us, inside the measured range.
   */
  public static final long PTE_COPY_NS = 300;

  /** The part of do_fork that does not scale with the address space; see {@link #PTE_COPY_NS}. */
  public static final long FORK_FIXED_NS = 150_000;

  /**
   * Testing one pte without freeing anything (statm_pte_range, swap_out_pmd's scan of a
   * young page): one L2-missing pte line every 8 ptes plus the struct page read. Assumption:
   * 60 ns a pte for statm, {@link #MEMORY_MISS_NS} for swap_out, which reads page flags.
   */
  public static final long PTE_TEST_NS = 60;

  /**
   * One ISA port access (CMOS_READ of the RTC, the PIT latch) on the default machine:
   * CostTable.ISA_PORT_NS, 0.75 us (docs/hardware-and-costs.md, Port I/O). Paths that run on a
   * machine charge that machine's CostTable.isaPortNs; this is for the catalog's listing.
   */
  public static final long ISA_PORT_NS = dev.kernellab.hw.CostTable.ISA_PORT_NS;

  /**
   * Visiting one list entry under a lock without touching its data (a buffer head or page that
   * is skipped): one DRAM miss on the list link. Assumption: {@link #MEMORY_MISS_NS}.
   */
  public static final long LIST_VISIT_NS = MEMORY_MISS_NS;
}
