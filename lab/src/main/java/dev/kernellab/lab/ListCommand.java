package dev.kernellab.lab;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.CatalogPatch;
import dev.kernellab.paths.CatalogTable;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.LatencySources;
import dev.kernellab.workloads.Workloads;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kernel-lab list}: what exists, one line each. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "Lists what exists, one line each: workloads, patches, schedulers, sites, paths, or"
        + " sources (every latency source of the catalog: what it holds, what drives its length, what"
        + " breaks it).")
final class ListCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WHAT",
      description = "workloads, patches, schedulers, sites, paths, or sources")
  String what;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    switch (what) {
      case "workloads" -> {
        Workloads.descriptions().forEach(out::println);
        out.println("FILE: any other --workload that names a readable file is run as an rt-app workload file"
            + " (rt-app's JSON grammar; docs/rt-app.md)");
      }
      case "patches" -> KernelPatchProvider.all().forEach(p -> out.println(p.name() + ": " + p.description()));
      case "schedulers" -> SchedulerProvider.all().forEach(p -> out.println(p.name() + ": " + p.description()));
      case "sites" -> lines(CatalogTable.sites(Kernel24Paths.withDefaults(), patches()), out);
      case "paths" -> lines(CatalogTable.paths(Kernel24Paths.withDefaults()), out);
      case "sources" -> lines(LatencySources.of(Kernel24Paths.withDefaults()).table(patches()), out);
      default -> throw new IllegalArgumentException(
          "list what? '" + what + "' is not one of workloads, patches, schedulers, sites, paths, sources");
    }
    return 0;
  }

  /**
   * Every registered patch that says what it does at the catalog's sites (a {@link CatalogPatch}),
   * in the registry's order: a plug-in's column appears as a built-in one's does.
   */
  private static List<CatalogPatch> patches() {
    List<CatalogPatch> out = new ArrayList<>();
    for (KernelPatchProvider p : KernelPatchProvider.all()) {
      KernelPatch patch = p.create();
      if (patch instanceof CatalogPatch c) {
        out.add(c);
      }
    }
    return out;
  }

  private static void lines(List<String> rows, PrintWriter out) {
    rows.forEach(out::println);
  }
}
