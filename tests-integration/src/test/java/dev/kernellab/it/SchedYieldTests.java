package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.kernel.Sched;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * sys_sched_yield (the catalog's path, kernel-core's {@code schedYield()}) on each scheduler,
 * for SCHED_FIFO and SCHED_OTHER tasks on a uniprocessor: two CPU-bound tasks of the same
 * priority that yield after each 100 us of work share the CPU; the same two that make no call
 * do not (the first keeps the CPU: a SCHED_FIFO task until it blocks, a SCHED_OTHER one for its
 * time slice, longer than the 40 ms run); a task alone that yields keeps the CPU.
 */
class SchedYieldTests {

  private static final long MS = 1_000_000;
  private static final long WORK_NS = 100_000;

  static Stream<Arguments> schedulersAndPolicies() {
    List<Arguments> out = new ArrayList<>();
    SchedulerProvider.all().forEach(p -> {
      out.add(Arguments.of(p.name(), SchedPolicy.FIFO));
      out.add(Arguments.of(p.name(), SchedPolicy.OTHER));
    });
    return out.stream();
  }

  /** Rounds of work each task finished in {@code ns}: tasks {@code a}, then {@code b} if there. */
  private static long[] rounds(String scheduler, SchedPolicy policy, boolean yield, int tasks, long ns) {
    long[] done = new long[tasks];
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(SchedulerProvider.create(scheduler));
    for (int i = 0; i < tasks; i++) {
      int me = i;
      String comm = i == 0 ? "a" : "b";
      KernelPath program = KernelPath.userProgram(comm)
          .loopWhile("work", c -> true, l -> {
            l.compute(WORK_NS).probe((c, t, now) -> done[me]++);
            if (yield) {
              l.syscall(Sched.sysSchedYield());
            }
          })
          .build();
      TaskSpec t = TaskSpec.user(comm, program);
      b.task(policy == SchedPolicy.FIFO ? t.fifo(50) : t.nice(0));
    }
    Kernel k = b.build();
    k.run(ns);
    k.checkInvariants();
    return done;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("schedulersAndPolicies")
  void aYieldingTaskLetsARunnableTaskOfItsPriorityRun(String scheduler, SchedPolicy policy) {
    long[] without = rounds(scheduler, policy, false, 2, 40 * MS);
    assertThat(Math.min(without[0], without[1])).as("without sched_yield one task keeps the CPU").isZero();

    long[] with = rounds(scheduler, policy, true, 2, 40 * MS);
    long total = with[0] + with[1];
    // 40 ms of 100 us rounds, less the switches
    assertThat(total).isGreaterThan(300);
    assertThat(Math.min(with[0], with[1])).as("rounds of a and b: %d, %d", with[0], with[1])
        .isGreaterThan(total / 3);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("schedulersAndPolicies")
  void aTaskAloneKeepsTheCpuWhenItYields(String scheduler, SchedPolicy policy) {
    long alone = rounds(scheduler, policy, true, 1, 40 * MS)[0];
    long noCall = rounds(scheduler, policy, false, 1, 40 * MS)[0];
    // the same work, less only the calls' own cost: nobody else ran
    assertThat(alone).isGreaterThan(noCall * 95 / 100);
  }
}
