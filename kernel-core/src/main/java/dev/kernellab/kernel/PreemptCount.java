package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.PreemptionModel;

/**
 * The layout of {@code preempt_count} and the predicates built on it.
 *
 * <p>Models include/asm-i386/hardirq.h and include/linux/preempt.h of later 2.5 (the layout
 * that folded the hardirq and softirq counters into {@code preempt_count}: include/asm-i386/
 * hardirq.h of the 2.5 history tree at commit 0a879177a568; the count's nesting rules are
 * those of Love's preempt-kernel-rml-2.4.17-1.patch, include/linux/spinlock.h):
 *
 * <pre>
 *   31       27 26 25 24 23            16 15             8 7              0
 *  +-----------+--+-----+----------------+----------------+----------------+
 *  |           |PA|     |  hardirq depth | softirq/bh dep.| preempt depth  |
 *  +-----------+--+-----+----------------+----------------+----------------+
 *                ^ PREEMPT_ACTIVE (1 << 26): set by preempt_schedule() around schedule()
 * </pre>
 *
 * <p>The model keeps the count in every configuration, so that debug checks ("scheduling while
 * atomic") and traces of preempt-off regions work on vanilla kernels too; only the
 * {@link PreemptionModel} decides whether a count of zero lets a task be preempted, which is
 * what CONFIG_PREEMPT changed.
 */
@Models(file = "include/linux/preempt.h", function = "preempt_count",
    version = "2.5 (history tree 0a879177a568)")
@Models(file = "include/linux/spinlock.h", function = "preempt_get_count",
    version = "preempt-kernel-rml-2.4.17-1")
public final class PreemptCount {

  /** Bits 0-7: nesting of preempt_disable() (spinlocks included). */
  public static final int PREEMPT_MASK = 0x000000ff;
  /** Bits 8-15: softirq/bottom-half depth. */
  public static final int SOFTIRQ_MASK = 0x0000ff00;
  /** Bits 16-23: hardirq depth. */
  public static final int HARDIRQ_MASK = 0x00ff0000;
  /** One preempt_disable(). */
  public static final int PREEMPT_OFFSET = 1;
  /** One local_bh_disable() or softirq run. */
  public static final int SOFTIRQ_OFFSET = 1 << 8;
  /** One irq_enter(). */
  public static final int HARDIRQ_OFFSET = 1 << 16;
  /** Set while preempt_schedule() runs schedule() for a preempted task. */
  public static final int PREEMPT_ACTIVE = 0x04000000;

  private PreemptCount() {}

  /** in_interrupt(): in hardirq or softirq context (or bh disabled). */
  @Models(file = "include/asm-i386/hardirq.h", function = "in_interrupt",
      version = "2.5 (history tree 0a879177a568)")
  public static boolean inInterrupt(int count) {
    return (count & (HARDIRQ_MASK | SOFTIRQ_MASK)) != 0;
  }

  /** in_irq(): in a hardirq handler. */
  @Models(file = "include/asm-i386/hardirq.h", function = "in_irq",
      version = "2.5 (history tree 0a879177a568)")
  public static boolean inIrq(int count) {
    return (count & HARDIRQ_MASK) != 0;
  }

  /** in_softirq(): running a softirq or with bottom halves disabled. */
  @Models(file = "include/asm-i386/hardirq.h", function = "in_softirq",
      version = "2.5 (history tree 0a879177a568)")
  public static boolean inSoftirq(int count) {
    return (count & SOFTIRQ_MASK) != 0;
  }

  /** in_atomic(): any count other than PREEMPT_ACTIVE forbids sleeping. */
  @Models(file = "include/asm-i386/hardirq.h", function = "in_atomic",
      version = "2.5 (history tree 0a879177a568)")
  public static boolean inAtomic(int count) {
    return (count & ~PREEMPT_ACTIVE) != 0;
  }

  /** Preempt-disable depth (bits 0-7). */
  public static int preemptDepth(int count) {
    return count & PREEMPT_MASK;
  }

  /** Renders a count as the kernel's fields, for error messages. */
  public static String describe(int count) {
    return String.format(
        "preempt_count=0x%08x (preempt %d, softirq %d, hardirq %d%s)",
        count,
        count & PREEMPT_MASK,
        (count & SOFTIRQ_MASK) >>> 8,
        (count & HARDIRQ_MASK) >>> 16,
        (count & PREEMPT_ACTIVE) != 0 ? ", PREEMPT_ACTIVE" : "");
  }
}
