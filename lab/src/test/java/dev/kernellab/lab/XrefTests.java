package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class XrefTests {

  @Test
  void docsXrefIsTheTableTheCodeGivesToday() throws Exception {
    List<Xref.Entry> entries = Xref.scan();
    assertThat(entries).hasSizeGreaterThan(50);
    assertThat(entries).anyMatch(e -> e.file().equals("kernel/sched.c") && e.function().equals("scheduler_tick"));
    assertThat(entries).noneMatch(e -> e.element().contains("Tests") || e.element().contains("Rig"));
    Path doc = Path.of("..", "docs", "xref.md");
    assertThat(Files.readString(doc))
        .as("docs/xref.md is stale: regenerate it with ./kernel-lab xref -o docs/xref.md")
        .isEqualTo(Xref.markdown(entries));
  }

  @Test
  void everyEntryNamesAFileAFunctionAndAVersion() {
    for (Xref.Entry e : Xref.scan()) {
      assertThat(e.file()).as(e.toString()).matches("[\\w./+-]+\\.[chS]|[\\w./+-]+");
      assertThat(e.function()).as(e.toString()).isNotBlank();
      assertThat(e.version()).as(e.toString()).isNotBlank();
    }
  }
}
