package dev.kernellab.preempt;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * {@code /proc/latencytimes} as a tracer: per CPU, the {@value #KEPT} worst periods with
 * preemption off (or, as a sibling, with interrupts off), one line per pair of places where a
 * period began and ended, with its cause, printed as the preempt-stats patch printed them.
 *
 * <pre>{@code
 * LatencyTimes preempt = LatencyTimes.preemptOff();
 * LatencyTimes irqs = LatencyTimes.irqsOff();
 * new KernelBuilder(...).patch("preempt").tracer(Tracer.both(preempt, irqs)).build().run(end);
 * preempt.table().forEach(System.out::println);
 * }</pre>
 *
 * <pre>
 * cpu 0 worst 20 preempt-off latency times of 521154 measured in this period.
 *   usec  cause                        start                                          end
 *   3616  spin_lock(inode_lock)        fs/inode.c:prune_icache                        fs/inode.c:prune_icache
 * </pre>
 *
 * <p>Implementation overview. Models kernel/latency.c of the preempt-stats patch
 * (preempt-stats-rml-2.4.17, Robert Love and MontaVista, announced on linux-kernel as
 * "[PATCH] Preemption Latency Measurement Tool", 19 Sep 2001): {@code latency_start()} at the
 * point preemption goes off remembers where and why, {@code latency_end()} where it comes back
 * computes the period, and {@code latency_logentry()} keeps it in a table of {@value #KEPT}
 * entries in which a pair of start and end places has one entry, its worst (the patch matched the
 * two places by their return addresses), and a new pair replaces the entry of the least
 * latency once the table is full. Reading the file printed the entries worst first.
 *
 * <p>Here a place is a {@link PathView}: the function ({@code fs/dcache.c:prune_dcache}), or
 * the loop site whose body was running ({@code mm/vmscan.c:shrink_cache (loop)}), where the
 * patch printed a source line and a return address. The cause is what raised the count at the instant it left zero: a spinlock (named,
 * where the patch said only {@code spin_lock}), {@code BKL}, an interrupt (the patch printed
 * the handler's name, {@code ide0}; here its vector), a softirq, else {@code preempt_off}.
 * The patch's {@code mask} column is left out, and so is its least-latency shortcut (it compared a new
 * period against a stale minimum to save time in the kernel; this table is exact). The
 * interrupts-off sibling, which the patch did not have, counts the periods from
 * {@code local_irq_disable()} (or a {@code spin_lock_irq}) to the enable, as kernel-core reports
 * them; interrupt entry's own masking is not one of them.
 *
 * <p>Allocation: an entry is allocated when a new pair of places enters the table, never per
 * period otherwise.
 */
@Models(file = "kernel/latency.c", function = "latency_logentry", version = "preempt-stats-rml-2.4.17")
public final class LatencyTimes implements Tracer {

  /** How many entries /proc/latencytimes kept per CPU (NUM_LOG_ENTRY). */
  public static final int KEPT = 20;

  private static final int MAX_CPUS = 64;

  /** Which periods a table measures. */
  public enum Kind {
    /** preempt_count non-zero: the preempt-stats patch's own measure. */
    PREEMPT_OFF("preempt-off"),
    /** interrupts disabled by kernel code. */
    IRQS_OFF("irqs-off");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * One line of the table: the worst period seen between {@code start} and {@code end}.
   *
   * @param lengthNs the period
   * @param cause what turned preemption (or interrupts) off
   * @param start where it went off
   * @param end where it came back on
   * @param atNs when the worst such period began
   */
  public record Entry(long lengthNs, String cause, PathView start, PathView end, long atNs) {}

  private static final class Slot {
    long lengthNs;
    LockView lock; // the cause when a lock: named only when printed, so that a period allocates nothing
    String other; // else the cause
    PathView start;
    PathView end;
    long atNs;
  }

  private final Kind kind;
  private final List<List<Slot>> tables = new ArrayList<>();
  private final long[] measured = new long[MAX_CPUS];
  private final long[] offAt = new long[MAX_CPUS];
  private final PathView[] offBy = new PathView[MAX_CPUS];
  private final LockView[] causeLock = new LockView[MAX_CPUS];
  private final String[] cause = new String[MAX_CPUS];
  private final boolean[] open = new boolean[MAX_CPUS];
  private int cpus;

  private LatencyTimes(Kind kind) {
    this.kind = kind;
  }

  /** The preempt-stats table: periods with a non-zero preempt count. */
  public static LatencyTimes preemptOff() {
    return new LatencyTimes(Kind.PREEMPT_OFF);
  }

  /** The sibling table: periods with interrupts disabled by kernel code. */
  public static LatencyTimes irqsOff() {
    return new LatencyTimes(Kind.IRQS_OFF);
  }

  /** What this table measures. */
  public Kind kind() {
    return kind;
  }

  /**
   * Refuses a kernel that cannot preempt kernel code for the preempt-off table: the patch
   * needed CONFIG_PREEMPT, and without it every stretch of kernel code holds the CPU, counted
   * or not, so the count's periods are not the latency they were read for.
   */
  /** Reads no path's entry or exit: those events need not be built for it. */
  @Override
  public void interest(TraceInterest mine) {
    mine.dropEverywhere(TraceInterest.Detail.PATHS);
    mine.dropEverywhere(TraceInterest.Detail.LOOP_EXITS_IRQS_OFF);
  }

  @Override
  public void boot(KernelView kernel) {
    if (kind == Kind.PREEMPT_OFF && !kernel.preemptionModel().preemptsKernelCode()) {
      throw new IllegalArgumentException(
          "preempt-stats measures a preemptible kernel (CONFIG_PREEMPT); this "
              + "configuration is " + kernel.preemptionModel() + ": run one with the preempt patch");
    }
    cpus = kernel.cpuCount();
  }

  @Override
  public void preemptOff(long now, int cpu, PathView path) {
    if (kind == Kind.PREEMPT_OFF) {
      start(now, cpu, path);
    }
  }

  @Override
  public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
    if (kind == Kind.PREEMPT_OFF) {
      end(now, cpu, path);
    }
  }

  @Override
  public void irqsOff(long now, int cpu, PathView path) {
    if (kind == Kind.IRQS_OFF) {
      start(now, cpu, path);
    }
  }

  @Override
  public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
    if (kind == Kind.IRQS_OFF) {
      end(now, cpu, path);
    }
  }

  @Override
  public void lockContend(long now, int cpu, LockView lock, PathView path) {
    because(now, cpu, lock);
  }

  @Override
  public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
    because(now - spunNs, cpu, lock);
  }

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    if (open[cpu] && cause[cpu] == null && causeLock[cpu] == null && offAt[cpu] == now) {
      cause[cpu] = IRQ_NAMES[Math.min(vector, IRQ_NAMES.length - 1)];
    }
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    if (open[cpu] && cause[cpu] == null && causeLock[cpu] == null && offAt[cpu] == now) {
      cause[cpu] = "softirq";
    }
  }

  // Vector names are fixed strings so that naming an interrupt allocates nothing.
  private static final String[] IRQ_NAMES = irqNames();

  private static String[] irqNames() {
    String[] out = new String[257];
    for (int i = 0; i < 256; i++) {
      out[i] = "vector " + i;
    }
    out[256] = "vector";
    return out;
  }

  private void because(long at, int cpu, LockView lock) {
    if (open[cpu] && cause[cpu] == null && causeLock[cpu] == null && offAt[cpu] == at) {
      causeLock[cpu] = lock;
    }
  }

  private void start(long now, int cpu, PathView path) {
    open[cpu] = true;
    offAt[cpu] = now;
    offBy[cpu] = path;
    causeLock[cpu] = null;
    cause[cpu] = null;
  }

  private void end(long now, int cpu, PathView path) {
    if (!open[cpu]) {
      return;
    }
    open[cpu] = false;
    measured[cpu]++;
    long length = now - offAt[cpu];
    LockView lock = causeLock[cpu];
    String why = lock != null ? null : cause[cpu] != null ? cause[cpu]
        : kind == Kind.PREEMPT_OFF ? "preempt_off" : "cli";
    List<Slot> t = table(cpu);
    Slot same = null;
    Slot least = null;
    for (Slot s : t) {
      if (samePlace(s.start, offBy[cpu]) && samePlace(s.end, path) && s.lock == lock
          && java.util.Objects.equals(s.other, why)) {
        same = s;
        break;
      }
      if (least == null || s.lengthNs < least.lengthNs) {
        least = s;
      }
    }
    Slot into = same;
    if (into == null) {
      if (t.size() < KEPT) {
        into = new Slot();
        t.add(into);
      } else if (length > least.lengthNs) {
        into = least;
      } else {
        return;
      }
    } else if (length <= same.lengthNs) {
      return;
    }
    into.lengthNs = length;
    into.lock = lock;
    into.other = why;
    into.start = offBy[cpu];
    into.end = path;
    into.atNs = offAt[cpu];
  }

  /**
   * One place of the code: the same function or loop site, whichever path object stands for it
   * (a catalog may build a function's path more than once); compared without allocating.
   */
  private static boolean samePlace(PathView a, PathView b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    return a.file().equals(b.file()) && a.function().equals(b.function())
        && java.util.Objects.equals(a.site(), b.site());
  }

  private List<Slot> table(int cpu) {
    while (tables.size() <= cpu) {
      tables.add(new ArrayList<>(KEPT));
    }
    return tables.get(cpu);
  }

  private static String name(LockView lock) {
    if (lock.isBigKernelLock()) {
      return "BKL";
    }
    return (lock.isReaderWriter() ? "rwlock(" : "spin_lock(") + lock.name() + ")";
  }

  /**
   * A place as printed: the function, or the loop site; a loop whose site key is its function's
   * own name ({@code mm/vmscan.c:shrink_cache}) is marked "(loop)", so that a lock broken and
   * retaken inside the loop does not print as the function's own lock and unlock.
   */
  static String place(PathView p) {
    if (p == null) {
      return "-";
    }
    if (p.site() != null && p.site().label().equals(p.site().function())) {
      return p.site().key() + " (loop)";
    }
    return p.toString();
  }

  /** Periods measured on {@code cpu} since the start (or the last {@link #reset}). */
  public long measured(int cpu) {
    return measured[cpu];
  }

  /** The entries of {@code cpu}, worst first (on equal lengths, the earlier period first). */
  public List<Entry> worst(int cpu) {
    List<Entry> out = new ArrayList<>();
    if (cpu < tables.size()) {
      for (Slot s : tables.get(cpu)) {
        out.add(new Entry(s.lengthNs, s.lock != null ? name(s.lock) : s.other, s.start, s.end, s.atNs));
      }
    }
    out.sort((a, b) -> a.lengthNs() != b.lengthNs() ? Long.compare(b.lengthNs(), a.lengthNs())
        : Long.compare(a.atNs(), b.atNs()));
    return Collections.unmodifiableList(out);
  }

  /** Forgets everything, as a read of /proc/latencytimes did. */
  public void reset() {
    tables.clear();
    java.util.Arrays.fill(measured, 0);
    java.util.Arrays.fill(open, false);
    java.util.Arrays.fill(offBy, null);
    java.util.Arrays.fill(causeLock, null);
  }

  /**
   * The table as /proc/latencytimes printed it, per CPU (the 2002 SMP form of its header), with
   * places as {@code file:function} or loop site instead of {@code line/file} and an address.
   */
  public List<String> table() {
    List<String> out = new ArrayList<>();
    int n = Math.max(cpus, tables.size());
    for (int c = 0; c < n; c++) {
      out.add(String.format(Locale.ROOT, "cpu %d worst %d %s latency times of %d measured in this period.",
          c, KEPT, kind, measured[c]));
      out.add(String.format(Locale.ROOT, "%6s  %-28s %-46s %s", "usec", "cause", "start", "end"));
      for (Entry e : worst(c)) {
        out.add(String.format(Locale.ROOT, "%6d  %-28s %-46s %s",
            e.lengthNs() / 1_000, e.cause(), place(e.start()), place(e.end())));
      }
    }
    return out;
  }
}
