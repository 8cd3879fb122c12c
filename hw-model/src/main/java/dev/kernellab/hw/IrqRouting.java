package dev.kernellab.hw;

/**
 * How the I/O APIC chooses the CPU for an external interrupt.
 *
 * <p>2.4 programmed every IO-APIC entry for "lowest priority" delivery to all online CPUs, but
 * many chipsets of the time delivered nearly everything to CPU 0, which is what motivated Ingo
 * Molnar's irqbalance patch in 2002 (2.4.17 arch/i386/kernel/io_apic.c setup_IO_APIC_irqs();
 * docs/hardware-and-costs.md, Interrupt routing and IPIs). {@link #ALL_TO_CPU0} is therefore
 * the default; {@link #ROUND_ROBIN} approximates a chipset that honoured lowest-priority mode.
 */
@Models(file = "arch/i386/kernel/io_apic.c", function = "setup_IO_APIC_irqs", version = "2.4.17")
public enum IrqRouting {
  /** Every external interrupt goes to CPU 0 (the common 2.4 chipset behaviour). */
  ALL_TO_CPU0,
  /** Successive interrupts of each line rotate over the online CPUs. */
  ROUND_ROBIN
}
