package dev.kernellab.hw;

/**
 * The machine's fixed costs, in nanoseconds: what entering an interrupt, switching a context or
 * crossing into the kernel costs on this hardware.
 *
 * <p>The kernel charges these as CPU time on the paths that incur them; the hardware model
 * itself only uses {@link #ipiDeliveryNs}. Schedulers derive their own bookkeeping costs from
 * the memory latencies ({@link #l1HitNs}, {@link #l2HitNs}, {@link #memoryNs}) so that the
 * machine knows nothing of any particular kernel.
 *
 * <pre>{@code
 * CostTable costs = CostTable.pentium3At800MHz();   // defaults of a 2002 desktop
 * CostTable none = CostTable.zero();                // hand-checkable scenarios
 * }</pre>
 *
 * @param irqEntryNs hardware vectoring, {@code SAVE_ALL} and controller acknowledge
 * @param irqExitNs {@code RESTORE_ALL} and {@code iret}
 * @param contextSwitchNs {@code switch_to} plus the mm switch of a small process
 * @param ipiDeliveryNs from {@code send_IPI} on one CPU to the vector pending on another
 * @param syscallEntryNs {@code int 0x80} entry and {@code SAVE_ALL}
 * @param syscallExitNs {@code ret_from_sys_call} to user mode
 * @param tscReadNs one {@code rdtsc}
 * @param pitReadNs latching and reading the i8254 counter (three ISA port accesses)
 * @param l1HitNs load latency, L1 hit
 * @param l2HitNs load latency, L2 hit
 * @param memoryNs load latency, main memory
 */
public record CostTable(
    long irqEntryNs,
    long irqExitNs,
    long contextSwitchNs,
    long ipiDeliveryNs,
    long syscallEntryNs,
    long syscallExitNs,
    long tscReadNs,
    long pitReadNs,
    long l1HitNs,
    long l2HitNs,
    long memoryNs) {

  /** Validates that no cost is negative. */
  public CostTable {
    requireNonNegative("irqEntryNs", irqEntryNs);
    requireNonNegative("irqExitNs", irqExitNs);
    requireNonNegative("contextSwitchNs", contextSwitchNs);
    requireNonNegative("ipiDeliveryNs", ipiDeliveryNs);
    requireNonNegative("syscallEntryNs", syscallEntryNs);
    requireNonNegative("syscallExitNs", syscallExitNs);
    requireNonNegative("tscReadNs", tscReadNs);
    requireNonNegative("pitReadNs", pitReadNs);
    requireNonNegative("l1HitNs", l1HitNs);
    requireNonNegative("l2HitNs", l2HitNs);
    requireNonNegative("memoryNs", memoryNs);
  }

  private static void requireNonNegative(String name, long v) {
    if (v < 0) {
      throw new IllegalArgumentException("cost " + name + " must be >= 0 ns, got " + v);
    }
  }

  /** Every cost zero: the machine of the hand-worked scenarios (docs/golden-scenarios.md). */
  public static CostTable zero() {
    return new CostTable(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /**
   * A ~800 MHz Pentium III desktop of 2002 with local/IO-APIC.
   *
   * <p>Sources (summarised in docs/hardware-and-costs.md): lmbench on a 790 MHz machine under
   * 2.5.62 (A. Marathe, "[BENCHMARK] 2.5.62 Lmbench performance", LKML 21 Feb 2003) for the
   * null syscall (0.44-0.46 us), the 2-process 0 KB context switch (1.30-1.50 us) and the
   * L1/L2/memory latencies (3.8 / 8.9 / ~175 ns). Interrupt entry and exit: estimate of 1-2 us
   * total with an APIC (2-5 us with an 8259A), not measured. IPI delivery: 1-3 us, an estimate.
   * PIT read: three ISA port accesses (2.4.17 arch/i386/kernel/time.c do_slow_gettimeoffset():
   * the latch command and two reads of port 0x40) at ~0.5-1 us each, a recalled figure. TSC
   * read: ~33 cycles at 800 MHz, an assumption said out loud.
   */
  public static CostTable pentium3At800MHz() {
    return new CostTable(
        1_200, // irqEntryNs: vectoring + SAVE_ALL + APIC ack, within the 1-2 us APIC estimate
        500, // irqExitNs: RESTORE_ALL + iret, remainder of the same estimate
        1_400, // contextSwitchNs: lmbench lat_ctx 2p/0K, 1.30-1.50 us
        1_500, // ipiDeliveryNs: 1-3 us estimate, low half (same package, shared bus)
        250, // syscallEntryNs: half of the 0.45 us lmbench null syscall, entry side
        200, // syscallExitNs: the other half
        40, // tscReadNs: rdtsc ~33 cycles, assumption
        2_000, // pitReadNs: latch + two reads of port 0x40, ~0.5-1 us each
        4, // l1HitNs: lmbench 3.8 ns
        9, // l2HitNs: lmbench 8.9 ns
        175); // memoryNs: lmbench ~175 ns
  }
}
