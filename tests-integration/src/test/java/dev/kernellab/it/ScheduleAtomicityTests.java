package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.sched.o1.O1Entity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * schedule()'s state switch and its pick are one step under the runqueue lock: no other CPU
 * may see a task half-way between them (kernel/sched.c, 2.4.17 and 2.5.5). A review found the
 * model doing the dequeue of a blocked task at the start of the priced selection, so that a
 * wake-up from another CPU during it left a sleeper queued and, on O(1), credited sleep_avg for
 * time the task had run.
 */
class ScheduleAtomicityTests {

  private static final long MS = 1_000_000;

  private static KernelBuilder blockerAndBusyCpu(String scheduler, Tracer t, long runsNs) {
    KernelPath a =
        KernelPath.userProgram("A")
            .compute(runsNs)
            .syscall(KernelPath.path("test/k.c", "block").setState(TaskState.INTERRUPTIBLE).schedule().build())
            .loop("burn", Long.MAX_VALUE, x -> x.compute(MS))
            .build();
    KernelPath c = KernelPath.userProgram("C").loop("burn", Long.MAX_VALUE, x -> x.compute(MS)).build();
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCpus(2), 1)
            .scheduler(SchedulerProvider.create(scheduler))
            .task(TaskSpec.user("A", a).onCpu(0).allowedOn(0b01))
            .task(TaskSpec.user("C", c).onCpu(1).allowedOn(0b10));
    return t == null ? b : b.tracer(t);
  }

  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void theInvariantsHoldAtEveryNanosecondOfABlockingSchedule(String scheduler) {
    Kernel k = blockerAndBusyCpu(scheduler, null, 3 * MS).build();
    k.run(3 * MS);
    for (long t = 3 * MS; t < 3 * MS + 20_000; t++) {
      k.run(t);
      k.checkInvariants();
    }
    assertThat(k.task("A").orElseThrow().state()).isEqualTo(TaskState.INTERRUPTIBLE);
  }

  /**
   * 2.5.5 stamps sleep_timestamp as the task enters schedule(); a wake-up from another CPU
   * while the blocker's schedule() runs (in the kernel it spins on the runqueue lock until the
   * switch is done) finds a task that has slept no time and earns it no sleep_avg.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 200_000})
  void aWakeUpDuringTheBlockersScheduleEarnsNoSleepAvg(long wakeDelayNs) {
    Kernel[] kernel = new Kernel[1];
    int[] sleepAvg = {-1, -1};
    Tracer wakeAInsideSchedule =
        new Tracer() {
          @Override
          public void irqsOff(long now, int cpu, PathView path) {
            Kernel k = kernel[0];
            Task a = k.task("A").orElseThrow();
            if (sleepAvg[0] < 0 && cpu == 0 && now > 300 * MS && path != null && path.function().equals("schedule")
                && k.cpu(0).current() == a && a.state() == TaskState.INTERRUPTIBLE) {
              sleepAvg[0] = ((O1Entity) a.schedEntity()).sleepAvg();
              k.machine().simulation().schedule(new Event("wake A", n -> {
                k.cpu(1).wakeUpProcess(a);
                sleepAvg[1] = ((O1Entity) a.schedEntity()).sleepAvg();
              }), now + wakeDelayNs);
            }
          }
        };
    // A runs 300 ms (30 ticks) before it blocks: time a wrong stamp would count as sleep.
    Kernel k = blockerAndBusyCpu("o1", wakeAInsideSchedule, 300 * MS).build();
    kernel[0] = k;
    k.run(400 * MS);
    k.checkInvariants();
    assertThat(sleepAvg[0]).as("A entered schedule() to block").isNotNegative();
    // 200 us is less than a jiffy of sleep: no credit either way.
    assertThat(sleepAvg[1]).isEqualTo(sleepAvg[0]);
  }
}
