package dev.kernellab.lab;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
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
      "  kernel-lab xref --html xref.html                    one page, linked both ways",
      "",
      "Exit status: 0 success; 2 bad usage; 1 other."
    })
final class XrefCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write the table as Markdown to FILE instead of printing it.")
  String output;

  @Option(names = "--html", paramLabel = "FILE",
      description = "Write one browsable page to FILE: kernel functions linked to their Java classes and back.")
  String html;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    OutputFile file = output == null ? null : OutputFile.of("-o", output, true);
    OutputFile page = html == null ? null : OutputFile.of("--html", html, true);
    if (file != null && page != null && file.path() == null && page.path() == null) {
      throw new IllegalArgumentException("-o - and --html -: only one of them can go to standard output");
    }
    if (file != null && page != null && file.path() != null && file.path().equals(page.path())) {
      throw new IllegalArgumentException("-o and --html: both name " + html);
    }
    List<Xref.Entry> entries = Xref.scan();
    // a file on standard output is the whole of it: what was written where goes to stderr then
    boolean stdout = file != null && file.isStandardOutput() || page != null && page.isStandardOutput();
    PrintWriter status = stdout ? spec.commandLine().getErr() : out;
    if (file == null && page == null) {
      out.print(Xref.text(entries));
    }
    if (file != null) {
      file.write(Xref.markdown(entries), out);
      written(status, file, entries);
    }
    if (page != null) {
      page.write(XrefHtml.page(entries), out);
      written(status, page, entries);
    }
    return 0;
  }

  private static void written(PrintWriter out, OutputFile f, List<Xref.Entry> entries) {
    if (!f.isStandardOutput()) {
      long functions = entries.stream().map(e -> e.file() + ":" + e.function()).distinct().count();
      out.printf(Locale.ROOT, "kernel-lab xref: %d kernel functions (%d @Models) written to %s%n", functions,
          entries.size(), f.name());
    }
  }
}
