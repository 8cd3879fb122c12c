package dev.kernellab.hw;

import java.util.Arrays;

/**
 * The I/O APIC: turns edges on ISA/PCI interrupt lines into vectors on a chosen CPU.
 *
 * <p>Models arch/i386/kernel/io_apic.c of 2.4.17: vectors are handed out by
 * {@code assign_irq_vector()} in steps of 8 from {@code FIRST_DEVICE_VECTOR}, skipping the
 * system-call vector, so that lines spread over priority classes; every line is edge-triggered
 * (ISA). Destination per {@link IrqRouting}, or pinned per line as with
 * {@code /proc/irq/N/smp_affinity}.
 *
 * <p>Each line remembers when it was last asserted: latency in KernelLab is counted from that
 * hardware instant, not from when a CPU got round to accepting the vector.
 */
public final class IoApic {

  /** Input pins of an 82093AA. */
  public static final int PINS = 24;

  private final Machine machine;
  private final IrqRouting routing;
  private final int[] vectorOf = new int[PINS];
  private final int[] pinnedCpu = new int[PINS];
  private final boolean[] pinned = new boolean[PINS];
  private final int[] nextCpu = new int[PINS];
  private final long[] lastAssertNs = new long[PINS];
  private final long[] asserts = new long[PINS];

  @Models(file = "arch/i386/kernel/io_apic.c", function = "assign_irq_vector", version = "2.4.17")
  IoApic(Machine machine, IrqRouting routing) {
    this.machine = machine;
    this.routing = routing;
    // assign_irq_vector(): current_vector += 8; wrap with an offset past FIRST_SYSTEM_VECTOR;
    // never SYSCALL_VECTOR.
    int current = Vectors.FIRST_DEVICE_VECTOR;
    int offset = 0;
    for (int irq = 0; irq < PINS; irq++) {
      vectorOf[irq] = current;
      current += 8;
      if (current == Vectors.SYSCALL_VECTOR) {
        current += 8;
      }
      if (current >= Vectors.FIRST_SYSTEM_VECTOR) {
        offset++;
        current = Vectors.FIRST_DEVICE_VECTOR + offset;
      }
    }
    Arrays.fill(lastAssertNs, Long.MIN_VALUE);
  }

  /** The vector a line is delivered as. */
  public int vectorOf(int irq) {
    checkIrq(irq);
    return vectorOf[irq];
  }

  /** True if {@code vector} is the vector of some line. */
  public boolean isDeviceVector(int vector) {
    for (int irq = 0; irq < PINS; irq++) {
      if (vectorOf[irq] == vector) {
        return true;
      }
    }
    return false;
  }

  /**
   * The line a device vector belongs to.
   *
   * @throws IllegalArgumentException if no line has that vector
   */
  public int irqOf(int vector) {
    for (int irq = 0; irq < PINS; irq++) {
      if (vectorOf[irq] == vector) {
        return irq;
      }
    }
    throw new IllegalArgumentException(
        "vector 0x" + Integer.toHexString(vector) + " belongs to no IO-APIC line");
  }

  /** Pins line {@code irq} to {@code cpu} whatever the routing policy. */
  public void setAffinity(int irq, int cpu) {
    checkIrq(irq);
    if (cpu < 0 || cpu >= machine.cpuCount()) {
      throw new IllegalArgumentException(
          "irq " + irq + ": no cpu" + cpu + " on a " + machine.cpuCount() + "-CPU machine");
    }
    pinned[irq] = true;
    pinnedCpu[irq] = cpu;
  }

  /** An edge on line {@code irq}: records the instant and raises its vector on one CPU. */
  public void assertLine(int irq) {
    checkIrq(irq);
    lastAssertNs[irq] = machine.simulation().now();
    asserts[irq]++;
    machine.cpu(destination(irq)).raise(vectorOf[irq]);
  }

  /** True if line {@code irq} has ever been asserted. */
  public boolean wasAsserted(int irq) {
    checkIrq(irq);
    return asserts[irq] > 0;
  }

  /**
   * When line {@code irq} was last asserted.
   *
   * @throws IllegalStateException if it never was
   */
  public long lastAssertNs(int irq) {
    if (!wasAsserted(irq)) {
      throw new IllegalStateException("irq " + irq + " was never asserted");
    }
    return lastAssertNs[irq];
  }

  /** Number of edges seen on line {@code irq}. */
  public long assertCount(int irq) {
    checkIrq(irq);
    return asserts[irq];
  }

  private int destination(int irq) {
    if (pinned[irq]) {
      return pinnedCpu[irq];
    }
    return switch (routing) {
      case ALL_TO_CPU0 -> 0;
      case ROUND_ROBIN -> {
        int c = nextCpu[irq];
        nextCpu[irq] = (c + 1) % machine.cpuCount();
        yield c;
      }
    };
  }

  private static void checkIrq(int irq) {
    if (irq < 0 || irq >= PINS) {
      throw new IllegalArgumentException("no IO-APIC pin " + irq + " (0.." + (PINS - 1) + ")");
    }
  }
}
