package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskView;
import org.junit.jupiter.api.Test;

/** The kernel's own debug checks raise a KernelBug naming the task, CPU and path. */
class DebugCheckTests {

  private static final long MS = 1_000_000;

  private static Kernel run(int cpus, KernelPath... syscalls) {
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
            .scheduler(new SimpleRoundRobinScheduler());
    int i = 0;
    for (KernelPath k : syscalls) {
      b.task(TaskSpec.user("t" + i, KernelPath.userProgram("t" + i).syscall(k).build()).onCpu(i % cpus));
      i++;
    }
    Kernel kernel = b.build();
    kernel.run(10 * MS);
    return kernel;
  }

  private static KernelPath.Builder k(String fn) {
    return KernelPath.path("test/debug.c", fn);
  }

  @Test
  void sleepingWithASpinlockHeldIsSchedulingWhileAtomic() {
    SpinLock l = SpinLock.spin("files_lock");
    KernelPath p = k("bad_sleep").spinLock(l).sleepFor(MS).spinUnlock(l).build();
    assertThatThrownBy(() -> run(1, p))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: scheduling while atomic")
        .hasMessageContaining("holding files_lock")
        .hasMessageContaining("called from test/debug.c:bad_sleep")
        .hasMessageContaining("task t0[2]");
  }

  @Test
  void unlockingALockThatIsNotHeld() {
    SpinLock l = SpinLock.spin("dcache_lock");
    assertThatThrownBy(() -> run(1, k("bad_unlock").spinUnlock(l).build()))
        .hasMessageContaining("BUG: unlock of unheld lock: dcache_lock is not held")
        .hasMessageContaining("test/debug.c:bad_unlock");
  }

  @Test
  void preemptCountUnderflow() {
    assertThatThrownBy(() -> run(1, k("bad_enable").preemptEnable().build()))
        .hasMessageContaining("BUG: preempt_count underflow");
  }

  @Test
  void theSameTwoLocksInBothOrdersAreReported() {
    SpinLock a = SpinLock.spin("pagecache_lock");
    SpinLock b = SpinLock.spin("pagemap_lru_lock");
    KernelPath ab = k("ab").spinLock(a).spinLock(b).spinUnlock(b).spinUnlock(a).build();
    KernelPath ba = k("ba").spinLock(b).spinLock(a).spinUnlock(a).spinUnlock(b).build();
    assertThatThrownBy(() -> run(1, ab, ba))
        .hasMessageContaining("BUG: lock order inversion")
        .hasMessageContaining("pagecache_lock taken while holding pagemap_lru_lock");
  }

  @Test
  void takingASpinlockTwiceOnSmpIsRecursion() {
    SpinLock l = SpinLock.spin("rq_lock");
    KernelPath p = k("twice").spinLock(l).spinLock(l).build();
    assertThatThrownBy(() -> run(2, p)).hasMessageContaining("BUG: spinlock recursion");
  }

  @Test
  void exitingWithAPreemptCountIsReported() {
    assertThatThrownBy(() -> run(1, k("leak").preemptDisable().exit().build()))
        .hasMessageContaining("BUG: exit with preempt_count");
  }

  /** The bug reads as an oops: where, who, what was held, and what happened just before. */
  @Test
  void aBugReportCarriesTheCpuStateAndTheLastEvents() {
    SpinLock l = SpinLock.spin("files_lock");
    KernelPath p = k("bad_sleep").spinLock(l).compute(MS).sleepFor(MS).spinUnlock(l).build();
    KernelBug bug = catchThrowableOfType(KernelBug.class, () -> run(1, p));
    assertThat(bug.check()).isEqualTo("scheduling while atomic");
    assertThat(bug.summary()).startsWith("BUG: scheduling while atomic:").doesNotContain("\n");
    assertThat(bug.oops())
        .contains("CPU: 0", "Process t0 (pid: ", "preempt_count=0x00000001", "interrupts: ",
            "locks held on cpu0: files_lock", "contexts, innermost first:",
            "#2 test/debug.c:bad_sleep", "#3 kernel/sched.c:schedule", "last events, oldest first:", "lock_acquire files_lock");
    assertThat(bug.getMessage()).startsWith(bug.summary()).contains(bug.oops());
  }

  /** An exception the model itself throws mid-run becomes an oops too, never a bare one. */
  @Test
  void anInternalErrorIsReportedAsAKernelBugWithItsCause() {
    Scheduler broken =
        new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
          @Override
          public TaskView pickNext(int cpu, TaskView prev) {
            if (prev.comm().equals("t0")) {
              throw new IllegalStateException("runqueue corrupt");
            }
            return super.pickNext(cpu, prev);
          }
        };
    Kernel kernel =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(broken)
            .task(TaskSpec.user("t0", KernelPath.userProgram("t0").syscall(k("nap").sleepFor(MS).build()).build()))
            .build();
    KernelBug bug = catchThrowableOfType(KernelBug.class, () -> kernel.run(10 * MS));
    assertThat(bug.check()).isEqualTo("internal error");
    assertThat(bug.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("runqueue corrupt");
    assertThat(bug.oops()).contains("kernel/sched.c:schedule");
  }

  @Test
  void returningToUserWithALockHeldIsReported() {
    SpinLock l = SpinLock.spin("tasklist_lock");
    assertThatThrownBy(() -> run(1, k("leaky_syscall").spinLock(l).build()))
        .hasMessageContaining("BUG: return to user with preempt_count")
        .hasMessageContaining("holding tasklist_lock");
  }

  /**
   * 2.4's {@code cli(); sleep_on()} is legal: schedule() takes interrupts over with
   * spin_lock_irq/spin_unlock_irq (kernel/sched.c 2.4.17), so no check may fire.
   */
  @Test
  void sleepingWithInterruptsOffIsNotABugIn24() {
    boolean[] afterSleep = {false};
    KernelPath p =
        k("cli_sleep")
            .localIrqDisable()
            .sleepFor(MS)
            .effect("note IF", c -> afterSleep[0] = c.interruptsEnabled())
            .build();
    Kernel kernel =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .task(TaskSpec.user("t", KernelPath.userProgram("t").syscall(p).build()))
            .build();
    kernel.run(30 * MS); // woken by the timer at the first tick, 10.0002 ms
    assertThat(afterSleep[0]).as("interrupts after schedule()").isTrue();
    assertThat(kernel.machine().cpu(0).interruptsEnabled()).isTrue();
  }

  @Test
  void aSoftirqHandlerLeavingInterruptsOffIsReported() {
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath handler =
        KernelPath.path("drivers/char/rtc.c", "rtc+raise").call(rig.rtcInterrupt).raiseSoftirq(Softirq.TASKLET).build();
    KernelPath bad = KernelPath.path("kernel/softirq.c", "bad_tasklet").localIrqDisable().compute(10).build();
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .requestIrq(dev.kernellab.hw.Rtc.IRQ, "rtc", handler, true)
            .openSoftirq(Softirq.TASKLET, bad)
            .task(TaskSpec.user("P", rig.probe).fifo(99))
            .build();
    RtcProbeRig.assertRtcAt(k, MS);
    assertThatThrownBy(() -> k.run(2 * MS)).hasMessageContaining("BUG: softirq with interrupts off");
  }

  @Test
  void checksCanBeSwitchedOff() {
    // The same leak that returningToUserWithALockHeldIsReported turns into a bug.
    SpinLock l = SpinLock.spin("tasklist_lock");
    Kernel k =
        new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .debugChecks(DebugChecks.none())
            .task(TaskSpec.user("t", KernelPath.userProgram("t")
                .syscall(k("leaky_syscall").spinLock(l).compute(MS).build())
                .compute(MS)
                .build()))
            .build();
    k.run(5 * MS);
    assertThat(l.isHeldExclusive()).isTrue();
    assertThat(k.machine().cpu(0).computeNs()).isEqualTo(2 * MS);
  }
}
