package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * A plug-in patch adds a cause of latency of its own type, and {@code explain} names it in the
 * patch's words, with no line of the lab changed for it.
 */
class PluginCauseTests {

  @Test
  void explainNamesTheCauseAPluginPatchDeclared() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = KernelLab.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
        .execute("explain", "--workload", "idle", "--config", "apm-test", "--duration", "1s", "--worst", "1", "--quiet");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("culprit: wait for the CPU")
        .containsPattern("APM BIOS call APM_GET_EVENT by kapmd\\[\\d+\\] for \\d+\\.\\d us");
  }
}
