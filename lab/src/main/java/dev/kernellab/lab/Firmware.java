package dev.kernellab.lab;

import dev.kernellab.hw.Smi;
import java.util.Optional;

/**
 * The machine's firmware as a run may have it, both off by default and both with assumed
 * lengths: APM ({@code --apm}: the kernel's {@code kapmd} makes a BIOS call with interrupts off
 * once a second, kernel-paths' {@code Apm}) and a periodic SMI ({@code --smi PERIOD:LENGTH}, e.g.
 * {@code 1s:200us}: every CPU in System Management Mode for LENGTH every PERIOD, hw-model's
 * {@link Smi}).
 *
 * @param apm whether kapmd runs
 * @param smi the periodic SMI, if any
 */
public record Firmware(boolean apm, Optional<Smi> smi) {

  /** Neither. */
  public static final Firmware NONE = new Firmware(false, Optional.empty());

  /** Checks the fields are given. */
  public Firmware {
    java.util.Objects.requireNonNull(smi, "smi");
  }

  /** From the command line: {@code --smi} is {@code off} or {@code PERIOD:LENGTH}. */
  static Firmware fromOptions(boolean apm, String smi) {
    return new Firmware(apm, Experiment.option("--smi", () -> parseSmi(smi)));
  }

  private static Optional<Smi> parseSmi(String text) {
    if (text.equals("off")) {
      return Optional.empty();
    }
    int colon = text.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("'" + text + "' is not off or PERIOD:LENGTH, e.g. 1s:200us");
    }
    return Optional.of(new Smi(Durations.parse(text.substring(0, colon)), Durations.parse(text.substring(colon + 1))));
  }

  /** The options that give this firmware. */
  String options() {
    return (apm ? " --apm" : "") + smi.map(s -> " --smi " + s.periodNs() + "ns:" + s.lengthNs() + "ns").orElse("");
  }
}
