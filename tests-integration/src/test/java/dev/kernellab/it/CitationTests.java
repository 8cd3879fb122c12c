package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every citation in the sources can be followed by a reader of the repository: a comment names
 * a primary source (kernel file, function and version; a patch; a mail with its date) or a file
 * under the repository's {@code docs/}, never a document kept outside it or an issue number.
 *
 * <p>Walks the {@code src/main/java} and {@code src/test/java} trees of every module, found from
 * the repository root (the first directory above the working directory that holds {@code mvnw}
 * and {@code tests-integration}; Maven runs the tests in the module's directory).
 */
class CitationTests {

  /** Citations of documents that are not in the repository. */
  private static final Pattern FORBIDDEN =
      Pattern.compile(
          "\\.\\./shared|shared/|SCENARIOS\\.md|DESIGN\\.md|STYLE\\.md|BUILD-NOTES|sched-o1\\.md"
              + "|preempt-lowlat-hw\\.md|kernel-sources\\.md|reference [0-9]|\\b[Ii]ssue #?[0-9]+");

  /** A docs/ path relative to the repository root (not the tail of a longer path). */
  private static final Pattern DOCS_PATH = Pattern.compile("(?<![\\w./-])docs/[\\w./-]*?\\.md");

  private static final Pattern INVARIANT_NUMBER =
      Pattern.compile("docs/scheduler-invariants\\.md (\\d+)");
  private static final Pattern SCENARIO_NUMBER = Pattern.compile("docs/golden-scenarios\\.md (S\\d+)");

  private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", "node_modules");

  private static Path root;
  private static List<Path> sources;

  @BeforeAll
  static void findSources() throws IOException {
    root = repositoryRoot();
    sources = javaSources(root);
  }

  private static Path repositoryRoot() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("mvnw")) && Files.isDirectory(d.resolve("tests-integration"))) {
        return d;
      }
    }
    throw new IllegalStateException(
        "no directory with mvnw and tests-integration above " + Path.of("").toAbsolutePath());
  }

  /** The .java files under any src/main/java or src/test/java of the tree, build output skipped. */
  private static List<Path> javaSources(Path top) throws IOException {
    List<Path> out = new ArrayList<>();
    Files.walkFileTree(
        top,
        new SimpleFileVisitor<Path>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            Path name = dir.getFileName();
            return name != null && !dir.equals(top) && SKIPPED_DIRECTORIES.contains(name.toString())
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile()
                && file.getFileName().toString().endsWith(".java")
                && inSourceTree(top.relativize(file))) {
              out.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    out.sort(null);
    return out;
  }

  /** True if {@code rel} has the consecutive names src, main or test, java. */
  private static boolean inSourceTree(Path rel) {
    for (int i = 0; i + 2 < rel.getNameCount(); i++) {
      String kind = rel.getName(i + 1).toString();
      if (rel.getName(i).toString().equals("src")
          && (kind.equals("main") || kind.equals("test"))
          && rel.getName(i + 2).toString().equals("java")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isThisFile(Path file) {
    return file.endsWith(Path.of("dev", "kernellab", "it", "CitationTests.java"))
        && root.relativize(file).startsWith("tests-integration");
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
  }

  private static String where(Path file, int index) {
    return root.relativize(file) + ":" + (index + 1);
  }

  @Test
  void theWalkSeesTheSourcesOfEveryModule() {
    assertThat(sources).hasSizeGreaterThan(100);
    assertThat(sources)
        .extracting(f -> root.relativize(f).getName(0).toString())
        .contains("kernel-core", "sched-o1", "sched-goodness", "tests-integration");
    assertThat(sources).anyMatch(CitationTests::isThisFile);
  }

  @Test
  void noSourceCitesADocumentOutsideTheRepositoryOrAnIssueNumber() {
    List<String> violations = new ArrayList<>();
    for (Path file : sources) {
      if (isThisFile(file)) {
        continue;
      }
      List<String> text = lines(file);
      for (int i = 0; i < text.size(); i++) {
        if (FORBIDDEN.matcher(text.get(i)).find()) {
          violations.add(where(file, i) + ": " + text.get(i).trim());
        }
      }
    }
    assertThat(violations)
        .as("cite a primary source or a file under docs/ instead (see docs/README.md)")
        .isEmpty();
  }

  @Test
  void everyCitedDocsFileExistsAndEveryCitedNumberIsInIt() {
    List<String> missing = new ArrayList<>();
    String invariants = docText("docs/scheduler-invariants.md");
    String scenarios = docText("docs/golden-scenarios.md");
    for (Path file : sources) {
      List<String> text = lines(file);
      for (int i = 0; i < text.size(); i++) {
        String line = text.get(i);
        Matcher m = DOCS_PATH.matcher(line);
        while (m.find()) {
          if (!Files.isRegularFile(root.resolve(m.group()))) {
            missing.add(where(file, i) + ": " + m.group() + " does not exist");
          }
        }
        Matcher inv = INVARIANT_NUMBER.matcher(line);
        while (inv.find()) {
          if (!Pattern.compile("(?m)^" + inv.group(1) + "\\. ").matcher(invariants).find()) {
            missing.add(where(file, i) + ": no invariant " + inv.group(1) + " in docs/scheduler-invariants.md");
          }
        }
        Matcher sc = SCENARIO_NUMBER.matcher(line);
        while (sc.find()) {
          if (!scenarios.contains("| " + sc.group(1) + " |")) {
            missing.add(where(file, i) + ": no scenario " + sc.group(1) + " in docs/golden-scenarios.md");
          }
        }
      }
    }
    assertThat(missing).isEmpty();
  }

  private static String docText(String rel) {
    Path p = root.resolve(rel);
    assertThat(p).isRegularFile();
    return String.join("\n", lines(p));
  }
}
