package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import org.junit.jupiter.api.Test;

/**
 * Input that cannot describe a kernel is refused where it is first visible: when a path, a
 * lock or a kernel is built if it can be seen there, otherwise at the first step that runs it;
 * each with one message that names the offending thing.
 */
class BadInputRefusalTests {

  private static final long MS = 1_000_000;

  private static KernelBuilder zeroCost(int cpus) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
        .scheduler(new SimpleRoundRobinScheduler());
  }

  private static Kernel runSyscall(KernelPath body) {
    Kernel k = zeroCost(1)
        .task(TaskSpec.user("t", KernelPath.userProgram("t").syscall(body).compute(MS).build()))
        .build();
    k.run(10 * MS);
    return k;
  }

  private static KernelPath.Builder k(String fn) {
    return KernelPath.path("test/bad.c", fn);
  }

  private static final Site FOREVER = new Site("test/bad.c", "spin", "forever");

  private static KernelPath userProgram() {
    return KernelPath.userProgram("u").compute(MS).build();
  }

  // ---- refused when built ---------------------------------------------------------------------

  @Test
  void aForkedChildNeedsANameAndAUserProgram() {
    assertThatIllegalArgumentException().isThrownBy(() -> k("sys_fork").fork("c", null))
        .withMessageContaining("do_fork of c in test/bad.c:sys_fork: the child needs a program");
    assertThatIllegalArgumentException().isThrownBy(() -> k("sys_fork").fork(null, userProgram()))
        .withMessageContaining("the child needs a name");
    KernelPath kernelPath = k("helper").compute(MS).build();
    assertThatIllegalArgumentException().isThrownBy(() -> k("sys_fork").fork("c", kernelPath))
        .withMessageContaining("is a kernel path; a forked child runs a user program");
  }

  @Test
  void aLockNeedsItsKernelName() {
    assertThatIllegalArgumentException().isThrownBy(() -> SpinLock.spin(null))
        .withMessage("a spinlock_t needs its kernel name, got null");
    assertThatIllegalArgumentException().isThrownBy(() -> SpinLock.readerWriter(" "))
        .withMessage("an rwlock_t needs its kernel name, got \" \"");
  }

  @Test
  void aLockOperationNeedsALock() {
    assertThatIllegalArgumentException().isThrownBy(() -> k("f").spinLock(null))
        .withMessage("spin_lock in test/bad.c:f: no lock (null)");
    assertThatIllegalArgumentException().isThrownBy(() -> k("f").spinUnlockIrqRestore(null))
        .withMessage("spin_unlock_irqrestore in test/bad.c:f: no lock (null)");
  }

  @Test
  void readerWriterOperationsOnAPlainSpinlockAreRefused() {
    SpinLock plain = SpinLock.spin("dcache_lock");
    assertThatIllegalArgumentException().isThrownBy(() -> k("f").readLock(plain))
        .withMessageContaining("read_lock(dcache_lock) in test/bad.c:f: dcache_lock is a spinlock_t");
    assertThatIllegalArgumentException().isThrownBy(() -> k("f").writeUnlock(plain))
        .withMessageContaining("write_unlock takes an rwlock_t");
    SpinLock rw = SpinLock.readerWriter("tasklist_lock");
    k("f").readLock(rw).readUnlock(rw).writeLock(rw).writeUnlock(rw).build();
  }

  @Test
  void aUserProgramIsNeitherAnInterruptHandlerNorASoftirqAction() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> zeroCost(1).requestIrq(8, "rtc", userProgram(), true))
        .withMessageStartingWith("request_irq(8, rtc): ")
        .withMessageEndingWith(" is a user program; an interrupt handler is a kernel path");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> zeroCost(1).requestIrq(8, "rtc", null, true))
        .withMessageContaining("no handler");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> zeroCost(1).openSoftirq(Softirq.NET_RX, userProgram()))
        .withMessageContaining("open_softirq(NET_RX)")
        .withMessageContaining("a softirq action is a kernel path");
  }

  @Test
  void twoBootTasksOfOneNameAreRefused() {
    KernelBuilder b = zeroCost(1)
        .task(TaskSpec.user("cat", userProgram()))
        .task(TaskSpec.user("cat", userProgram()));
    assertThatIllegalArgumentException().isThrownBy(b::build)
        .withMessageStartingWith("two boot tasks named cat");
    KernelBuilder clash = zeroCost(1).task(TaskSpec.user("ksoftirqd_CPU0", userProgram()));
    assertThatIllegalArgumentException().isThrownBy(clash::build)
        .withMessageContaining("the kernel's own threads included");
  }

  @Test
  void aNegativeTimerExpiryIsRefused() {
    Kernel k = zeroCost(1).build();
    KernelTimer t = new KernelTimer("watchdog", c -> {});
    assertThatIllegalArgumentException().isThrownBy(() -> k.modTimer(t, -5))
        .withMessageContaining("expires is a jiffy count, never negative");
  }

  // ---- refused when they run ------------------------------------------------------------------

  @Test
  void aLoopThatTakesNoTimeIsASoftLockupNotAHang() {
    KernelPath zeroCost = k("spin").loop(FOREVER, Long.MAX_VALUE, b -> b.compute(0)).build();
    assertThatThrownBy(() -> runSyscall(zeroCost))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: soft lockup")
        .hasMessageContaining("without simulated time advancing")
        .hasMessageContaining("test/bad.c:spin");
    // An empty body is legal (a short one is harmless) and is caught the same way when huge.
    KernelPath empty = k("spin").loop(FOREVER, Long.MAX_VALUE, b -> {}).build();
    assertThatThrownBy(() -> runSyscall(empty))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: soft lockup");
  }

  @Test
  void aComputeThatEndsPastTheEndOfTimeIsABugNotANegativeTime() {
    KernelPath forever = k("forever").compute(1000).compute(Long.MAX_VALUE).build();
    assertThatThrownBy(() -> runSyscall(forever))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: compute past the end of time")
        .hasMessageContaining("a compute of " + Long.MAX_VALUE + " ns");
  }

  @Test
  void theSameSpinlockTakenTwiceOnUniprocessorIsRecursion() {
    SpinLock l = SpinLock.spin("pagemap_lru_lock");
    KernelPath twice = k("twice").spinLock(l).spinLock(l).spinUnlock(l).spinUnlock(l).build();
    assertThatThrownBy(() -> runSyscall(twice))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: spinlock recursion: pagemap_lru_lock already held (taken by")
        .hasMessageContaining("taken again by test/bad.c:twice");
  }

  @Test
  void spinLockIrqReleasedWithAPlainUnlockLeavesInterruptsOffAtReturnToUser() {
    SpinLock l = SpinLock.spin("runqueue_lock");
    KernelPath p = k("half").spinLockIrq(l).compute(1000).spinUnlock(l).build();
    assertThatThrownBy(() -> runSyscall(p))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: return to user with interrupts disabled")
        .hasMessageContaining("runqueue_lock was taken with spin_lock_irq(save) and released with a plain"
            + " spin_unlock in test/bad.c:half");
  }

  @Test
  void theSamePairWithALaterLocalIrqEnableIsFine() {
    // 2.4.17 kernel/sched.c and sleep_on() mix the forms and turn interrupts on afterwards.
    SpinLock l = SpinLock.spin("runqueue_lock");
    runSyscall(k("whole").spinLockIrq(l).compute(1000).spinUnlock(l).localIrqEnable().build());
  }

  @Test
  void cliOrAnUnrestoredIrqSaveAtReturnToUserIsABug() {
    assertThatThrownBy(() -> runSyscall(k("cli").localIrqDisable().compute(1000).build()))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: return to user with interrupts disabled")
        .hasMessageNotContaining("spin_unlock");
    assertThatThrownBy(() -> runSyscall(k("save").localIrqSave().compute(1000).build()))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: return to user with saved irq flags")
        .hasMessageContaining("1 local_irq_save / spin_lock_irqsave not restored");
  }
}
