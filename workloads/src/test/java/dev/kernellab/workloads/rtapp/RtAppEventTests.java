package dev.kernellab.workloads.rtapp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.workloads.WorkloadResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each supported event's effect at the kernel's level, on a uniprocessor at HZ 100 with no
 * daemons (a 2-CPU one where said): what the thread's log and the workload's figures show.
 */
class RtAppEventTests {

  private static final long S = 1_000_000_000L;

  private static RtAppLog log(RtAppKernels.Ran r, int thread) {
    return RtAppWorkload.logs(r.run()).get(thread);
  }

  private static WorkloadResult result(RtAppKernels.Ran r) {
    return r.run().result(r.kernel());
  }

  @Test
  void anAbsoluteFifoTimerKeepsItsPeriodUnderACpuHog() {
    String json = """
        { "tasks": {
            "tick": { "policy": "SCHED_FIFO", "priority": 50, "run": 2000,
                      "timer": { "ref": "unique", "period": 10000, "mode": "absolute" } }%s } }""";
    RtAppKernels.Ran alone = RtAppKernels.run(json.formatted(""), "vanilla", 1, 2 * S);
    RtAppKernels.Ran loaded = RtAppKernels.run(json.formatted(", \"hog\": { \"run\": 100000 }"), "vanilla", 1, 2 * S);
    // 2 s at 10 ms: no activation lost or added by the hog, no drift
    assertThat(log(alone, 0).rows()).isBetween(198L, 201L);
    assertThat(log(loaded, 0).rows()).isEqualTo(log(alone, 0).rows());
    assertThat(log(loaded, 1).rows()).isPositive(); // the hog ran too
    RtAppLog tick = log(loaded, 0);
    for (int n = 0; n < tick.kept(); n++) {
      assertThat(tick.value(n, "c_period")).isEqualTo(10_000);
      // 2.4's nanosleep: whole jiffies plus one, so up to two jiffies late, never more
      assertThat(tick.value(n, "wu_lat")).as("row %d", n).isLessThanOrEqualTo(20_100);
    }
    assertThat(result(loaded).probes().get(0).latency().samples()).isPositive();
  }

  @Test
  void aTimerFoundPassedIsAnOverrunWithNegativeSlackAndNoWakeUp() {
    String json = """
        { "tasks": { "tick": { "policy": "SCHED_FIFO", "priority": 50, "run": 2000,
                               "timer": { "ref": "unique", "period": 10000, "mode": "%s" } } } }""";
    RtAppKernels.Ran r = RtAppKernels.run(json.formatted("relative"), "vanilla", 1, 2 * S);
    RtAppKernels.Ran abs = RtAppKernels.run(json.formatted("absolute"), "vanilla", 1, 2 * S);
    // a wake-up two jiffies late can find the next expiry passed: rt-app does not sleep, logs a
    // negative slack and a wu_lat of 0, and (relative mode) restarts the timer from now
    for (RtAppKernels.Ran x : List.of(r, abs)) {
      assertThat(result(x).counters().get("timer_overruns")).isPositive();
      RtAppLog l = log(x, 0);
      boolean seen = false;
      for (int n = 0; n < l.kept(); n++) {
        seen |= l.value(n, "slack") < 0 && l.value(n, "wu_lat") == 0;
      }
      assertThat(seen).isTrue();
    }
  }

  @Test
  void sleepIsTwoFourNanosleepWholeJiffiesPlusOne() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": { "s": { "run": 100, "sleep": 5000 } } }""", "vanilla", 1, S);
    RtAppLog s = log(r, 0);
    for (int n = 1; n < s.kept(); n++) {
      // 5 ms is one jiffy rounded up, plus one: 10..20 ms, never the 5 ms asked for
      assertThat(s.value(n, "period")).as("row %d", n).isBetween(10_000L, 20_200L);
    }
  }

  @Test
  void aShortSleepOfARealTimeTaskBusyWaitsExactly() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": { "s": { "policy": "SCHED_RR", "run": 100, "sleep": 1000 } } }""", "vanilla", 1, S / 10);
    RtAppLog s = log(r, 0);
    for (int n = 1; n < s.kept(); n++) {
      assertThat(s.value(n, "period")).as("row %d", n).isBetween(1_090L, 1_120L); // udelay(1000 us) + run
    }
  }

  @Test
  void runIsCalibratedWorkAndAForeignCalibrationScalesIt() {
    RtAppKernels.Ran own = RtAppKernels.run("""
        { "tasks": { "r": { "run": 3000, "sleep": 20000 } } }""", "vanilla", 1, S / 2);
    assertThat(log(own, 0).value(1, "run")).isBetween(2_990L, 3_010L);
    assertThat(log(own, 0).value(1, "c_duration")).isEqualTo(3_000);
    RtAppKernels.Ran fast = RtAppKernels.run("""
        { "tasks": { "r": { "run": 3000, "sleep": 20000 } }, "global": { "calibration": 300 } }""", "vanilla", 1, S / 2);
    // calibrated at 300 ns a loop elsewhere: 10,000 loops of this machine's 600 ns
    assertThat(log(fast, 0).value(1, "run")).isBetween(5_990L, 6_010L);
    assertThat(log(fast, 0).value(1, "perf")).isEqualTo(10);
  }

  @Test
  void runtimeCountsWallTimeWhilePreempted() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": {
            "rt": { "policy": "SCHED_FIFO", "priority": 60, "run": 5000, "timer": { "ref": "unique", "period": 10000 } },
            "w":  { "runtime": 30000, "sleep": 30000 } } }""", "vanilla", 1, S);
    RtAppLog w = log(r, 1);
    // 30 ms of wall time, of which the FIFO task takes half: run says 30 ms all the same
    assertThat(w.value(1, "run")).isBetween(30_000L, 30_100L);
  }

  @Test
  void memFaultsTheBufferInOnlyTheFirstTimeUnlessPagesAreLocked() {
    String json = """
        { "tasks": { "m": { "mem": 1048576, "timer": { "ref": "unique", "period": 50000, "mode": "absolute" } } },
          "global": { "lock_pages": %s } }""";
    RtAppKernels.Ran faults = RtAppKernels.run(json.formatted("false"), "vanilla", 1, S);
    // the 256 first touches (do_anonymous_page, 4 us each) happen in the first memset only
    assertThat(memUs(log(faults, 0), 0) - memUs(log(faults, 0), 2)).isBetween(256 * 4L - 5, 256 * 6L);
    RtAppKernels.Ran locked = RtAppKernels.run(json.formatted("true"), "vanilla", 1, S);
    assertThat(Math.abs(memUs(log(locked, 0), 0) - memUs(log(locked, 0), 2))).isLessThan(20L);
  }

  /**
   * The time row {@code n}'s mem event took, from the slack its timer found: the row starts at
   * the previous expiry plus that wake-up's lateness; row 0 at rel_st after t_zero (mlockall
   * runs in between).
   */
  private static long memUs(RtAppLog l, int n) {
    long lateStart = n == 0 ? l.value(0, "rel_st") : l.value(n - 1, "wu_lat");
    return 50_000 - lateStart - l.value(n, "slack");
  }

  @Test
  void iorunToAFileGoesThroughThePageCacheAndToDevNullCostsASyscall() {
    String json = """
        { "tasks": { "io": { "iorun": 262144, "sleep": 50000 } }, "global": { "io_device": "%s", "lock_pages": false } }""";
    RtAppKernels.Ran nul = RtAppKernels.run(json.formatted("/dev/null"), "vanilla", 1, S);
    RtAppKernels.Ran file = RtAppKernels.run(json.formatted("/tmp/io.dat"), "vanilla", 1, S);
    long nulBusy = nul.kernel().task("io-0").orElseThrow().runtimeNs();
    long fileBusy = file.kernel().task("io-0").orElseThrow().runtimeNs();
    assertThat(fileBusy).isGreaterThan(10 * nulBusy); // 64 pages copied into the page cache each time
  }

  @Test
  void aMutexWithPiEnabledReportsTheInversionA24KernelCannotAvoid() {
    // low takes the mutex and holds it for 40 ms of CPU; high and medium ask to sleep 5 and 6 ms,
    // which 2.4's nanosleep makes two jiffies: both wake at the 20 ms tick, high blocks on the
    // mutex, medium runs its 50 ms, and only then low its last 20 ms: high waits 70 ms
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": {
            "low":    { "policy": "SCHED_FIFO", "priority": 10, "loop": 1, "lock": "m", "run": 40000, "unlock": "m" },
            "high":   { "policy": "SCHED_FIFO", "priority": 90, "delay": 5000, "loop": 1, "lock": "m", "run": 100, "unlock": "m" },
            "medium": { "policy": "SCHED_FIFO", "priority": 50, "delay": 6000, "loop": 1, "run": 50000 } },
          "global": { "pi_enabled": true } }""", "preempt", 1, S / 5);
    var counters = result(r).counters();
    assertThat(counters.get("pi_enabled")).isEqualTo(1);
    assertThat(counters.get("mutex_inversions")).isEqualTo(1);
    assertThat(counters.get("mutex_inversion_worst_us")).isBetween(69_000L, 71_500L);
  }

  @Test
  void waitAndSignalPairTheThreadsLoops() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": {
            "consumer": { "lock": "m", "wait": { "ref": "q", "mutex": "m" }, "unlock": "m", "run": 1000 },
            "producer": { "delay": 1000, "run": 5000, "lock": "m", "signal": "q", "unlock": "m", "sleep": 10000 } } }""",
        "vanilla", 1, S);
    long consumed = log(r, 0).rows();
    long produced = log(r, 1).rows();
    assertThat(consumed).isPositive();
    assertThat(Math.abs(consumed - produced)).isLessThanOrEqualTo(1);
  }

  @Test
  void aBarrierHoldsTheFasterThreadToTheSlowerOnesPace() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": {
            "fast": { "run": 1000, "barrier": "b" },
            "slow": { "run": 9000, "barrier": "b", "sleep": 1000 } } }""", "vanilla", 2, S);
    long fast = log(r, 0).rows();
    long slow = log(r, 1).rows();
    assertThat(Math.abs(fast - slow)).isLessThanOrEqualTo(1);
    assertThat(slow).isBetween(40L, 110L);
  }

  @Test
  void suspendAndResumeAlternateTwoThreads() {
    RtAppWorkload w = RtAppWorkload.fromFile(RtAppKernels.resource("example4.json"));
    RtAppKernels.Ran r = RtAppKernels.run(w, "vanilla", 2, S, false);
    RtAppLog t0 = log(r, 0);
    RtAppLog t1 = log(r, 1);
    assertThat(Math.abs(t0.rows() - t1.rows())).isLessThanOrEqualTo(1);
    // on two CPUs they still take turns: about 10 ms each, one at a time
    assertThat(t0.rows() + t1.rows()).isBetween(90L, 101L);
  }

  /**
   * Two SCHED_FIFO threads of one priority on one CPU: with {@code yield} after each run they
   * take turns, on either scheduler; without it the first keeps the CPU and the other never logs
   * a row.
   */
  @ParameterizedTest
  @ValueSource(strings = {"goodness", "o1"})
  void yieldHandsTheCpuToAThreadOfTheSamePriority(String scheduler) {
    String json = """
        { "tasks": {
            "a": { "policy": "SCHED_FIFO", "priority": 50, "run": 1000%1$s },
            "b": { "policy": "SCHED_FIFO", "priority": 50, "run": 1000%1$s } } }""";
    RtAppKernels.Ran hog = RtAppKernels.run(new RtAppWorkload(RtAppReader.parse("t.json", json.formatted(""))),
        scheduler, "vanilla", 1, S / 10, false);
    assertThat(Math.min(log(hog, 0).rows(), log(hog, 1).rows())).isZero();
    RtAppKernels.Ran turns = RtAppKernels.run(
        new RtAppWorkload(RtAppReader.parse("t.json", json.formatted(", \"yield\": \"\""))),
        scheduler, "vanilla", 1, S / 10, false);
    long a = log(turns, 0).rows();
    long b = log(turns, 1).rows();
    assertThat(a + b).isGreaterThan(90); // 100 ms of 1 ms runs
    assertThat(Math.abs(a - b)).as("rows of a and b: %d, %d", a, b).isLessThanOrEqualTo(1);
  }

  @Test
  void theFilesDurationEndsTheThreads() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": { "t": { "run": 1000, "timer": { "ref": "unique", "period": 10000 } } }, "global": { "duration": 1 } }""",
        "vanilla", 1, 3 * S);
    assertThat(log(r, 0).rows()).isBetween(99L, 101L);
    assertThat(r.kernel().allTasks().stream().filter(t -> t.state() != dev.kernellab.kernel.spi.TaskState.ZOMBIE && t.state() != dev.kernellab.kernel.spi.TaskState.DEAD).map(t -> t.comm()).toList()).doesNotContain("t-0");
  }

  @Test
  void theLogIsRtAppsFormat() {
    RtAppKernels.Ran r = RtAppKernels.run("""
        { "tasks": { "t": { "run": 1000, "timer": { "ref": "unique", "period": 10000 } } } }""", "vanilla", 1, S / 10);
    List<String> lines = log(r, 0).lines();
    assertThat(lines.get(0)).isEqualTo(
        "#idx     perf      run   period           start             end          rel_st      slack c_duration   c_period     wu_lat");
    assertThat(lines.get(1).trim().split(" +")).hasSize(11);
  }

  @Test
  void theLogFilesAreNamedAsRtAppNamesThemAndLogSizeDisableWritesNone() {
    String json = """
        { "tasks": { "t": { "instance": 2, "run": 1000, "sleep": 10000 } }%s }""";
    RtAppKernels.Ran r = RtAppKernels.run(json.formatted(", \"global\": {}"), "vanilla", 1, S / 10);
    List<RtAppLogFile> files = RtAppWorkload.logFiles(r.run());
    assertThat(files).extracting(RtAppLogFile::name).containsExactly("rt-app-t-0.log", "rt-app-t-1.log");
    assertThat(files.get(1).text().lines().toList()).isEqualTo(log(r, 1).lines());
    assertThat(files.get(1).rows()).hasSize(log(r, 1).kept()).allMatch(row -> row.idx() == 1);
    assertThat(files.get(1).rowsWritten()).isEqualTo(log(r, 1).rows()).isPositive();

    RtAppKernels.Ran named = RtAppKernels.run(json.formatted(", \"global\": { \"log_basename\": \"audio\" }"),
        "vanilla", 1, S / 10);
    assertThat(RtAppWorkload.logFiles(named.run())).extracting(RtAppLogFile::name)
        .containsExactly("audio-t-0.log", "audio-t-1.log");
    // No global section at all: parse_global's defaults set logsize = 0, and rt-app logs nothing.
    RtAppKernels.Ran bare = RtAppKernels.run(json.formatted(""), "vanilla", 1, S / 10);
    assertThat(RtAppWorkload.logFiles(bare.run())).as("no global").isEmpty();
    for (String off : List.of("\"disable\"", "0")) {
      RtAppKernels.Ran none = RtAppKernels.run(json.formatted(", \"global\": { \"log_size\": " + off + " }"),
          "vanilla", 1, S / 10);
      assertThat(RtAppWorkload.logFiles(none.run())).as(off).isEmpty();
      assertThat(log(none, 0).rows()).as("the rows are still kept: %s", off).isPositive();
    }
  }
}
