package dev.kernellab.hw;

import java.util.Objects;

/**
 * What machine to build: CPU count and clock, costs, interrupt routing, and the IDE disk.
 *
 * <pre>{@code
 * MachineSpec up = MachineSpec.uniprocessor();                 // 800 MHz PIII, 1 CPU
 * MachineSpec smp = up.withCpus(2).withRouting(IrqRouting.ROUND_ROBIN);
 * Machine m = new Machine(smp, new Simulation(seed));
 * }</pre>
 *
 * @param cpus number of CPUs, 1..{@value #MAX_CPUS} (2.4's NR_CPUS on i386)
 * @param cpuHz core clock in Hz (used for TSC readings)
 * @param costs the fixed costs of this hardware
 * @param routing I/O APIC delivery policy for external interrupts
 * @param disk the IDE disk on IRQ 14
 */
public record MachineSpec(
    int cpus, long cpuHz, CostTable costs, IrqRouting routing, DiskSpec disk) {

  /** NR_CPUS on i386 in 2.4 (include/linux/threads.h). */
  public static final int MAX_CPUS = 32;

  /** Validates the machine. */
  public MachineSpec {
    if (cpus < 1 || cpus > MAX_CPUS) {
      throw new IllegalArgumentException(
          "a machine has 1.." + MAX_CPUS + " CPUs, got " + cpus);
    }
    if (cpuHz <= 0) {
      throw new IllegalArgumentException("CPU clock must be > 0 Hz, got " + cpuHz);
    }
    Objects.requireNonNull(costs, "costs");
    Objects.requireNonNull(routing, "routing");
    Objects.requireNonNull(disk, "disk");
  }

  /**
   * One 800 MHz Pentium III with the default costs, everything routed to CPU 0, and a 7200 rpm
   * ATA disk doing DMA.
   */
  public static MachineSpec uniprocessor() {
    return new MachineSpec(
        1, 800_000_000L, CostTable.pentium3At800MHz(), IrqRouting.ALL_TO_CPU0,
        DiskSpec.ata7200rpm());
  }

  /** The same machine with {@code n} CPUs. */
  public MachineSpec withCpus(int n) {
    return new MachineSpec(n, cpuHz, costs, routing, disk);
  }

  /** The same machine with other costs. */
  public MachineSpec withCosts(CostTable c) {
    return new MachineSpec(cpus, cpuHz, c, routing, disk);
  }

  /** The same machine with another interrupt routing. */
  public MachineSpec withRouting(IrqRouting r) {
    return new MachineSpec(cpus, cpuHz, costs, r, disk);
  }

  /** The same machine with another disk. */
  public MachineSpec withDisk(DiskSpec d) {
    return new MachineSpec(cpus, cpuHz, costs, routing, d);
  }
}
