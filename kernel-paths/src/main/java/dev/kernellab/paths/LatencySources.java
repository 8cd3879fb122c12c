package dev.kernellab.paths;

import dev.kernellab.kernel.HoldRegions;
import dev.kernellab.kernel.spi.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every latency source of a catalog: each stretch of its paths' code that keeps the CPU from a
 * woken task, with what it holds (interrupts off, bottom halves off, a spinlock, the big kernel
 * lock, an explicit preempt count), what sets its length, the catalog rows that reach it, where
 * its cost comes from, and what breaks it (vanilla's own reschedule points, kernel preemption,
 * each patch that says what it does at the catalog's sites). {@code kernel-lab list sources}
 * prints it; docs/latency-sources.md carries a copy.
 *
 * <pre>{@code
 * LatencySources.of(Kernel24Paths.withDefaults()).table(List.of(lowlat, lockbreak))
 *     .forEach(System.out::println);
 * }</pre>
 *
 * <p>Implementation overview. Generated, never written: each {@link CatalogEntry}'s path is
 * read by {@link HoldRegions} (a walk of its operations with the held state), and the regions
 * are merged by place and held state in catalog order, each remembering every row that reaches
 * it. A row a developer adds to the catalog, or a lock a path starts to take, is in the table
 * the next time it is printed. What the walk cannot read from the code, a dynamic loop count's
 * meaning, comes from {@link SiteCounts}, or else from the reaching row's own account of its
 * tail ({@link CatalogEntry#tail()}).
 */
public final class LatencySources {

  /**
   * One latency source.
   *
   * @param region where, what is held, and the length as the code states it
   * @param drivenBy what sets the length, in the load's terms
   * @param reachedFrom the catalog rows whose paths run it, in catalog order
   * @param costFrom where the lengths come from ({@link CatalogEntry#source()}): of the row of the
   *     region's own function if the catalog has one, else of the first row that reaches it
   */
  public record Source(HoldRegions.Region region, String drivenBy, List<String> reachedFrom, String costFrom) {

    /** Copies the list. */
    public Source {
      reachedFrom = List.copyOf(reachedFrom);
    }

    /** True if nothing but the non-preemptible kernel keeps the CPU here: kernel preemption breaks it. */
    public boolean preemptible() {
      return region.held().isEmpty();
    }
  }

  private final List<Source> sources;

  private LatencySources(List<Source> sources) {
    this.sources = List.copyOf(sources);
  }

  /** The sources of {@code catalog}'s rows, in catalog order of first appearance. */
  public static LatencySources of(Kernel24Paths catalog) {
    List<HoldRegions.Region> regions = new ArrayList<>();
    List<List<String>> reached = new ArrayList<>();
    List<CatalogEntry> first = new ArrayList<>();
    for (CatalogEntry e : catalog.entries()) {
      for (HoldRegions.Region r : regions(e)) {
        int at = indexOf(regions, r);
        if (at < 0) {
          regions.add(r);
          reached.add(new ArrayList<>(List.of(e.name())));
          first.add(e);
        } else {
          if (!reached.get(at).contains(e.name())) {
            reached.get(at).add(e.name());
          }
          if (owns(e, r) && !owns(first.get(at), r)) {
            first.set(at, e);
          }
        }
      }
    }
    List<Source> out = new ArrayList<>();
    for (int i = 0; i < regions.size(); i++) {
      HoldRegions.Region r = regions.get(i);
      out.add(new Source(r, drivenBy(r, first.get(i)), reached.get(i), first.get(i).source()));
    }
    return new LatencySources(out);
  }

  /**
   * The regions of {@code e}'s path; for a row that declares something held where its path's
   * code holds nothing (its code is kernel-core's, as the IDE interrupt's, or its handler runs
   * with interrupts off by its SA_INTERRUPT flag, as the timer's), also one region of what the
   * row declares.
   */
  private static List<HoldRegions.Region> regions(CatalogEntry e) {
    List<HoldRegions.Region> walked = HoldRegions.of(e.path());
    boolean holds = false;
    for (HoldRegions.Region r : walked) {
      holds |= !r.held().isEmpty();
    }
    if (holds || e.locks().isEmpty()) {
      return walked;
    }
    boolean irqs = false;
    boolean bh = false;
    boolean spin = false;
    for (String l : e.locks()) {
      irqs |= l.contains("irqs off") || l.contains("(irq");
      bh |= l.contains("bh") || l.contains("softirq");
      spin |= l.contains("_lock") || l.startsWith("kernel_flag");
    }
    if (!irqs && !bh && !spin) {
      return walked; // a semaphore (console_sem) sleeps its waiters: it keeps no CPU
    }
    List<HoldRegions.Region> out = new ArrayList<>(walked);
    out.add(new HoldRegions.Region(e.path().file(), e.path().function(), Optional.empty(), false,
        e.locks(), irqs, bh, "typical " + CatalogTable.duration(e.typicalNs()) + ", tail "
            + CatalogTable.duration(e.tailNs()) + " (as the catalog row declares it)",
        false));
    return out;
  }

  /** True if {@code e} is the row of the function the region is in: its figures are the region's. */
  private static boolean owns(CatalogEntry e, HoldRegions.Region r) {
    return e.path().file().equals(r.file()) && e.path().function().equals(r.function())
        || e.name().equals(r.function());
  }

  private static int indexOf(List<HoldRegions.Region> regions, HoldRegions.Region r) {
    for (int i = 0; i < regions.size(); i++) {
      HoldRegions.Region q = regions.get(i);
      if (q.where().equals(r.where()) && q.held().equals(r.held()) && q.length().equals(r.length())) {
        return i;
      }
    }
    return -1;
  }

  private static String drivenBy(HoldRegions.Region r, CatalogEntry e) {
    Optional<String> known = r.site().filter(x -> !r.perIteration()).flatMap(SiteCounts::of);
    if (known.isPresent()) {
      return known.get() + ": " + r.length();
    }
    if (r.length().contains("worked out on entry")) {
      return "the load's state on entry (" + e.name() + ": " + e.tail() + "): " + r.length();
    }
    return r.length();
  }

  /** The sources, in catalog order. */
  public List<Source> sources() {
    return sources;
  }

  /**
   * The table, as Markdown lines: where, what it holds, what that blocks, what sets its length,
   * the rows that reach it, where its cost comes from, and what breaks it with and without
   * {@code patches} ("none" if nothing does).
   */
  public List<String> table(List<? extends CatalogPatch> patches) {
    List<String> out = new ArrayList<>();
    out.add("| source | holds | blocks | length driven by | reached from | cost from | broken by |");
    out.add("|---|---|---|---|---|---|---|");
    for (Source s : sources) {
      HoldRegions.Region r = s.region();
      out.add("| " + r.where() + " | " + (r.held().isEmpty() ? "nothing" : String.join(", ", r.held())) + " | "
          + blocks(r) + " | " + s.drivenBy() + " | " + String.join(", ", s.reachedFrom()) + " | "
          + s.costFrom() + " | " + brokenBy(s, patches) + " |");
    }
    return out;
  }

  /** What the held state forbids: interrupts, bottom halves, preemption (a non-zero preempt count). */
  static String blocks(HoldRegions.Region r) {
    List<String> out = new ArrayList<>();
    if (r.irqsOff()) {
      out.add("irqs");
    }
    if (r.bhOff()) {
      out.add("bh");
    }
    boolean count = false;
    for (String h : r.held()) {
      // local_irq_disable() alone leaves the count at zero: no interrupt comes to preempt it
      count |= !h.startsWith("local_irq_");
    }
    if (count) {
      out.add("preempt count");
    }
    return out.isEmpty() ? "preemption (non-preemptible kernel)" : String.join(", ", out);
  }

  /**
   * What breaks {@code s}: vanilla 2.4.17's own reschedule point in the loop, kernel preemption
   * (only where nothing is held), each patch's change at the site.
   */
  static String brokenBy(Source s, List<? extends CatalogPatch> patches) {
    List<String> out = new ArrayList<>();
    HoldRegions.Region r = s.region();
    if (r.reschedules()) {
      out.add("vanilla (reschedule point in the loop)");
    }
    if (s.preemptible()) {
      out.add("preempt");
    }
    if (r.site().isPresent() && !r.perIteration()) {
      Site site = r.site().get();
      for (CatalogPatch p : patches) {
        p.change(site).ifPresent(c -> out.add(p.name() + " (" + c + ")"));
      }
    }
    return out.isEmpty() ? "none" : String.join("; ", out);
  }
}
