package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.DiskSpec;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import org.junit.jupiter.api.Test;

/**
 * What one kernel owns and what a handler must give back: a lock or a wait queue is one
 * kernel's run-time state; the timer's and the disk's interrupt lines and the timer list's
 * softirq are the kernel's own; an interrupt handler returns with the locks and the preempt
 * count it was called with; and an AB-BA pair taken on two CPUs at once is reported before
 * both spin for ever.
 */
class KernelBoundaryBugTests {

  private static final long MS = 1_000_000;

  private static KernelBuilder builder(int cpus) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus).withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler());
  }

  private static KernelPath syscalling(KernelPath kernelPath) {
    return KernelPath.userProgram("P").loop("calls", Long.MAX_VALUE, l -> l.syscall(kernelPath).compute(MS)).build();
  }

  @Test
  void aSpinlockAnotherKernelHoldsBelongsToThatKernel() {
    SpinLock shared = SpinLock.spin("shared_lock");
    KernelPath locked = KernelPath.path("fs/test.c", "locked").spinLock(shared).compute(10 * MS).spinUnlock(shared).build();
    Kernel first = builder(1).task(TaskSpec.user("P", syscalling(locked))).build();
    first.run(5 * MS);
    assertThat(shared.isHeldExclusive()).isTrue();
    Kernel second = builder(1).task(TaskSpec.user("P", syscalling(locked))).build();
    assertThatThrownBy(() -> second.run(10 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("spinlock of another kernel")
        .hasMessageContaining("shared_lock belongs to another kernel, which holds it");
  }

  @Test
  void aLockLeftFreePassesToTheNextKernel() {
    SpinLock shared = SpinLock.spin("shared_lock");
    KernelPath locked = KernelPath.path("fs/test.c", "locked").spinLock(shared).compute(MS).spinUnlock(shared).build();
    builder(1).task(TaskSpec.user("P", syscalling(locked))).build().run(3 * MS);
    builder(1).task(TaskSpec.user("P", syscalling(locked))).build().run(3 * MS);
    assertThat(shared.acquisitions()).isEqualTo(4);
  }

  @Test
  void aWaitQueueUsedByASecondKernelBelongsToAnotherKernel() {
    WaitQueue shared = new WaitQueue("shared_wait");
    KernelPath sleep = KernelPath.path("fs/test.c", "sleep").sleepOn(shared).build();
    Kernel first = builder(1).task(TaskSpec.user("P", KernelPath.userProgram("P").syscall(sleep).build())).build();
    first.run(10 * MS);
    assertThat(shared.size()).isEqualTo(1);
    KernelPath wake = KernelPath.path("fs/test.c", "wake").wakeUp(shared).build();
    Kernel second = builder(1).task(TaskSpec.user("P", syscalling(wake))).build();
    assertThatThrownBy(() -> second.run(10 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("wait queue shared_wait belongs to another kernel, whose tasks sleep on it");
    assertThat(first.task("P").orElseThrow().state()).isEqualTo(TaskState.INTERRUPTIBLE);
  }

  @Test
  void theTimersAndTheDisksLinesAndTheTimerListAreTheKernelsOwn() {
    KernelPath handler = KernelPath.path("drivers/test.c", "handler").compute(1).build();
    assertThatIllegalArgumentException().isThrownBy(() -> builder(1).requestIrq(0, "mine", handler, true))
        .withMessage("request_irq: IRQ 0 is the timer's (timer_interrupt, the kernel's own handler)");
    assertThatIllegalArgumentException().isThrownBy(() -> builder(1).requestIrq(14, "mine", handler, true))
        .withMessageStartingWith("request_irq: IRQ 14 is the IDE disk's (ide_intr, the kernel's own handler)");
    assertThatIllegalArgumentException().isThrownBy(() -> builder(1).openSoftirq(Softirq.HI, handler))
        .withMessageContaining("HI_SOFTIRQ runs the kernel's timer list");
    KernelBuilder b = builder(1).openSoftirq(Softirq.NET_RX, handler);
    assertThatIllegalArgumentException().isThrownBy(() -> b.openSoftirq(Softirq.NET_RX, handler))
        .withMessageContaining("open_softirq(NET_RX): already opened with");
    assertThat(builder(1).ideDriver(SpinLock.spin("io_request_lock"))).isNotNull();
  }

  private static Kernel withRtcHandler(KernelPath handler) {
    Kernel k = builder(1).requestIrq(Rtc.IRQ, "rtc", handler, true)
        .task(TaskSpec.user("P", KernelPath.userProgram("P").loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build()))
        .build();
    k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), 2 * MS);
    return k;
  }

  @Test
  void anInterruptHandlerThatReturnsHoldingALockIsABug() {
    SpinLock l = SpinLock.spin("rtc_lock");
    Kernel k = withRtcHandler(KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").spinLock(l).compute(1).build());
    assertThatThrownBy(() -> k.run(5 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("interrupt handler returned holding a lock")
        .hasMessageContaining("was called with 0 lock(s) held and returned with 1, holding rtc_lock");
  }

  @Test
  void anInterruptHandlerThatReturnsWithPreemptionOffIsABug() {
    Kernel k = withRtcHandler(KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").preemptDisable().compute(1).build());
    assertThatThrownBy(() -> k.run(5 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("interrupt handler returned with preempt_count");
  }

  @Test
  void anAbBaPairOnTwoCpusIsReportedBeforeBothSpinForEver() {
    SpinLock a = SpinLock.spin("lock_a");
    SpinLock b = SpinLock.spin("lock_b");
    KernelPath ab = KernelPath.path("fs/test.c", "ab").spinLock(a).compute(MS).spinLock(b).compute(1)
        .spinUnlock(b).spinUnlock(a).build();
    KernelPath ba = KernelPath.path("fs/test.c", "ba").spinLock(b).compute(MS).spinLock(a).compute(1)
        .spinUnlock(a).spinUnlock(b).build();
    Kernel k = builder(2)
        .task(TaskSpec.user("X", KernelPath.userProgram("X").syscall(ab).build()).onCpu(0).allowedOn(1))
        .task(TaskSpec.user("Y", KernelPath.userProgram("Y").syscall(ba).build()).onCpu(1).allowedOn(2))
        .build();
    assertThatThrownBy(() -> k.run(10 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("lock order inversion");
    assertThat(a.contentions() + b.contentions()).isEqualTo(1);
  }

  @Test
  void diskIoOfNoSectorsOrPastTheDiskIsABugAndAnOverflowingGeometryIsRefused() {
    long capacity = DiskSpec.ata7200rpm().capacitySectors();
    KernelPath none = KernelPath.path("fs/test.c", "none").diskIo(Distribution.fixed(0), Distribution.fixed(0), false).build();
    assertThatThrownBy(() -> builder(1).task(TaskSpec.user("P", syscalling(none))).build().run(10 * MS))
        .isInstanceOf(KernelBug.class).hasMessageContaining("disk I/O outside the disk")
        .hasMessageContaining("0 sectors (Fixed[value=0]) at LBA 0 on a disk of " + capacity + " sectors");
    KernelPath past = KernelPath.path("fs/test.c", "past").diskIo(c -> capacity, c -> 8, false).build();
    assertThatThrownBy(() -> builder(1).task(TaskSpec.user("P", syscalling(past))).build().run(10 * MS))
        .isInstanceOf(KernelBug.class).hasMessageContaining("8 sectors (some) at LBA " + capacity);
    KernelPath last = KernelPath.path("fs/test.c", "last").diskIo(c -> capacity - 1, c -> 8, false).build();
    long[] reads = {0};
    KernelPath reader = KernelPath.userProgram("P")
        .loop("reads", Long.MAX_VALUE, l -> l.syscall(last).probe((c, t, now) -> reads[0]++)).build();
    builder(1).task(TaskSpec.user("P", reader)).build().run(100 * MS);
    assertThat(reads[0]).as("the last sector's read, cut to fit, completes").isPositive();
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new DiskSpec(Long.MAX_VALUE / 2, 1_000, 7_200, 1, 2, 1, 0, true, 1, false, 0))
        .withMessageContaining("overflows a sector count");
  }
}
