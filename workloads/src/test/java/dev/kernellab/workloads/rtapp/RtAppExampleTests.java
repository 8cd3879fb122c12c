package dev.kernellab.workloads.rtapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.workloads.WorkloadResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * rt-app's own example files (src/test/resources/rt-app, origin and licence in its README)
 * load unchanged and run under the four configurations, every thread writing log rows.
 */
class RtAppExampleTests {

  static List<Arguments> examples() {
    List<Arguments> out = new ArrayList<>();
    for (String f : List.of("example1.json", "example2.json", "example3.json", "example4.json", "example5.json")) {
      for (String c : List.of("vanilla", "preempt", "lowlat", "preempt+lowlat")) {
        out.add(Arguments.of(f, c));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} under {1}")
  @MethodSource("examples")
  void runsUnderEveryConfiguration(String file, String config) {
    RtAppWorkload w = RtAppWorkload.fromFile(RtAppKernels.resource(file));
    int cpus = file.equals("example5.json") ? 2 : 1; // example5 pins a thread to CPU 1
    RtAppKernels.Ran r = RtAppKernels.run(w, config, cpus, 1_500_000_000L, true);
    WorkloadResult res = r.run().result(r.kernel());
    List<RtAppLog> logs = RtAppWorkload.logs(r.run());
    System.out.println(file + " " + config + ": " + res.probes().get(0).latency() + " " + res.counters());
    assertThat(logs).hasSize(w.file().threads());
    assertThat(logs).allSatisfy(l -> assertThat(l.rows()).as(l.thread()).isPositive());
    if (w.file().tasks().stream().anyMatch(RtAppFile.TaskDef::hasTimer)) {
      assertThat(res.probes().get(0).latency().samples()).isPositive();
    }
  }

  @Test
  void readsRepeatedKeysAsEventsInFileOrder() {
    RtAppFile f = RtAppReader.read(RtAppKernels.resource("example5.json"));
    assertThat(f.tasks().get(1).phases().get(0).events()).extracting(RtAppEvent::key)
        .containsExactly("lock", "wait", "unlock", "run", "suspend", "run", "suspend", "run");
    assertThat(f.tasks().get(0).phases().get(1).events()).extracting(RtAppEvent::key)
        .containsExactly("lock", "run", "signal", "run", "unlock", "run", "resume", "timer");
  }

  @Test
  void refusesTheOldTasksetGrammarAsRtAppDoes() {
    // doc/taskset.json is rt-app 0.x's grammar (exec, period, lock_order, resources with
    // durations, resource types signal/sync/run); rt-app of today cannot run it either.
    assertThatThrownBy(() -> RtAppReader.read(RtAppKernels.resource("taskset.json")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resources.trig1.type").hasMessageContaining("unknown resource type 'signal'");
  }
}
