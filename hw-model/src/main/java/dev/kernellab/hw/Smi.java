package dev.kernellab.hw;

/**
 * A periodic System Management Interrupt: every {@code periodNs} the chipset pulls SMI# and
 * every CPU leaves the operating system for the BIOS's System Management Mode for
 * {@code lengthNs}, running nothing the OS can see and taking no interrupt (Intel SDM vol. 3,
 * System Management Mode: SMI is not masked by IF, and SMM is left only by RSM). Firmware of
 * the era used it for power management, legacy USB keyboard emulation and thermal events; how
 * often and how long is the board's, never measured for the machines of the model: both are
 * assumptions the user states.
 *
 * @param periodNs time between two SMIs
 * @param lengthNs time in SMM each time
 */
public record Smi(long periodNs, long lengthNs) {

  /** Validates: a stretch shorter than its period. */
  public Smi {
    if (lengthNs <= 0 || periodNs <= lengthNs) {
      throw new IllegalArgumentException(
          "an SMI needs 0 < length < period, got period " + periodNs + " ns, length " + lengthNs + " ns");
    }
  }
}
