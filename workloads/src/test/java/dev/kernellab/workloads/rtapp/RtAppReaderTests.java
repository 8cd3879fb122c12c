package dev.kernellab.workloads.rtapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The lenient grammar, and one line with the JSON path for each kind of bad input. */
class RtAppReaderTests {

  private static RtAppFile read(String json) {
    return RtAppReader.parse("f.json", json);
  }

  @Test
  void acceptsCommentsTrailingCommasAndRepeatedKeys() {
    RtAppFile f = read("""
        // a comment
        { "tasks": { "t": { /* block */ "run": 1, "sleep": 2, "run": 3, "runtime": 4, "run_b": 5, }, },
          "global": { "default_policy": "SCHED_FIFO", "calibration": "CPU0", "gnuplot": true, }, }""");
    RtAppFile.TaskDef t = f.tasks().get(0);
    assertThat(t.phases().get(0).events()).containsExactly(
        new RtAppEvent.Run("run", 1, false), new RtAppEvent.Sleep("sleep", 2), new RtAppEvent.Run("run", 3, false),
        new RtAppEvent.Run("runtime", 4, true), new RtAppEvent.Run("run_b", 5, false));
    assertThat(t.policy()).isEqualTo(SchedPolicy.FIFO);
    assertThat(t.priority()).isEqualTo(RtAppReader.DEFAULT_RT_PRIORITY);
    assertThat(t.loop()).isEqualTo(-1);
  }

  @Test
  void aTaskWithLoopAndNoPhasesRunsItsPhaseLoopTimesOnce() {
    RtAppFile.TaskDef t = read("""
        { "tasks": { "t": { "loop": 3, "instance": 2, "run": 1 } } }""").tasks().get(0);
    assertThat(t.loop()).isEqualTo(1);
    assertThat(t.phases().get(0).loop()).isEqualTo(3);
    assertThat(t.instance()).isEqualTo(2);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{ \"tasks\": { \"t\": { \"run\": 1 } }                                  | malformed JSON at line 1 column 33: the file ends inside an object",
      "{ \"tasks\": { \"t\": { \"spin\": 1 } } }                               | tasks.t.spin (line 1): unknown event or key",
      "{ \"tasks\": { \"t\": { \"run\": -5 } } }                               | tasks.t.run (line 1): a negative duration: -5 us",
      "{ \"tasks\": { \"t\": { \"resume\": \"nobody\", \"run\": 1 } } }        | tasks.t.resume (line 1): unknown resource: no task named 'nobody' to resume",
      "{ \"resources\": { \"m\": { \"type\": \"wait\" } }, \"tasks\": { \"t\": { \"lock\": \"m\" } } } | tasks.t.lock (line 1): unknown resource: 'm' is declared as a wait, not a mutex",
      "{ \"tasks\": { \"t\": { \"policy\": \"SCHED_DEADLINE\", \"run\": 1 } } } | tasks.t.policy (line 1): not supported: SCHED_DEADLINE",
      "{ \"tasks\": { \"t\": { \"dl-runtime\": 100, \"run\": 1 } } }           | tasks.t.dl-runtime (line 1): not supported: SCHED_DEADLINE parameters",
      "{ \"tasks\": { \"t\": { \"util_min\": 100, \"run\": 1 } } }             | tasks.t.util_min (line 1): not supported: utilization clamping",
      "{ \"tasks\": { \"t\": { \"util_max\": 100, \"run\": 1 } } }             | tasks.t.util_max (line 1): not supported: utilization clamping",
      "{ \"tasks\": { \"t\": { \"taskgroup\": \"/a\", \"run\": 1 } } }         | tasks.t.taskgroup (line 1): not supported: a CPU cgroup",
      "{ \"tasks\": { \"t\": { \"nodes_membind\": [0], \"run\": 1 } } }        | tasks.t.nodes_membind (line 1): not supported: a NUMA memory binding",
      "{ \"tasks\": { \"t\": { \"memrun\": 10, \"run\": 1 } } }               | tasks.t.memrun (line 1): not supported: the memrun event",
      "{ \"tasks\": { \"t\": { \"fork\": \"t\" } } }                           | tasks.t.fork (line 1): not supported: the fork event",
      "{ \"tasks\": { \"t\": { \"policy\": \"SCHED_FIFO\", \"priority\": 0, \"run\": 1 } } } | tasks.t.priority (line 1): a SCHED_FIFO/RR priority is 1..99, got 0",
      "{ \"tasks\": { \"t\": { \"loop\": 1 } } }                               | tasks.t (line 1): no events",
      "{ \"task\": { } }                                                       | task (line 1): unknown key",
      "{ \"resources\": { \"m\": { \"type\": \"mutex\" } }, \"tasks\": { \"t\": { \"exec\": 100, \"lock_order\": [\"x\"] } } } | tasks.t.lock_order[0] (line 1): unknown resource 'x'",
      "{ \"resources\": { \"w\": { \"type\": \"wait\" } }, \"tasks\": { \"t\": { \"exec\": 100, \"lock_order\": [\"w\"] } } } | tasks.t.lock_order[0] (line 1): a wait ('w') needs a mutex just before it",
      "{ \"tasks\": { \"t\": { \"phases\": { \"a\": { \"exec\": 100 }, \"b\": { \"exec\": 100 } } } } } | tasks.t.phases.a (line 1): not supported: a periodic phase (sleep, the default) among several",
      "{ \"resources\": 2, \"tasks\": { \"t\": { \"exec\": 100, \"lock_order\": [0] } } } | resources (line 1): not supported: a number of resources",
      "{ \"tasks\": { \"t\": { \"exec\": 300, \"period\": 200 } } }       | tasks.t.exec (line 1): exec (300 us) is longer than the period (200 us)",
      "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"global\": { \"log_basename\": \"../x\" } } | global.log_basename (line 1): log_basename is the beginning of a file name",
      "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"global\": { \"log_size\": \"big\" } } | global.log_size (line 1): log_size is MB, or \"file\", \"auto\" or \"disable\"; got \"big\"",
      "{ \"tasks\": { \"t\": { \"phases\": { \"p\": { \"cpus\": [0], \"run\": 1 } } } } } | tasks.t.phases.p.cpus (line 1): not supported yet: a policy, priority or affinity change between phases",
  })
  void refusesBadInputInOneLineWithThePath(String json, String message) {
    assertThatThrownBy(() -> read(json))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("rt-app file f.json: " + message.trim())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aMissingFileIsOneLine() {
    assertThatThrownBy(() -> RtAppReader.read(java.nio.file.Path.of("/nonexistent/x.json")))
        .hasMessageStartingWith("rt-app file /nonexistent/x.json: cannot be read");
  }

  @Test
  void aPinToACpuTheMachineLacksIsRefused() {
    RtAppWorkload w = new RtAppWorkload(read("{ \"tasks\": { \"t\": { \"cpus\": [1], \"run\": 1 } } }"));
    w.checkMachine(2);
    assertThatThrownBy(() -> w.checkMachine(1)).hasMessageContaining("tasks.t.cpus: CPU 1 does not exist on a machine of 1 CPU");
  }
}
