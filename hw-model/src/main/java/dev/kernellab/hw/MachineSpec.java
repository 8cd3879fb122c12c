package dev.kernellab.hw;

import java.util.Objects;
import java.util.Optional;

/**
 * What machine to build: CPU count and clock, memory, costs, interrupt routing, and the IDE
 * disk.
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
 * @param memoryBytes RAM; the kernel's page cache lives in what the kernel and the processes
 *     leave of it
 * @param smi the firmware's periodic System Management Interrupt, if it has one (none by default)
 */
public record MachineSpec(
    int cpus, long cpuHz, CostTable costs, IrqRouting routing, DiskSpec disk, long memoryBytes,
    Optional<Smi> smi) {

  /** A 2002 desktop's RAM: 256 MB (assumption: the common size of that year's PCs). */
  public static final long DEFAULT_MEMORY_BYTES = 256L << 20;

  /** The smallest machine the page-cache model accepts: 16 MB. */
  public static final long MIN_MEMORY_BYTES = 16L << 20;

  /** NR_CPUS on i386 in 2.4 (include/linux/threads.h). */
  public static final int MAX_CPUS = 32;

  /** Validates the machine. */
  public MachineSpec {
    checkCpus(cpus);
    if (cpuHz <= 0) {
      throw new IllegalArgumentException("CPU clock must be > 0 Hz, got " + cpuHz);
    }
    Objects.requireNonNull(costs, "costs");
    Objects.requireNonNull(routing, "routing");
    Objects.requireNonNull(disk, "disk");
    Objects.requireNonNull(smi, "smi");
    if (memoryBytes < MIN_MEMORY_BYTES) {
      throw new IllegalArgumentException(
          "a machine needs at least " + (MIN_MEMORY_BYTES >> 20) + " MB of memory, got " + memoryBytes + " bytes");
    }
  }

  /**
   * The rule for a machine's CPU count, 1..{@value #MAX_CPUS}; returns {@code cpus}.
   *
   * @throws IllegalArgumentException if {@code cpus} is out of range
   */
  public static int checkCpus(int cpus) {
    if (cpus < 1 || cpus > MAX_CPUS) {
      throw new IllegalArgumentException("a machine has 1.." + MAX_CPUS + " CPUs, got " + cpus);
    }
    return cpus;
  }

  /** The 6-argument form: no SMI. */
  public MachineSpec(int cpus, long cpuHz, CostTable costs, IrqRouting routing, DiskSpec disk, long memoryBytes) {
    this(cpus, cpuHz, costs, routing, disk, memoryBytes, Optional.empty());
  }

  /** The 5-argument form: the default memory size. */
  public MachineSpec(int cpus, long cpuHz, CostTable costs, IrqRouting routing, DiskSpec disk) {
    this(cpus, cpuHz, costs, routing, disk, DEFAULT_MEMORY_BYTES);
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
    return new MachineSpec(n, cpuHz, costs, routing, disk, memoryBytes, smi);
  }

  /** The same machine with other costs. */
  public MachineSpec withCosts(CostTable c) {
    return new MachineSpec(cpus, cpuHz, c, routing, disk, memoryBytes, smi);
  }

  /** The same machine with another interrupt routing. */
  public MachineSpec withRouting(IrqRouting r) {
    return new MachineSpec(cpus, cpuHz, costs, r, disk, memoryBytes, smi);
  }

  /** The same machine with {@code bytes} of memory. */
  public MachineSpec withMemory(long bytes) {
    return new MachineSpec(cpus, cpuHz, costs, routing, disk, bytes, smi);
  }

  /** The same machine with another disk. */
  public MachineSpec withDisk(DiskSpec d) {
    return new MachineSpec(cpus, cpuHz, costs, routing, d, memoryBytes, smi);
  }

  /** The same machine whose firmware raises {@code s} (or none). */
  public MachineSpec withSmi(Optional<Smi> s) {
    return new MachineSpec(cpus, cpuHz, costs, routing, disk, memoryBytes, s);
  }
}
