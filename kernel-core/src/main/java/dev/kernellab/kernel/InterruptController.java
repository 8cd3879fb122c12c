package dev.kernellab.kernel;

import dev.kernellab.hw.IoApic;
import dev.kernellab.hw.Machine;
import dev.kernellab.hw.Models;
import dev.kernellab.hw.Vectors;

/**
 * The interrupt controller's part of {@code do_IRQ}: {@code desc->handler->ack} before the
 * handler and {@code desc->handler->end} after it, as port I/O of the machine's cost table.
 *
 * <p>A uniprocessor kernel drives the two 8259A PICs (XT-PIC: the IO-APIC is used only by SMP
 * kernels and by UP ones built with CONFIG_X86_UP_IOAPIC, which distribution kernels of 2002
 * left off, an assumption); an SMP kernel acknowledges at the local APIC.
 */
final class InterruptController {

  /*
   * Implementation overview
   *
   * mask_and_ack_8259A (arch/i386/kernel/i8259.c 2.4.17), under i8259A_lock: a dummy read of
   * the IMR, the IMR written with the line masked, a specific EOI; a line of the slave PIC
   * (8-15) also sends the cascade's EOI to the master: 3 ISA accesses for IRQ 0-7, 4 for 8-15.
   * end_8259A_irq -> enable_8259A_irq writes the IMR back: 1 access. The APIC path
   * (ack_edge_ioapic_irq, io_apic.c; the system vectors' ack_APIC_irq) is one EOI write to the
   * local APIC; its end does nothing for an edge. Level-triggered IO-APIC lines (mask at the
   * IO-APIC, unmask at the end) are taken as edges here: a simplification.
   */

  /** ISA accesses of mask_and_ack_8259A for a master line (0-7). */
  static final int ACK_MASTER_PORTS = 3;
  /** ISA accesses of mask_and_ack_8259A for a slave line (8-15): the cascade EOI too. */
  static final int ACK_SLAVE_PORTS = 4;
  /** ISA accesses of enable_8259A_irq. */
  static final int END_PORTS = 1;

  private final boolean i8259; // true: the PICs acknowledge device lines
  private final int[] irqOf = new int[Vectors.COUNT]; // the line of each device vector, -1 none
  private final KernelPath[] ack = new KernelPath[2]; // master, slave
  private final KernelPath end;
  // taken by every hard interrupt's acknowledgement: raw where spinlocks sleep, as mainline's
  // DEFINE_RAW_SPINLOCK(i8259A_lock) in arch/x86/kernel/i8259.c (6.12)
  private final SpinLock i8259aLock = SpinLock.raw("i8259A_lock");

  InterruptController(Machine m) {
    i8259 = m.cpuCount() == 1;
    IoApic io = m.ioApic();
    java.util.Arrays.fill(irqOf, -1);
    for (int irq = 0; irq < IoApic.PINS; irq++) {
      irqOf[io.vectorOf(irq)] = irq;
    }
    ack[0] = maskAndAck(ACK_MASTER_PORTS);
    ack[1] = maskAndAck(ACK_SLAVE_PORTS);
    end = KernelPath.path("arch/i386/kernel/i8259.c", "enable_8259A_irq")
        .spinLockIrqSave(i8259aLock)
        .compute("outb(cached_irq_mask)", c -> END_PORTS * c.kernel().costs().isaPortNs())
        .spinUnlockIrqRestore(i8259aLock)
        .build();
  }

  @Models(file = "arch/i386/kernel/i8259.c", function = "mask_and_ack_8259A", version = "2.4.17")
  private KernelPath maskAndAck(int ports) {
    return KernelPath.path("arch/i386/kernel/i8259.c", "mask_and_ack_8259A")
        .spinLockIrqSave(i8259aLock)
        .compute("inb(IMR); outb(IMR); outb(EOI)" + (ports == ACK_SLAVE_PORTS ? "; outb(cascade EOI)" : ""),
            c -> ports * c.kernel().costs().isaPortNs())
        .spinUnlockIrqRestore(i8259aLock)
        .build();
  }

  /** The 8259A's acknowledge path for {@code vector}, or null where the local APIC acks. */
  KernelPath ackPath(int vector) {
    int irq = irqOf[vector];
    if (!i8259 || irq < 0) {
      return null;
    }
    return ack[irq < 8 ? 0 : 1];
  }

  /** The 8259A's end path for {@code vector}, or null where there is none (APIC, edge). */
  KernelPath endPath(int vector) {
    return i8259 && irqOf[vector] >= 0 ? end : null;
  }
}
