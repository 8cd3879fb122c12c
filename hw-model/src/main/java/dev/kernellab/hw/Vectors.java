package dev.kernellab.hw;

/**
 * x86 interrupt vector numbers used by Linux 2.4/2.5 on i386, and their priority rule.
 *
 * <p>Models include/asm-i386/hw_irq.h (2.4.17). The local APIC delivers a vector only if its
 * priority class ({@code vector >> 4}) is above the class of every vector in service, which
 * is why the system vectors sit at the top of the range.
 */
public final class Vectors {

  /** First vector the IO-APIC code hands to a device line (assign_irq_vector). */
  public static final int FIRST_DEVICE_VECTOR = 0x31;
  /** First vector reserved for system use; device vectors stay below it. */
  public static final int FIRST_SYSTEM_VECTOR = 0xef;
  /** The system-call trap gate, never used for a device. */
  public static final int SYSCALL_VECTOR = 0x80;
  /** Local APIC timer: the per-CPU tick on SMP. */
  public static final int LOCAL_TIMER_VECTOR = 0xef;
  /** Reschedule IPI: the handler only acknowledges; the switch happens on the way out. */
  public static final int RESCHEDULE_VECTOR = 0xfc;
  /** TLB shootdown IPI. */
  public static final int INVALIDATE_TLB_VECTOR = 0xfd;
  /** smp_call_function IPI. */
  public static final int CALL_FUNCTION_VECTOR = 0xfb;
  /** Number of vectors of an x86 CPU. */
  public static final int COUNT = 256;

  private Vectors() {}

  /** Priority class of a vector: the local APIC compares these, not the vectors. */
  public static int priorityClass(int vector) {
    return vector >>> 4;
  }

  /** Throws unless {@code vector} is an external (maskable, non-exception) vector. */
  static void checkExternal(int vector) {
    if (vector < 0x20 || vector >= COUNT) {
      throw new IllegalArgumentException(
          "vector 0x" + Integer.toHexString(vector) + " is not an external interrupt vector");
    }
  }
}
