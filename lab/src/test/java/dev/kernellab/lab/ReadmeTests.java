package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README stays what a newcomer reads in one screen: short, its test command the one CI
 * runs, and every page it and the docs/ pages link to there. The commands they quote are
 * checked by {@link DocumentedCommandsTests}, the library program by {@link LibraryExampleTests}.
 */
class ReadmeTests {

  private static final Path ROOT = Path.of("..");

  /** A Markdown link or image to a relative target: {@code [text](target)}, anchor dropped. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  private static String readme() throws IOException {
    return Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
  }

  /** The lines of {@code text} outside fenced blocks. */
  private static List<String> prose(String text) {
    List<String> out = new ArrayList<>();
    boolean fenced = false;
    for (String line : text.lines().toList()) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        out.add("");
      } else {
        out.add(fenced ? "" : line);
      }
    }
    return out;
  }

  @Test
  void theReadmeIsOneScreenToTheAnswer() throws IOException {
    String text = readme();
    assertThat(text.lines().count()).as("README.md's length in lines").isLessThanOrEqualTo(150);
    int run = 0;
    int line = 0;
    for (String l : prose(text)) {
      line++;
      boolean paragraph = !l.isBlank() && !l.startsWith("|") && !l.startsWith("#");
      run = paragraph ? run + 1 : 0;
      assertThat(run).as("README.md: the paragraph that ends at line %d is longer than six lines", line)
          .isLessThanOrEqualTo(6);
    }
    assertThat(text).contains("```\n./kernel-lab compare\n```", "```console\n$ ./kernel-lab compare\n",
        "(docs/tour.md)");
  }

  @Test
  void ciRunsTheReadmesTestCommand() throws IOException {
    String text = readme();
    Matcher m = Pattern.compile("```\n(\\./mvnw [^\n]*)\n```").matcher(text);
    assertThat(m.find()).as("README.md shows its test command in a block of its own").isTrue();
    String command = m.group(1);
    List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    assertThat(ci.get(ci.size() - 1)).as(".ci/run's last command is the README's test command").isEqualTo(command);
  }

  @Test
  void everyRelativeLinkOfTheReadmeAndTheDocsPagesLandsOnAFile() throws IOException {
    List<Path> pages = DocumentedCommandsTests.pages();
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      int n = 0;
      for (String l : prose(Files.readString(page, StandardCharsets.UTF_8))) {
        n++;
        Matcher m = LINK.matcher(l);
        while (m.find()) {
          String target = m.group(1);
          if (target.contains("://") || target.startsWith("mailto:")) {
            continue;
          }
          if (!Files.exists(page.getParent().resolve(target))) {
            broken.add(page + ":" + n + ": " + target);
          }
        }
      }
    }
    assertThat(pages).hasSizeGreaterThan(5);
    assertThat(broken).isEmpty();
  }
}
