package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The program of docs/library.md ("A whole program"), taken from the page itself, compiled
 * against the project's jars and run: the text a user copies cannot rot.
 */
class LibraryExampleTests {

  static String example() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "library.md"));
    int section = page.indexOf("\n## A whole program\n");
    assertThat(section).as("docs/library.md's section 'A whole program'").isNotNegative();
    int open = page.indexOf("```java\n", section);
    assertThat(open).as("a java block in docs/library.md's section 'A whole program'").isPositive();
    int start = open + "```java\n".length();
    int end = page.indexOf("```", start);
    return page.substring(start, end);
  }

  @Test
  void theLibraryPagesProgramCompilesAndPrintsRealfeelsHistogramAndItsWorstCulprit(@TempDir Path dir) throws Exception {
    String source = example();
    assertThat(source).contains("public class Example", "import dev.kernellab.");
    Path file = dir.resolve("Example.java");
    Files.writeString(file, source, StandardCharsets.UTF_8);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc = javac.run(null, diagnostics, diagnostics, "--release", "17", "-cp", System.getProperty("java.class.path"),
        "-d", dir.toString(), file.toString());
    assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    PrintStream saved = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      loader.loadClass("Example").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(saved);
    }
    List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines.get(0)).matches("\\d+ samples, avg \\d+ us, p99\\.9 \\d+ us, max \\d+ us");
    // the worst sample's culprit, printed from the anatomy's types
    assertThat(lines.get(1)).matches("worst \\d+ us, WAIT_FOR_CPU: [A-Za-z]+ by \\S+\\[\\d+\\] in \\S+ for \\d+ us");
    // 2048 Hz for ten seconds on a kernel that keeps up: about 20480 samples, in the buckets
    long samples = Long.parseLong(lines.get(0).split(" ", -1)[0]);
    assertThat(samples).isBetween(19_000L, 20_600L);
    long counted = lines.stream().skip(2).mapToLong(l -> Long.parseLong(l.trim().replaceAll(".*\\s", ""))).sum();
    assertThat(counted).isEqualTo(samples);
  }
}
