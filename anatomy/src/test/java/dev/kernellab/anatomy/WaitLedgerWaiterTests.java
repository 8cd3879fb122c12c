package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskView;
import org.junit.jupiter.api.Test;

/** The priority a wait is compared with is the one its waiter is scheduled at, a loan counted. */
class WaitLedgerWaiterTests {

  private static final long MS = 1_000_000;

  @Test
  void aWaiterOnALentPriorityIsComparedAtTheLoan() {
    // A (SCHED_OTHER) holds the sleeping spinlock L over 20 ms of work; H (SCHED_FIFO 50) wakes
    // at 8 ms and sleeps on L, lending A its 50: a wait A begins at 15 ms is one of priority 50,
    // so a holder at 50 or above would not have let it run
    SpinLock lock = SpinLock.spin("L");
    KernelPath rest = KernelPath.path("test/rest.c", "rest").sleepFor(1000 * MS).build();
    KernelPath a = KernelPath.userProgram("A")
        .syscall(KernelPath.path("test/l.c", "a_holds")
            .spinLock(lock).compute(20 * MS).spinUnlock(lock).build())
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath h = KernelPath.userProgram("H")
        .syscall(KernelPath.path("test/l.c", "h_naps").sleepFor(8 * MS).build())
        .syscall(KernelPath.path("test/l.c", "h_takes").spinLock(lock).spinUnlock(lock).build())
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"))
        .configuration("rt")
        .task(TaskSpec.user("A", a))
        .task(TaskSpec.user("H", h).fifo(50))
        .build();
    WaitLedger l = new WaitLedger();
    int[] own = {-1};
    k.machine().simulation().schedule(new Event("look", x -> {
      TaskView waiter = k.task("A").orElseThrow();
      own[0] = waiter.rtPriority();
      l.waitedBy(waiter);
    }), 15 * MS);
    k.run(16 * MS);
    assertThat(own[0]).as("A's own priority").isZero();
    assertThat(l.waiter.comm()).isEqualTo("A");
    assertThat(l.waiterPriority).as("H's loan").isEqualTo(50);
  }
}
