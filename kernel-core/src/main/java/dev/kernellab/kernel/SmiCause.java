package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.LatencyCause;
import java.util.Locale;

/**
 * A System Management Interrupt as the cause of a latency: the CPU was in the BIOS's System
 * Management Mode, running nothing the kernel can see, with no interrupt taken, for the
 * length the machine's firmware was given (hw-model {@code Smi}, an assumption of the user's).
 *
 * @param periodNs time between SMIs
 * @param lengthNs time in SMM each time
 */
public record SmiCause(long periodNs, long lengthNs) implements LatencyCause {

  @Override
  public String describe(LatencyCause.Hold h) {
    return String.format(Locale.ROOT, "SMI: the CPU in System Management Mode (firmware, invisible to the kernel)"
        + " %.1f us, one every %.1f ms (assumed)", h.ns() / 1000.0, periodNs / 1e6);
  }
}
