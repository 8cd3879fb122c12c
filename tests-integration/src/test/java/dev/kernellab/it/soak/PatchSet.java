package dev.kernellab.it.soak;

import java.util.List;

/** The four kernel configurations of the debate and Love's preferred fifth, by the names the lab uses. */
public enum PatchSet {
  VANILLA("vanilla"),
  PREEMPT("preempt", "preempt"),
  LOWLAT("lowlat", "lowlat"),
  PREEMPT_LOWLAT("preempt+lowlat", "preempt", "lowlat"),
  PREEMPT_LOCKBREAK("preempt+lockbreak", "preempt", "lockbreak");

  private final String label;
  @SuppressWarnings("ImmutableEnumChecker") // List.of: unmodifiable
  private final List<String> patches;

  PatchSet(String label, String... patches) {
    this.label = label;
    this.patches = List.of(patches);
  }

  /** The configuration's name: {@code vanilla}, {@code preempt}, {@code lowlat}, {@code preempt+lowlat}, {@code preempt+lockbreak}. */
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
    throw new IllegalArgumentException("no patch set '" + label + "' (vanilla, preempt, lowlat, preempt+lowlat, preempt+lockbreak)");
  }
}
