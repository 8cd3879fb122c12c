package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A reader who opens any production package finds a {@code package-info.java} that says where
 * to start reading: every directory of a {@code src/main/java} tree that holds Java classes has
 * one, and it names the class to read first.
 */
class PackageInfoTests {

  private static Path root() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("mvnw")) && Files.isDirectory(d.resolve("tests-integration"))) {
        return d;
      }
    }
    throw new IllegalStateException("no directory with mvnw and tests-integration above " + Path.of("").toAbsolutePath());
  }

  /** The directories under any module's src/main/java that hold a .java file. */
  private static TreeSet<Path> packages(Path root) throws IOException {
    TreeSet<Path> out = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> root.relativize(p).toString().replace('\\', '/').matches("[^/]+/src/main/java/.*"))
          .forEach(p -> out.add(p.getParent()));
    }
    return out;
  }

  @Test
  void everyProductionPackageSaysWhereToStartReading() throws IOException {
    Path root = root();
    TreeSet<Path> packages = packages(root);
    assertThat(packages).extracting(p -> root.relativize(p).getName(0).toString())
        .contains("hw-model", "kernel-core", "kernel-paths", "workloads", "lab", "lab-spark", "benchmarks");
    List<String> missing = new ArrayList<>();
    for (Path p : packages) {
      Path info = p.resolve("package-info.java");
      if (!Files.isRegularFile(info)) {
        missing.add(root.relativize(p) + ": no package-info.java");
        continue;
      }
      String text = Files.readString(info, StandardCharsets.UTF_8);
      if (!text.contains("Start reading with") && !text.contains("Start with") && !text.contains("is the entry point")) {
        missing.add(root.relativize(info) + ": says no class to start reading with");
      }
    }
    assertThat(missing).isEmpty();
  }
}
