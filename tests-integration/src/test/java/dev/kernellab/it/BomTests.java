package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The BOM has no parent, so nothing ties it to the build but this: its version and its list. */
class BomTests {

  /** Modules that are the build's own, not a library user's. */
  static final List<String> NOT_IN_BOM = List.of("bom", "benchmarks", "tests-integration");

  private static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("mvnw"))) {
      p = p.getParent();
    }
    assertThat(p).as("the repository root").isNotNull();
    return p;
  }

  private static List<String> all(String text, String regex) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static String ownVersion(String pom) {
    String withoutParent = pom.replaceAll("(?s)<parent>.*?</parent>", "");
    String beforeDependencies = withoutParent.split("<dependencyManagement>|<dependencies>", 2)[0];
    return all(beforeDependencies, "<version>([^<]+)</version>").get(0);
  }

  @Test
  void theBomHasTheBuildsVersionAndEveryLibraryModule() throws Exception {
    Path root = root();
    String parent = Files.readString(root.resolve("pom.xml"));
    String bom = Files.readString(root.resolve("bom/pom.xml"));
    assertThat(ownVersion(bom)).isEqualTo(ownVersion(parent));
    List<String> libraries = new ArrayList<>(all(parent, "<module>([^<]+)</module>"));
    libraries.removeAll(NOT_IN_BOM);
    List<String> managed = all(bom, "<artifactId>([^<]+)</artifactId>\\s*<version>\\$\\{project\\.version\\}</version>");
    assertThat(managed).containsExactlyInAnyOrderElementsOf(libraries);
  }
}
