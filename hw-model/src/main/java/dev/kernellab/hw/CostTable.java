package dev.kernellab.hw;

/**
 * The machine's fixed costs, in nanoseconds: what entering an interrupt, switching a context or
 * crossing into the kernel costs on this hardware.
 *
 * <p>The kernel charges these as CPU time on the paths that incur them, counting the port
 * accesses its code makes; the hardware model itself only uses {@link #ipiDeliveryNs}. Schedulers derive their own bookkeeping costs from
 * the memory latencies ({@link #l1HitNs}, {@link #l2HitNs}, {@link #memoryNs}) so that the
 * machine knows nothing of any particular kernel.
 *
 * <pre>{@code
 * CostTable costs = CostTable.pentium3At800MHz();   // defaults of a 2002 desktop
 * CostTable none = CostTable.zero();                // hand-checkable scenarios
 * }</pre>
 *
 * @param irqEntryNs hardware vectoring and {@code SAVE_ALL}; the controller's acknowledge is port
 *     I/O the kernel times with {@link #isaPortNs} (8259A) or {@link #apicAckNs} (APIC)
 * @param irqExitNs {@code RESTORE_ALL} and {@code iret}
 * @param contextSwitchNs {@code switch_to} plus the mm switch of a small process
 * @param ipiDeliveryNs from {@code send_IPI} on one CPU to the vector pending on another
 * @param syscallEntryNs {@code int 0x80} entry and {@code SAVE_ALL}
 * @param syscallExitNs {@code ret_from_sys_call} to user mode
 * @param tscReadNs one {@code rdtsc}
 * @param pitReadNs latching and reading the i8254 counter as {@code timer_interrupt} does
 * @param l1HitNs load latency, L1 hit
 * @param l2HitNs load latency, L2 hit
 * @param memoryNs load latency, main memory
 * @param isaPortNs one {@code inb}/{@code outb} to a device on the ISA side of the south bridge
 *     (the 8259A PICs, the i8254 PIT, the MC146818 CMOS/RTC, the POST port 0x80 that
 *     {@code outb_p}'s slow-down writes)
 * @param ideRegisterNs one access to an IDE taskfile register or a bus-master IDE register of
 *     the PCI IDE function
 * @param apicAckNs the local APIC EOI write that acknowledges an interrupt delivered through
 *     the IO-APIC
 * @param cacheRefillNs the cache and TLB refill a task pays after it is switched in, before it
 *     is back at full speed: its working set reloaded from memory
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
    long memoryNs,
    long isaPortNs,
    long ideRegisterNs,
    long apicAckNs,
    long cacheRefillNs) {

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
    requireNonNegative("isaPortNs", isaPortNs);
    requireNonNegative("ideRegisterNs", ideRegisterNs);
    requireNonNegative("apicAckNs", apicAckNs);
    requireNonNegative("cacheRefillNs", cacheRefillNs);
  }

  /**
   * The costs of the CPU, the caches and the APIC alone: every device-access cost
   * ({@link #isaPortNs}, {@link #ideRegisterNs}, {@link #apicAckNs}) and the refill after a
   * switch ({@link #cacheRefillNs}) zero. For hand-built tables that time one mechanism.
   */
  public CostTable(
      long irqEntryNs, long irqExitNs, long contextSwitchNs, long ipiDeliveryNs, long syscallEntryNs,
      long syscallExitNs, long tscReadNs, long pitReadNs, long l1HitNs, long l2HitNs, long memoryNs) {
    this(irqEntryNs, irqExitNs, contextSwitchNs, ipiDeliveryNs, syscallEntryNs, syscallExitNs, tscReadNs,
        pitReadNs, l1HitNs, l2HitNs, memoryNs, 0, 0, 0, 0);
  }

  private static void requireNonNegative(String name, long v) {
    if (v < 0) {
      throw new IllegalArgumentException("cost " + name + " must be >= 0 ns, got " + v);
    }
  }

  /** Every cost zero: the machine of the hand-worked scenarios (docs/golden-scenarios.md). */
  public static CostTable zero() {
    return new CostTable(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /**
   * One ISA I/O cycle through the south bridge: an 8-bit ISA I/O cycle is 6 bus clocks at
   * 8.33 MHz (4 wait states, the ISA bus timing that the PIIX4 and VIA south bridges keep for
   * their legacy 8259A, 8254 and MC146818 blocks), 0.72 us; with the PCI-to-ISA forwarding,
   * 0.75 us. Derived from the bus timing, not measured on a machine of the era (the 0.5-1 us
   * figure it is checked against is recalled; docs/hardware-and-costs.md, Port I/O).
   */
  public static final long ISA_PORT_NS = 750;

  /**
   * A ~800 MHz Pentium III desktop of 2002 (the UP kernel drives its 8259A PICs; an SMP one,
   * the IO-APIC).
   *
   * <p>Sources (summarised in docs/hardware-and-costs.md): lmbench on a 790 MHz machine under
   * 2.5.62 (A. Marathe, "[BENCHMARK] 2.5.62 Lmbench performance", LKML 21 Feb 2003) for the
   * null syscall (0.44-0.46 us), the 2-process 0 KB context switch (1.30-1.50 us), the
   * L1/L2/memory latencies (3.8 / 8.9 / ~175 ns); the 8-process 64 KB switch (178-182 us) from
   * the same machine under 2.5.53 (A. Marathe, "[BENCHMARK] Lmbench results for 2.5.53", LKML
   * 26 Dec 2002).
   * Interrupt entry and exit without the controller's acknowledge: an estimate, not measured.
   * IPI delivery: 1-3 us, an estimate. Port I/O: {@link #ISA_PORT_NS}; IDE registers and the
   * APIC: estimates said out loud per entry. TSC read: ~33 cycles at 800 MHz, an assumption.
   */
  public static CostTable pentium3At800MHz() {
    return new CostTable(
        700, // irqEntryNs: vectoring through the IDT + SAVE_ALL + do_IRQ's descriptor lock, ~560
             // cycles: estimate (the 1-2 us APIC estimate of entry and exit, less the ack)
        500, // irqExitNs: RESTORE_ALL + iret: estimate, rest of the same 1-2 us
        1_400, // contextSwitchNs: lmbench lat_ctx 2p/0K, 1.30-1.50 us
        1_500, // ipiDeliveryNs: 1-3 us estimate, low half (same package, shared bus)
        250, // syscallEntryNs: half of the 0.45 us lmbench null syscall, entry side
        200, // syscallExitNs: the other half
        40, // tscReadNs: rdtsc ~33 cycles, assumption
        5 * ISA_PORT_NS, // pitReadNs: timer_interrupt's latch: outb_p(0x00, 0x43) and inb_p(0x40)
                         // (each with its outb to port 0x80) and inb(0x40): 5 ISA accesses
                         // (2.4.17 arch/i386/kernel/time.c timer_interrupt(), include/asm-i386/io.h)
        4, // l1HitNs: lmbench 3.8 ns
        9, // l2HitNs: lmbench 8.9 ns
        175, // memoryNs: lmbench ~175 ns
        ISA_PORT_NS, // isaPortNs: 6 ISA bus clocks at 8.33 MHz + forwarding, see ISA_PORT_NS
        600, // ideRegisterNs: a PCI I/O read to the IDE function plus the ATA register cycle
             // (PIO mode 4 cycle time 120 ns, ATA-2): ~0.6 us, an estimate
        100, // apicAckNs: one write to the local APIC's EOI register (on-chip, uncached): an
             // estimate of ~80 cycles
        5_600); // cacheRefillNs: lmbench lat_ctx 8p/64K ~180 us less 2p/0K 1.4 us is 2.8 us a
                // KB refilled from memory (8 x 64 KB overflow the 256 KB L2); times a 2 KB
                // working set on the way back to user mode (kernel stack, task_struct, user
                // stack top, the loop's code: 64 lines of 32 bytes), an assumption
  }
}
