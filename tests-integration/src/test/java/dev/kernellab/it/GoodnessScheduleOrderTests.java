package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.ForwardingScheduler;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kernel/sched.c 2.4.17 {@code schedule()} clears {@code prev->need_resched} right after the
 * state switch, before {@code repeat_schedule}; the epoch recalculation then drops
 * runqueue_lock with {@code spin_unlock_irq}. An interrupt in that window that wakes a task
 * sets need_resched again, and it survives: {@code same_process: if (current->need_resched)
 * goto need_resched_back} makes schedule() go round once more.
 */
class GoodnessScheduleOrderTests {

  private static final long MS = 1_000_000;

  private static final long US = 1_000;

  @Test
  void aWakeUpDuringTheUnlockedRecalculationMakesScheduleGoRoundAgain() {
    RtcProbeRig rig = new RtcProbeRig();
    long[] windowAt = {-1};
    Task[] prevInWindow = {null};
    List<long[]> picksByPrevAfterWindow = new ArrayList<>(); // {time} of pickNext(prev == X)
    long[] switchedBackToPrev = {-1};
    Kernel[] kernel = new Kernel[1];
    ForwardingScheduler goodness =
        new ForwardingScheduler(SchedulerProvider.create("goodness")) {
          @Override
          public long unlockedScheduleCostNs(int cpu) {
            long ns = super.unlockedScheduleCostNs(cpu);
            Kernel k = kernel[0];
            if (ns > 0 && windowAt[0] < 0 && k.current(cpu).comm().startsWith("hog")) {
              windowAt[0] = k.now();
              prevInWindow[0] = k.current(cpu);
              // The interrupt comes in the middle of the recalculation, interrupts on.
              k.machine().simulation().schedule(
                  new Event("rtc", t -> k.machine().ioApic().assertLine(Rtc.IRQ)), k.now() + 1 + ns / 2);
            }
            return ns;
          }

          @Override
          public TaskView pickNext(int cpu, TaskView prev) {
            if (prevInWindow[0] == prev && switchedBackToPrev[0] >= 0) {
              picksByPrevAfterWindow.add(new long[] {kernel[0].now()});
            }
            return super.pickNext(cpu, prev);
          }
        };
    KernelPath hog = KernelPath.userProgram("hog").loop("burn", Long.MAX_VALUE, l -> l.compute(MS)).build();
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor(), 1)
            .scheduler(goodness)
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .tracer(new Tracer() {
              @Override
              public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
                if (next == prevInWindow[0] && switchedBackToPrev[0] < 0) {
                  switchedBackToPrev[0] = now;
                }
              }
            })
            .task(TaskSpec.user("P", rig.probe).fifo(99))
            .task(TaskSpec.user("hog1", hog))
            .task(TaskSpec.user("hog2", hog));
    Kernel k = b.build();
    kernel[0] = k;
    k.run(600 * MS);
    assertThat(windowAt[0]).as("an epoch ended in a hog's schedule()").isPositive();
    assertThat(rig.latencies).as("P ran after the window").hasSize(1);
    assertThat(switchedBackToPrev[0]).as("the task that recalculated ran again").isPositive();
    // It comes back inside its own schedule() with need_resched still set by the wake-up in
    // the window, and goes round once more at once: a pick within microseconds of its return,
    // not at its next tick.
    assertThat(picksByPrevAfterWindow).isNotEmpty();
    assertThat(picksByPrevAfterWindow.get(0)[0] - switchedBackToPrev[0]).isLessThan(50 * US);
  }
}
