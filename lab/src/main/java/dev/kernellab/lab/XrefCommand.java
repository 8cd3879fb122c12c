package dev.kernellab.lab;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code kernel-lab xref}: which Java models which kernel function. */
@Command(
    name = "xref",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the cross-reference from kernel functions to the Java classes and methods that model"
          + " them, grouped by kernel source file: every @Models annotation of the code.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  kernel-lab xref",
      "  kernel-lab xref -o docs/xref.md                     the table as Markdown",
      "",
      "Exit status: 0 success; 2 bad usage; 1 other."
    })
final class XrefCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write the table as Markdown to FILE instead of printing it.")
  String output;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    OutputFile file = output == null ? null : OutputFile.of("-o", output, true);
    List<Xref.Entry> entries = Xref.scan();
    if (file != null) {
      file.write(Xref.markdown(entries), out);
      out.printf(java.util.Locale.ROOT, "kernel-lab xref: %d kernel functions written to %s%n", entries.size(), output);
    } else {
      out.print(Xref.text(entries));
    }
    return 0;
  }
}
