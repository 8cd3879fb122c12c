package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.CountZeroPreemption;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.PreemptCount;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalog's paths hold the big kernel lock as the C does (kernel/exit.c do_exit,
 * fs/ext2/inode.c ext2_get_block, fs/buffer.c sync_old_buffers of 2.4.17), with
 * {@code lock_kernel()}: do_exit takes it and never drops it, its last {@code schedule()} does.
 */
class BigKernelLockPathsTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  /** A line no catalog driver uses. */
  private static final int DEVICE_IRQ = 5;

  /** What B's switches and the interrupts that came while B held the BKL saw. */
  private record Exit(List<String> switchesHoldingBkl, int interruptsUnderBkl, long bklTaken, boolean bklHeldAfter) {}

  /**
   * B exits (the catalog's sys_exit) on one CPU; a device interrupt every 25 us for 20 ms wakes P
   * (SCHED_FIFO 99), which sleeps again at once.
   */
  private static Exit exit(boolean preempt) {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    WaitQueue wq = new WaitQueue("p_wait");
    int[] underBkl = {0};
    List<String> switches = new ArrayList<>();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.all())
        .tracer(new Tracer() {
          @Override
          public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
            if (prev.comm().equals("B") && prev.lockDepth() >= 0) {
              switches.add(prev.state() + ((prev.preemptCount() & PreemptCount.PREEMPT_ACTIVE) != 0 ? " preempted" : ""));
            }
          }
        })
        .requestIrq(DEVICE_IRQ, "dev", KernelPath.path("drivers/test/dev.c", "dev_interrupt")
            .effect("was B holding the BKL?", c -> {
              if (c.current().comm().equals("B") && c.current().lockDepth() >= 0) {
                underBkl[0]++;
              }
            })
            .wakeUp(wq)
            .build(), true);
    p.install(b);
    if (preempt) {
      b.patch(CountZeroPreemption.patch());
    }
    b.task(TaskSpec.user("P", KernelPath.userProgram("P")
            .loop("wait", Long.MAX_VALUE, l -> l.syscall(KernelPath.path("test/p.c", "wait").sleepOn(wq).build()))
            .build()).fifo(99))
        .task(TaskSpec.user("B", KernelPath.userProgram("B").syscall(p.exit().sysExit).build()));
    Kernel k = b.build();
    for (long t = 25 * US; t <= 20 * MS; t += 25 * US) {
      k.machine().simulation().schedule(new Event("dev.assert", now -> k.machine().ioApic().assertLine(DEVICE_IRQ)), t);
    }
    k.run(30 * MS);
    k.checkInvariants();
    return new Exit(switches, underBkl[0], p.locks().kernelFlag.acquisitions(), p.locks().kernelFlag.isHeldExclusive());
  }

  @Test
  void withPreemptAnExitingTaskHoldsTheBklUntilItsLastScheduleDropsIt() {
    // lock_kernel() in do_exit to the end: interrupts that wake P while B holds it preempt
    // nothing; B leaves the CPU once, a zombie, and that schedule() releases kernel_flag.
    Exit e = exit(true);
    assertThat(e.interruptsUnderBkl()).isPositive();
    assertThat(e.switchesHoldingBkl()).containsExactly(TaskState.ZOMBIE.toString());
    assertThat(e.bklTaken()).isEqualTo(1);
    assertThat(e.bklHeldAfter()).isFalse();
  }

  @Test
  void withoutPreemptOnUpTheExitsLockKernelTakesNoLock() {
    Exit e = exit(false);
    assertThat(e.switchesHoldingBkl()).containsExactly(TaskState.ZOMBIE.toString());
    assertThat(e.bklTaken()).isZero();
  }
}
