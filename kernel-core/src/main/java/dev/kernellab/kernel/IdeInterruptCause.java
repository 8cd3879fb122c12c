package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.LatencyCause;
import java.util.Locale;

/**
 * The IDE disk's interrupt as the cause of a latency: {@code ide_intr} and its handler
 * completing buffer heads ({@code ide_end_request}, one {@code b_end_io} each) and, in PIO,
 * copying a DRQ block through the data port, with interrupts off unless {@code hdparm -u1}
 * (2.4.17 drivers/ide/ide.c, ide-dma.c, ide-disk.c). The anatomy reports it for the time the
 * CPU spent in {@code ide_intr} and what it called; {@link LatencyCause.Hold#iterations()} is
 * the buffer heads the interrupt completed.
 *
 * @param handler the handler {@code ide_intr} called ({@code ide_dma_intr}, {@code read_intr}...)
 * @param dma whether the drive did DMA
 * @param unmaskIrq {@code hdparm -u1}: interrupts were turned on for the handler
 * @param multcount sectors per PIO block (0: one)
 */
public record IdeInterruptCause(String handler, boolean dma, boolean unmaskIrq, int multcount)
    implements LatencyCause {

  @Override
  public String describe(LatencyCause.Hold h) {
    String mode = dma ? handler
        : handler + ", PIO " + (multcount == 0 ? "a sector" : multcount + " sectors") + " an interrupt";
    String heads = h.iterations() == 1 ? "1 buffer head" : h.iterations() + " buffer heads";
    return String.format(Locale.ROOT, "ide0 interrupt (%s): %s completed, %s %.1f us", mode, heads,
        unmaskIrq ? "interrupts on (unmaskirq 1)," : "interrupts off", h.ns() / 1000.0);
  }
}
