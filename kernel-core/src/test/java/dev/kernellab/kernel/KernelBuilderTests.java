package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import org.junit.jupiter.api.Test;

class KernelBuilderTests {

  private static KernelBuilder up() {
    return new KernelBuilder(MachineSpec.uniprocessor(), 1);
  }

  @Test
  void rejectsAKernelWithoutScheduler() {
    assertThatThrownBy(() -> up().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no scheduler: choose one (e.g. o1, goodness)");
  }

  @Test
  void rejectsTwoSchedulers() {
    assertThatThrownBy(
            () -> up().scheduler(new SimpleRoundRobinScheduler())
                .scheduler(new SimpleRoundRobinScheduler()).build())
        .hasMessage("two schedulers given: a kernel has exactly one");
  }

  @Test
  void rejectsAPatchTwice() {
    assertThatThrownBy(
            () -> up().scheduler(new SimpleRoundRobinScheduler())
                .patch(CountZeroPreemption.patch()).patch(CountZeroPreemption.patch()).build())
        .hasMessage("patch test-preempt given twice");
  }

  @Test
  void rejectsUnknownNamesListingTheKnownOnes() {
    assertThatThrownBy(() -> up().patch("nonesuch"))
        .hasMessageStartingWith("unknown patch 'nonesuch'; known:");
    assertThatThrownBy(() -> up().scheduler("nonesuch"))
        .hasMessageStartingWith("unknown scheduler 'nonesuch'; known:");
  }

  @Test
  void rejectsACpuCountTheSchedulerDoesNotSupport() {
    Scheduler upOnly =
        new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
          @Override
          public boolean supportsCpuCount(int cpus) {
            return cpus == 1;
          }
        };
    assertThatThrownBy(
            () -> new KernelBuilder(MachineSpec.uniprocessor().withCpus(4), 1).scheduler(upOnly).build())
        .hasMessage("scheduler simple-rr does not support 4 CPUs");
  }

  @Test
  void rejectsTasksOnMissingCpus() {
    KernelPath p = KernelPath.userProgram("x").compute(1).build();
    assertThatThrownBy(
            () -> up().scheduler(new SimpleRoundRobinScheduler()).task(TaskSpec.user("x", p).onCpu(3)).build())
        .hasMessage("x: no cpu3 on a 1-CPU machine");
  }

  @Test
  void twoPatchesCannotBothOwnThePreemptionModel() {
    KernelPatch second =
        new KernelPatch() {
          @Override
          public String name() {
            return "other";
          }

          @Override
          public void apply(Patching k) {
            k.preemptionModel(PreemptionModel.VANILLA);
          }
        };
    assertThatThrownBy(
            () -> up().scheduler(new SimpleRoundRobinScheduler())
                .patch(CountZeroPreemption.patch()).patch(second).build())
        .hasMessage("patch other sets the preemption model, already set by test-preempt");
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    assertThat(trace(7)).isEqualTo(trace(7)).isNotEqualTo(trace(8));
  }

  private static String trace(long seed) {
    StringBuilder sb = new StringBuilder();
    Tracer t =
        new Tracer() {
          @Override
          public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
            sb.append(now).append(' ').append(prev).append("->").append(next).append('\n');
          }
        };
    KernelPath hog =
        KernelPath.userProgram("hog")
            .loop("main", Long.MAX_VALUE, b -> b.compute(Distribution.exponential(3_000_000))
                .syscall(KernelPath.path("test/k.c", "nap").sleepFor(Distribution.uniform(0, 20_000_000)).build()))
            .build();
    new KernelBuilder(MachineSpec.uniprocessor().withCpus(2), seed)
        .scheduler(new SimpleRoundRobinScheduler())
        .tracer(t)
        .task(TaskSpec.user("a", hog))
        .task(TaskSpec.user("b", hog).onCpu(1))
        .task(TaskSpec.user("c", hog))
        .build()
        .run(2_000_000_000L);
    return sb.toString();
  }
}
