package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every command the documentation shows with its output runs, and prints that output: the
 * README and the pages under docs/ cannot drift from what the program does. A block fenced as
 * {@code console} holds commands, each a line {@code $ ./kernel-lab ...}, each followed by the
 * output it prints; the test runs each in process and compares line for line. Lines that give
 * the wall time (the simulator's speed on the machine at hand) compare with their figures
 * masked, and nothing else does.
 *
 * <p>After a change of the model, {@code ./mvnw -B -o -pl lab -am verify
 * -Dtest=DocumentedCommandsTests -Dsurefire.failIfNoSpecifiedTests=false
 * -Dkernellab.docs.update=true} writes each command's new output into its page instead of
 * comparing; review the diff before committing it.
 */
class DocumentedCommandsTests {

  private static final Path ROOT = Path.of("..");
  private static final String FENCE = "```console\n";

  /** One command of one page, at its place in the page. */
  record Example(Path page, int start, int end, String command, List<String> expected) {}

  static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** The examples of {@code text}, in order; {@code start}/{@code end} delimit each output. */
  static List<Example> examples(Path page, String text) {
    List<Example> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int open = text.indexOf(FENCE, from);
      if (open < 0) {
        return out;
      }
      int body = open + FENCE.length();
      int close = text.indexOf("```", body);
      assertThat(close).as("%s: a console block is closed", page).isPositive();
      int at = body;
      while (at < close) {
        int eol = text.indexOf('\n', at);
        String line = text.substring(at, eol);
        assertThat(line).as("%s: a console block's command starts with '$ ./kernel-lab '", page)
            .startsWith("$ ./kernel-lab ");
        int outStart = eol + 1;
        int next = text.indexOf("\n$ ", eol);
        int outEnd = next < 0 || next >= close ? close : next + 1;
        List<String> expected = text.substring(outStart, outEnd).lines().toList();
        out.add(new Example(page, outStart, outEnd, line.substring(2), expected));
        at = outEnd;
      }
      from = close + 3;
    }
  }

  /**
   * Runs {@code command} in process. The pages' commands run from the repository's root, and the
   * test from the lab module's directory: a word naming a file of the root is handed over as
   * that file, and printed back under the name the page gave it.
   */
  static List<String> run(String command) {
    List<String> words = words(command);
    assertThat(words.get(0)).isEqualTo("./kernel-lab");
    List<String> args = new ArrayList<>();
    List<String[]> renamed = new ArrayList<>();
    for (String w : words.subList(1, words.size())) {
      if (!w.startsWith("-") && w.contains("/") && Files.isRegularFile(ROOT.resolve(w))) {
        String there = ROOT.resolve(w).toString();
        renamed.add(new String[] {there, w});
        args.add(there);
      } else {
        args.add(w);
      }
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = KernelLab.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(args.toArray(new String[0]));
    assertThat(code).as("%s: %s", command, err).isZero();
    String printed = out.toString();
    for (String[] r : renamed) {
      printed = printed.replace(r[0], r[1]);
    }
    return printed.lines().toList();
  }

  /** The words of a shell command line: split at blanks, '...' and "..." kept whole. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    char quote = 0;
    boolean in = false;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        in = true;
      } else if (c == ' ') {
        if (in) {
          words.add(w.toString());
          w.setLength(0);
          in = false;
        }
      } else {
        w.append(c);
        in = true;
      }
    }
    if (in) {
      words.add(w.toString());
    }
    return words;
  }

  /** A line as compared: a wall-time line with its figures masked, any other as it is. */
  static String comparable(String line) {
    return line.contains("wall time") ? line.replaceAll("\\d+(\\.\\d+)?", "#") : line;
  }

  @TestFactory
  Stream<DynamicTest> everyDocumentedCommandPrintsWhatItsPageQuotes() throws IOException {
    boolean update = Boolean.getBoolean("kernellab.docs.update");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path page : pages()) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      List<Example> examples = examples(page, text);
      if (examples.isEmpty()) {
        continue;
      }
      if (update) {
        tests.add(DynamicTest.dynamicTest(page + ": rewritten", () -> rewrite(page, text, examples)));
        continue;
      }
      for (Example e : examples) {
        tests.add(DynamicTest.dynamicTest(page.getFileName() + ": " + e.command(), () -> {
          List<String> got = run(e.command());
          assertThat(got.stream().map(DocumentedCommandsTests::comparable).toList())
              .as("%s in %s (rerun with -Dkernellab.docs.update=true to take the new output)", e.command(), page)
              .containsExactlyElementsOf(e.expected().stream().map(DocumentedCommandsTests::comparable).toList());
        }));
      }
    }
    assertThat(tests).as("the README quotes at least one command with its output").isNotEmpty();
    return tests.stream();
  }

  private static void rewrite(Path page, String text, List<Example> examples) throws IOException {
    StringBuilder sb = new StringBuilder();
    int at = 0;
    for (Example e : examples) {
      sb.append(text, at, e.start());
      List<String> got = run(e.command());
      for (int i = 0; i < got.size(); i++) {
        // a wall-time line that differs only in its figures keeps the page's (measured quiet)
        String old = i < e.expected().size() ? e.expected().get(i) : null;
        sb.append(old != null && comparable(old).equals(comparable(got.get(i))) ? old : got.get(i)).append('\n');
      }
      at = e.end();
    }
    sb.append(text.substring(at));
    Files.writeString(page, sb.toString(), StandardCharsets.UTF_8);
  }
}
