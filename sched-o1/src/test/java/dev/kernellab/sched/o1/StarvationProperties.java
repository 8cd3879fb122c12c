package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Fixture.e;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.kernel.Task;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariants 11 and 12 of docs/scheduler-invariants.md on one CPU with only CPU-bound SCHED_OTHER
 * tasks (no wake-ups, no RT, no yield; with those no bound exists, since woken and RT tasks
 * always enter the active array).
 */
class StarvationProperties {

  @Test
  void everyExpiredTaskRunsWithinTheStarvationBound() {
    qt().withFixedSeed(0x11L)
        .withExamples(60)
        .forAll(lists().of(integers().between(0, 200)).ofSizeBetween(2, 8),
            integers().between(-20, 19))
        .checkAssert((sleepAvgs, nice) -> {
          O1Fixture f = new O1Fixture(1);
          O1Tunables t = O1Tunables.forHz(100);
          List<Task> tasks = new ArrayList<>();
          for (int sa : sleepAvgs) {
            Task x = f.task(0, nice);
            e(x).sleepAvg = sa; // some start interactive and recycle into active for a while
            tasks.add(x);
          }
          int n = tasks.size();
          long bound = (long) t.starvationLimitTicks() * n + 1 + (long) n * t.maxTimesliceTicks();
          long[] expiredAt = new long[n];
          f.h.schedule(0);
          for (int tick = 0; tick < 3_000; tick++) {
            f.run(1);
            for (int i = 0; i < n; i++) {
              Task x = tasks.get(i);
              boolean waiting = e(x).array == f.rq(0).expired;
              if (waiting && expiredAt[i] == 0) {
                expiredAt[i] = f.h.jiffies();
              } else if (!waiting) {
                expiredAt[i] = 0;
              }
              if (f.h.current(0) == x) {
                expiredAt[i] = 0;
              }
              assertThat(expiredAt[i] == 0 || f.h.jiffies() - expiredAt[i] <= bound)
                  .as("%s waited in expired more than %d ticks", x, bound).isTrue();
            }
          }
        });
  }

  @Test
  void hogsOfEqualNiceGetEqualTicksPerEpochWithinOneSlice() {
    O1Fixture f = new O1Fixture(1);
    List<Task> hogs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      hogs.add(f.hog(0));
    }
    long[] ticks = runCounting(f, hogs, 15 * 5 * 40);
    long min = Long.MAX_VALUE;
    long max = 0;
    for (long x : ticks) {
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    assertThat(max - min).isLessThanOrEqualTo(15);
  }

  @Test
  void hogsOfDifferentNiceGetTicksInProportionToTheirTimeslice() {
    O1Fixture f = new O1Fixture(1);
    int[] nices = {-20, -5, 0, 10, 19};
    List<Task> hogs = new ArrayList<>();
    int epoch = 0;
    O1Tunables t = O1Tunables.forHz(100);
    for (int nice : nices) {
      hogs.add(f.task(0, nice));
      epoch += t.taskTimeslice(O1Tunables.niceToPrio(nice));
    }
    int epochs = 30;
    long[] ticks = runCounting(f, hogs, epoch * epochs);
    for (int i = 0; i < nices.length; i++) {
      int slice = t.taskTimeslice(O1Tunables.niceToPrio(nices[i]));
      assertThat(Math.abs(ticks[i] - (long) slice * epochs))
          .as("nice %d: %d ticks, slice %d", nices[i], ticks[i], slice)
          .isLessThanOrEqualTo(slice);
    }
  }

  private static long[] runCounting(O1Fixture f, List<Task> hogs, int n) {
    long[] ticks = new long[hogs.size()];
    f.h.schedule(0);
    for (int i = 0; i < n; i++) {
      ticks[hogs.indexOf(f.h.current(0))]++;
      f.run(1);
    }
    return ticks;
  }
}
