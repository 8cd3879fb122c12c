package dev.kernellab.kernel.spi;

/**
 * A run-time kernel switch such as {@code /proc/sys/kernel/lowlatency}: a named boolean a patch
 * registers and paths consult.
 */
public final class Sysctl {

  private final String name;
  private boolean value;

  /** Creates the switch with its initial value. */
  public Sysctl(String name, boolean initial) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a sysctl needs its /proc/sys name, got " + (name == null ? "null" : "\"" + name + "\""));
    }
    this.name = name;
    this.value = initial;
  }

  /** Its /proc/sys name. */
  public String name() {
    return name;
  }

  /** Current value. */
  public boolean get() {
    return value;
  }

  /** Writes the switch. */
  public void set(boolean v) {
    this.value = v;
  }

  @Override
  public String toString() {
    return name + "=" + (value ? 1 : 0);
  }
}
