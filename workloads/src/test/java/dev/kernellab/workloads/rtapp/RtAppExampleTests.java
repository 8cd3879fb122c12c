package dev.kernellab.workloads.rtapp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.workloads.WorkloadResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * rt-app's own example files (src/test/resources/rt-app, origin and licence in its README)
 * load unchanged and run under the four configurations, every thread writing log rows; the
 * last doc/taskset.json, in rt-app's 2014 grammar, too.
 */
class RtAppExampleTests {

  static List<Arguments> examples() {
    List<Arguments> out = new ArrayList<>();
    for (String f : List.of("example1.json", "example2.json", "example3.json", "example4.json", "example5.json",
        "taskset.json")) {
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

  /**
   * doc/taskset.json's blockages become the events rt-app 0.x's run() did: ThreadA works 1 ms on
   * r0, signals wait1 and works the rest of its 5 ms every 24 ms; ThreadB waits for that signal
   * under trig1_mutex, works 300 us on r0, signals wait2; ThreadC waits for that, works, and
   * syncs with ThreadD on wait3.
   */
  @Test
  void readsTheOldTasksetGrammarAsItsRtAppDid() {
    RtAppFile f = RtAppReader.read(RtAppKernels.resource("taskset.json"));
    assertThat(f.tasks()).extracting(RtAppFile.TaskDef::name).containsExactly("ThreadA", "ThreadB", "ThreadC", "ThreadD");
    RtAppFile.TaskDef a = f.tasks().get(0);
    assertThat(a.priority()).isEqualTo(-19);
    assertThat(a.cpus()).containsExactly(0);
    assertThat(a.phases().get(0).loop()).isEqualTo(-1);
    assertThat(a.phases().get(0).events()).containsExactly(
        new RtAppEvent.Run("run", 1000, false), new RtAppEvent.Signal("signal", "wait1"),
        new RtAppEvent.Run("exec", 4000, false), new RtAppEvent.Timer("period", "unique", true, 24000, true));
    RtAppFile.TaskDef b = f.tasks().get(1);
    assertThat(b.loop()).isEqualTo(-1);
    assertThat(b.phases()).extracting(RtAppFile.Phase::loop).containsExactly(1L, 2L);
    assertThat(b.phases().get(1).events()).containsExactly(
        new RtAppEvent.Lock("lock", "trig1_mutex"), new RtAppEvent.Wait("wait", "wait1", "trig1_mutex"),
        new RtAppEvent.Unlock("unlock", "trig1_mutex"), new RtAppEvent.Run("run", 300, false),
        new RtAppEvent.Signal("signal", "wait2"), new RtAppEvent.Run("exec", 3700, false));
    assertThat(f.tasks().get(2).phases().get(0).events()).containsExactly(
        new RtAppEvent.Lock("lock", "trig2_mutex"), new RtAppEvent.Wait("wait", "wait2", "trig2_mutex"),
        new RtAppEvent.Unlock("unlock", "trig2_mutex"), new RtAppEvent.Run("run", 1000, false),
        new RtAppEvent.Lock("lock", "trig3_mutex"), new RtAppEvent.Sync("sync", "wait3", "trig3_mutex"),
        new RtAppEvent.Unlock("unlock", "trig3_mutex"), new RtAppEvent.Run("exec", 150, false));
    assertThat(f.tasks().get(3).phases().get(0).events()).containsExactly(
        new RtAppEvent.Lock("lock", "trig3_mutex"), new RtAppEvent.Wait("wait", "wait3", "trig3_mutex"),
        new RtAppEvent.Unlock("unlock", "trig3_mutex"), new RtAppEvent.Run("run", 300, false),
        new RtAppEvent.Lock("lock", "trig3_mutex"), new RtAppEvent.Signal("signal", "wait3"),
        new RtAppEvent.Unlock("unlock", "trig3_mutex"));
  }

  /** The chain A -> B -> C <-> D keeps to A's 24 ms period: each thread runs once a period. */
  @Test
  void theOldTasksetsChainKeepsToThreadAsPeriod() {
    RtAppWorkload w = RtAppWorkload.fromFile(RtAppKernels.resource("taskset.json"));
    RtAppKernels.Ran r = RtAppKernels.run(w, "vanilla", 1, 2_400_000_000L, false);
    List<RtAppLog> logs = RtAppWorkload.logs(r.run());
    // 2.4 s of 24 ms periods: A's 100 rows. Each of B's phase runs waits for one of A's signals,
    // C for one of B's, D for C's sync. A signal sent before its waiter waits is lost, as in
    // rt-app (A signals wait1 without trig1_mutex): the first period's may be, and the last
    // period's chain may not have ended when the run does.
    assertThat(logs.get(0).rows()).isBetween(99L, 101L);
    for (RtAppLog l : logs.subList(1, 4)) {
      assertThat(l.rows()).as(l.thread()).isBetween(97L, 101L);
    }
  }
}
