package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What code running on a CPU sees of it through {@link KernelCpu}: the running task, the
 * nesting of interrupt contexts, the preempt count (include/linux/spinlock.h of the preempt
 * patch: one per lock held; include/asm-i386/hardirq.h irq_enter: HARDIRQ_OFFSET), the loop
 * variable, the path running now, the system call's arguments; and the preempt-off intervals
 * a latency tracer is told of. One zero-cost CPU; the first timer tick is at 10 ms, after
 * every instant below.
 */
class KernelCpuViewTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;
  private static final Site WALK = new Site("fs/test.c", "sys_walk", "walk");

  private record Args(int fd) {}

  private static Kernel boot(KernelPath user, KernelPath handler, Tracer t, long irqAt) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .task(TaskSpec.user("P", user));
    if (handler != null) {
      b.requestIrq(Rtc.IRQ, "rtc", handler, true);
    }
    if (t != null) {
      b.tracer(t);
    }
    Kernel k = b.build();
    if (irqAt >= 0) {
      k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), irqAt);
    }
    return k;
  }

  private static String view(KernelCpu c) {
    KernelPath kp = c.taskKernelPath();
    return c + " task=" + c.current().comm() + " idle=" + c.idleTask().comm()
        + " user=" + c.inUserMode() + " depth=" + c.interruptDepth()
        + " count=" + Integer.toHexString(c.preemptCount()) + " inInterrupt=" + c.inInterrupt()
        + " running=" + c.runningPath() + " kernelPath=" + (kp == null ? "-" : kp.function())
        + " i=" + c.loopIndex() + " id=" + c.id();
  }

  /**
   * P computes in user mode, makes a system call whose body walks a 3-iteration loop under a
   * spinlock, and returns. The RTC fires at 1 ms, while P is in user mode.
   */
  @Test
  void codeSeesItsTaskModeNestingPreemptCountLoopIndexAndPath() {
    List<String> seen = new ArrayList<>();
    SpinLock l = SpinLock.spin("L");
    KernelPath body = KernelPath.path("fs/test.c", "sys_walk")
        .effect("in", c -> seen.add(view(c)))
        .spinLock(l)
        .loop(WALK, 3, x -> x.effect("iter", c -> seen.add(view(c))))
        .spinUnlock(l)
        .build();
    KernelPath user = KernelPath.userProgram("P")
        .compute(2 * MS)
        .effect("u", c -> seen.add(view(c)))
        .syscall(body)
        .build();
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .effect("h", c -> seen.add(view(c))).build();
    boot(user, handler, null, MS).run(5 * MS);
    assertThat(seen).containsExactly(
        "cpu0 task=P idle=swapper/0 user=false depth=1 count=10000 inInterrupt=true"
            + " running=drivers/char/rtc.c:rtc_interrupt kernelPath=- i=0 id=0",
        "cpu0 task=P idle=swapper/0 user=true depth=0 count=0 inInterrupt=false"
            + " running=user:P:P kernelPath=- i=0 id=0",
        "cpu0 task=P idle=swapper/0 user=false depth=0 count=0 inInterrupt=false"
            + " running=fs/test.c:sys_walk kernelPath=sys_walk i=0 id=0",
        "cpu0 task=P idle=swapper/0 user=false depth=0 count=1 inInterrupt=false"
            + " running=fs/test.c:sys_walk#walk kernelPath=sys_walk i=0 id=0",
        "cpu0 task=P idle=swapper/0 user=false depth=0 count=1 inInterrupt=false"
            + " running=fs/test.c:sys_walk#walk kernelPath=sys_walk i=1 id=0",
        "cpu0 task=P idle=swapper/0 user=false depth=0 count=1 inInterrupt=false"
            + " running=fs/test.c:sys_walk#walk kernelPath=sys_walk i=2 id=0");
  }

  /**
   * The arguments of a system call are there for its body, of the type asked for, and gone
   * after it returns (ret_from_sys_call); a call without arguments has none.
   */
  @Test
  void aSystemCallsArgumentsAreSeenByItsBodyOnly() {
    List<String> seen = new ArrayList<>();
    Action look = c -> seen.add(String.valueOf(c.syscallArgs(Args.class)));
    KernelPath body = KernelPath.path("fs/read_write.c", "sys_read").effect("args", look).build();
    KernelPath user = KernelPath.userProgram("P")
        .syscall(body, c -> new Args(3))
        .effect("after", look)
        .syscall(body)
        .build();
    boot(user, null, null, -1).run(MS);
    assertThat(seen).containsExactly("Args[fd=3]", "null", "null");
  }

  /** A body that reads its arguments as another type than the caller passed is a bug, not a default. */
  @Test
  void argumentsOfAnotherTypeThanTheBodyReadsAreAnOops() {
    KernelPath body = KernelPath.path("fs/read_write.c", "sys_read")
        .effect("args", c -> c.syscallArgs(String.class)).build();
    KernelPath user = KernelPath.userProgram("P").syscall(body, c -> new Args(3)).build();
    Kernel k = boot(user, null, null, -1);
    assertThatThrownBy(() -> k.run(MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("with arguments Args, which it reads as String");
  }

  /** Preempt-off and preempt-on events of a latency tracer, from what the path does. */
  private static final class PreemptTrace implements Tracer {
    final List<String> events = new ArrayList<>();

    @Override
    public void preemptOff(long now, int cpu, PathView path) {
      if (path != null && path.file().equals("fs/test.c")) {
        events.add("off @" + now / US + " " + path.function());
      }
    }

    @Override
    public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
      if (path != null && path.file().equals("fs/test.c")) {
        events.add("on @" + now / US + " after " + lengthNs / US);
      }
    }
  }

  /**
   * preempt_count leaves zero at the first lock (0.5 ms) and comes back to zero only at the
   * last unlock (0.5 + 1 + 2 = 3.5 ms; the inner lock and preempt_disable only nest): one
   * interval of 3 ms. A local_bh_disable region (4.5 .. 5.5 ms) is a preempt-off interval too
   * (SOFTIRQ_OFFSET is in preempt_count).
   */
  @Test
  void theTracerSeesOnePreemptOffIntervalFromTheFirstLockToTheLastUnlock() {
    SpinLock a = SpinLock.spin("A");
    SpinLock b = SpinLock.spin("B");
    KernelPath body = KernelPath.path("fs/test.c", "sys_nest")
        .compute(MS / 2)
        .spinLock(a).compute(MS)
        .spinLock(b).preemptDisable().compute(MS).preemptEnable().spinUnlock(b)
        .compute(MS).spinUnlock(a)
        .compute(MS)
        .localBhDisable().compute(MS).localBhEnable()
        .build();
    PreemptTrace t = new PreemptTrace();
    boot(KernelPath.userProgram("P").syscall(body).build(), null, t, -1).run(10 * MS - 1);
    assertThat(t.events).containsExactly(
        "off @500 sys_nest", "on @3500 after 3000", "off @4500 sys_nest", "on @5500 after 1000");
  }
}
