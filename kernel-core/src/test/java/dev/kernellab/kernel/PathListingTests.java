package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A path's listing (what the lab prints for a path, and the oops names an operation by) reads
 * as the C code does: each primitive under the name include/linux/spinlock.h,
 * include/asm-i386/system.h, include/asm-i386/softirq.h, include/linux/sched.h,
 * kernel/sched.c and kernel/fork.c (2.4.17) give it, with the lock or queue it works on; and
 * the builder refuses in one mode what only the other may do.
 */
class PathListingTests {

  private static final SpinLock L = SpinLock.spin("L");
  private static final SpinLock A = SpinLock.spin("A");
  private static final SpinLock B = SpinLock.spin("B");
  private static final SpinLock RW = SpinLock.readerWriter("RW");
  private static final Site WALK = new Site("fs/test.c", "flow", "walk");
  private static final Site INNER = new Site("fs/test.c", "flow", "inner");
  private static final Site DYN = new Site("fs/test.c", "flow", "dyn");

  private static KernelPath target(String fn) {
    return KernelPath.path("fs/test.c", fn).build();
  }

  @Test
  void lockIrqAndBottomHalfPrimitivesListUnderTheirKernelNames() {
    KernelPath p = KernelPath.path("fs/test.c", "locks")
        .spinLock(L).spinUnlock(L)
        .spinLockIrq(L).spinUnlockIrq(L)
        .spinLockIrqSave(L).spinUnlockIrqRestore(L)
        .spinLockBh(L).spinUnlockBh(L)
        .readLock(RW).readUnlock(RW)
        .writeLock(RW).writeUnlock(RW)
        .localIrqDisable().localIrqEnable()
        .localIrqSave().localIrqRestore()
        .preemptDisable().preemptEnable().preemptEnableNoResched()
        .localBhDisable().localBhEnable()
        .raiseSoftirq(Softirq.NET_RX)
        .build();
    assertThat(p.listing()).containsExactly(
        "spin_lock(&L)", "spin_unlock(&L)",
        "spin_lock_irq(&L)", "spin_unlock_irq(&L)",
        "spin_lock_irqsave(&L)", "spin_unlock_irqrestore(&L)",
        "spin_lock_bh(&L)", "spin_unlock_bh(&L)",
        "read_lock(&RW)", "read_unlock(&RW)",
        "write_lock(&RW)", "write_unlock(&RW)",
        "local_irq_disable()", "local_irq_enable()",
        "local_irq_save(flags)", "local_irq_restore(flags)",
        "preempt_disable()", "preempt_enable()", "preempt_enable_no_resched()",
        "local_bh_disable()", "local_bh_enable()",
        "raise_softirq(NET_RX_SOFTIRQ)");
  }

  @Test
  void schedulingSleepingAndWakingPrimitivesListUnderTheirKernelNames() {
    Semaphore s = new Semaphore("S", 1);
    WaitQueue q = new WaitQueue("q");
    KernelPath p = KernelPath.path("fs/test.c", "sched")
        .schedule()
        .condResched()
        .condReschedLock(L, 10)
        .condReschedLock("break_spin_lock(&A, &B)", List.of(A, B), CondReschedLock.When.every(1),
            CondReschedLock.Then.NOTHING, 0)
        .fork("kid", KernelPath.userProgram("kid").compute(1).build())
        .exit()
        .sleepFor(5)
        .nanosleep(Distribution.fixed(7))
        .nanosleep(c -> 3)
        .setState(TaskState.UNINTERRUPTIBLE)
        .down(s)
        .up(s)
        .callIfDownTrylock(s, target("locked"))
        .sleepOn(q)
        .waitEvent(q, () -> true)
        .waitEventUninterruptible(q, () -> true)
        .wakeUp(q)
        .wakeUpSync(q)
        .build();
    assertThat(p.listing()).containsExactly(
        "schedule()",
        "cond_resched()",
        "cond_resched_lock(&L)",
        "break_spin_lock(&A, &B)",
        "do_fork(kid)",
        "do_exit()",
        "schedule_timeout(Fixed[value=5])",
        "sys_nanosleep: schedule_timeout(Fixed[value=7])",
        "sys_nanosleep: schedule_timeout(worked out at the call)",
        "set_current_state(TASK_UNINTERRUPTIBLE)",
        "down(&S)",
        "up(&S)",
        "wake_up(&S.wait)",
        "if (!down_trylock(&S)) locked()",
        "sleep_on(&q)",
        "wait_event(&q)",
        "wait_event(&q)",
        "wake_up(&q)",
        "wake_up_sync(&q)");
  }

  @Test
  void flowPrimitivesListWithTheirLoopBodiesIndented() {
    Operation custom = new Operation() {
      @Override
      public int step(Operation.Step s, int phase) {
        return DONE;
      }

      @Override
      public String describe() {
        return "break_spin_lock(&L)";
      }
    };
    KernelPath p = KernelPath.path("fs/test.c", "flow")
        .compute(100)
        .compute(Distribution.uniform(1, 5))
        .compute("the page count", c -> 4)
        .call(target("callee"))
        .callIf("ready", c -> true, target("yes"))
        .callIfElse("ready", c -> true, target("yes"), target("no"))
        .loop(WALK, 3, b -> b.compute(1).loop(INNER, 2, x -> x.effect("inner effect", c -> {})))
        .loop(DYN, c -> 2, b -> b.compute(1))
        .effect("outb(0x70)", c -> {})
        .args(c -> "x")
        .diskIo(Distribution.fixed(0), Distribution.fixed(8), true)
        .diskIo(c -> 0, c -> 8, false)
        .pageFault(target("do_page_fault"))
        .op(custom)
        .build();
    assertThat(p.listing()).containsExactly(
        "compute(100 ns)",
        "compute(Uniform[min=1, max=5])",
        "compute(the page count)",
        "callee()",
        "if (ready) yes()",
        "if (ready) yes() else no()",
        "loop fs/test.c:flow#walk x Fixed[value=3]",
        "    compute(1 ns)",
        "    loop fs/test.c:flow#inner x Fixed[value=2]",
        "        inner effect",
        "loop fs/test.c:flow#dyn x (worked out on entry)",
        "    compute(1 ns)",
        "outb(0x70)",
        "(arguments)",
        "write Fixed[value=8] sectors: submit_bh(); wait_on_buffer()",
        "read some sectors: submit_bh(); wait_on_buffer()",
        "page fault: do_page_fault()",
        "break_spin_lock(&L)");
    assertThat(p.sites()).containsExactly(WALK, INNER, DYN);
    assertThat(p.location()).isEqualTo("fs/test.c:flow");
    assertThat(p).hasToString("fs/test.c:flow");
    assertThat(p.site()).isNull();
    assertThat(p.isUser()).isFalse();
  }

  /**
   * A user program: system calls (with or without arguments), faults, and loops labelled by
   * string, at sites of the program; no kernel-only ops.
   */
  @Test
  void aUserProgramListsItsSystemCallsFaultsAndLabelledLoops() {
    KernelPath p = KernelPath.userProgram("cat")
        .compute(10)
        .syscall(target("sys_read"))
        .syscall(target("sys_write"), c -> "args")
        .pageFault(target("do_page_fault"))
        .loop("main", 2, b -> b.compute(1))
        .loopWhile("until", c -> false, b -> b.compute(1))
        .build();
    assertThat(p.listing()).containsExactly(
        "compute(10 ns)", "syscall sys_read()", "syscall sys_write()", "page fault: do_page_fault()",
        "loop user:cat:cat#main x Fixed[value=2]",
        "    compute(1 ns)",
        "loop user:cat:cat#until x (worked out on entry)",
        "    compute(1 ns)");
    assertThat(p.sites()).containsExactly(
        new Site("user:cat", "cat", "main"), new Site("user:cat", "cat", "until"));
    assertThat(p.isUser()).isTrue();
    assertThat(p.file()).isEqualTo("user:cat");
    assertThat(p.function()).isEqualTo("cat");
  }

  @Test
  void eachModeRefusesWhatOnlyTheOtherMayDo() {
    KernelPath user = KernelPath.userProgram("u").build();
    KernelPath kernel = target("k");
    KernelPath.Builder u = KernelPath.userProgram("u2");
    KernelPath.Builder k = KernelPath.path("fs/test.c", "k2");
    assertThatIllegalStateException().isThrownBy(() -> u.spinLock(L))
        .withMessage("spin_lock in user program u2: only kernel paths may do that");
    assertThatIllegalStateException().isThrownBy(() -> u.localIrqDisable());
    assertThatIllegalStateException().isThrownBy(() -> k.syscall(kernel))
        .withMessageContaining("only user programs make system calls");
    assertThatIllegalStateException().isThrownBy(() -> k.probe((c, t, now) -> {}))
        .withMessageContaining("probes run in user mode");
    assertThatIllegalArgumentException().isThrownBy(() -> u.syscall(user))
        .withMessage("a system call body must be a kernel path");
    assertThatIllegalArgumentException().isThrownBy(() -> k.call(user))
        .withMessage("cannot call user program u");
    assertThatIllegalArgumentException().isThrownBy(() -> k.callIf("x", c -> true, user));
    assertThatIllegalArgumentException().isThrownBy(() -> k.callIfElse("x", c -> true, user, kernel));
    assertThatIllegalArgumentException().isThrownBy(() -> k.callIfElse("x", c -> true, kernel, user));
    assertThatIllegalArgumentException().isThrownBy(() -> k.pageFault(user))
        .withMessage("a fault handler must be a kernel path");
    assertThatIllegalStateException().isThrownBy(() -> k.loop("x", 1, b -> {}))
        .withMessage("loop(\"x\", ...) in kernel path fs/test.c:k2: a kernel loop is at a Site"
            + " constant of its function; labels are for user programs");
    assertThatIllegalStateException().isThrownBy(() -> k.loopWhile("x", c -> true, b -> {}))
        .withMessageStartingWith("loopWhile(\"x\", ...) in kernel path fs/test.c:k2");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> k.loop(new Site("fs/other.c", "k2", "x"), 1, b -> {}))
        .withMessage("site fs/other.c:k2#x is not in fs/test.c:k2");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> k.loop(new Site("fs/test.c", "other", "x"), 1, b -> {}));
    KernelPath own = KernelPath.path("fs/test.c", "k3")
        .loop(new Site("fs/test.c", "k3", "x"), 2, b -> b.compute(1))
        .loop(new Site("fs/test.c", "k3", "y"), Distribution.fixed(1), b -> b.compute(1))
        .loop(new Site("fs/test.c", "k3", "z"), c -> 1, b -> b.compute(1))
        .build();
    assertThat(own.sites()).containsExactly(
        new Site("fs/test.c", "k3", "x"), new Site("fs/test.c", "k3", "y"), new Site("fs/test.c", "k3", "z"));
  }
}
