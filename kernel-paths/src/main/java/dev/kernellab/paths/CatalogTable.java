package dev.kernellab.paths;

import dev.kernellab.kernel.spi.Site;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints the catalog as tables: one row per path (file, locks, typical and tail length, the
 * source of the figures), and one row per site with what vanilla and each patch do there.
 *
 * <pre>
 * ./mvnw -q -pl kernel-paths -am install -DskipTests
 * java -cp kernel-core/target/classes:hw-model/target/classes:kernel-paths/target/classes \
 *     dev.kernellab.paths.CatalogTable
 * </pre>
 *
 * or run {@code CatalogTests}, which writes {@code kernel-paths/target/catalog-table.md}, or
 * call {@link #paths} / {@link #sites} (the lab's {@code kernel-lab list sites} will).
 */
public final class CatalogTable {

  private CatalogTable() {}

  /** Prints the path table and the site table of a default catalog, no patches. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Kernel24Paths catalog = Kernel24Paths.withDefaults();
    paths(catalog).forEach(out::println);
    out.println();
    sites(catalog, List.of()).forEach(out::println);
  }

  /** The path table, as Markdown lines. */
  public static List<String> paths(Kernel24Paths catalog) {
    List<String> out = new ArrayList<>();
    out.add("| path | source | locks | typical | tail (p99.9) | what makes the tail | figures from |");
    out.add("|---|---|---|---|---|---|---|");
    for (CatalogEntry e : catalog.entries()) {
      out.add("| " + e.name() + " | " + e.location() + " | "
          + (e.locks().isEmpty() ? "-" : String.join(", ", e.locks())) + " | "
          + duration(e.typicalNs()) + " | " + duration(e.tailNs()) + " | " + e.tail() + " | "
          + e.source() + " |");
    }
    return out;
  }

  /**
   * The site table, as Markdown lines: each loop site of the catalog, whether vanilla
   * 2.4.17 reschedules there, and what each of {@code patches} does there ("-" = untouched).
   */
  public static List<String> sites(Kernel24Paths catalog, List<? extends CatalogPatch> patches) {
    List<String> out = new ArrayList<>();
    StringBuilder head = new StringBuilder("| site | vanilla 2.4.17 |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (CatalogPatch p : patches) {
      head.append(' ').append(p.name()).append(" |");
      rule.append("---|");
    }
    out.add(head.toString());
    out.add(rule.toString());
    for (Site s : catalog.sites()) {
      StringBuilder row = new StringBuilder("| ").append(s.key()).append(" | ");
      row.append(Kernel24Paths.VANILLA_RESCHED_SITES.contains(s) ? "need_resched test" : "-");
      row.append(" |");
      for (CatalogPatch p : patches) {
        Optional<String> c = p.change(s);
        row.append(' ').append(c.orElse("-")).append(" |");
      }
      out.add(row.toString());
    }
    return out;
  }

  /** {@code 1.2 us}, {@code 35.0 ms}: three significant digits, the unit that fits. */
  public static String duration(long ns) {
    if (ns < 1_000) {
      return ns + " ns";
    }
    if (ns < 1_000_000) {
      return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
    }
    if (ns < 1_000_000_000) {
      return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    }
    return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
  }
}
