package dev.kernellab.it.soak;

import java.util.List;

/**
 * The four kernel configurations of the debate, Love's preferred fifth, voluntary preemption
 * (2004) alone and with the low-latency patch, and realtime-preempt's threaded interrupts, by
 * the names the lab uses.
 */
public enum PatchSet {
  VANILLA("vanilla"),
  PREEMPT("preempt", "preempt"),
  LOWLAT("lowlat", "lowlat"),
  PREEMPT_LOWLAT("preempt+lowlat", "preempt", "lowlat"),
  PREEMPT_LOCKBREAK("preempt+lockbreak", "preempt", "lockbreak"),
  VOLUNTARY("voluntary", "voluntary"),
  VOLUNTARY_LOWLAT("voluntary+lowlat", "voluntary", "lowlat"),
  PREEMPT_RT("preempt+rt", "preempt", "rt");

  private final String label;
  @SuppressWarnings("ImmutableEnumChecker") // List.of: unmodifiable
  private final List<String> patches;

  PatchSet(String label, String... patches) {
    this.label = label;
    this.patches = List.of(patches);
  }

  /** The configuration's name: {@code vanilla}, {@code preempt+lowlat}, {@code voluntary+lowlat}, ... */
  public String label() {
    return label;
  }

  /** The patches applied, in order. */
  public List<String> patches() {
    return patches;
  }

  /** The configuration named {@code label}. */
  public static PatchSet byLabel(String label) {
    for (PatchSet p : values()) {
      if (p.label.equals(label)) {
        return p;
      }
    }
    throw new IllegalArgumentException("no patch set '" + label + "' ("
        + String.join(", ", java.util.Arrays.stream(values()).map(PatchSet::label).toList()) + ")");
  }
}
