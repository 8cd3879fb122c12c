package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A softirq that raises itself again, as kernel/softirq.c of 2.4.17 handles it. do_softirq()
 * restarts only for softirqs raised meanwhile that it has not run yet this call
 * ({@code pending & mask}, {@code mask = ~pending} at entry); 2.4.17 has no restart count
 * (MAX_SOFTIRQ_RESTART is 2.6's): a softirq that re-raises itself runs once per call, and
 * what is left is handed to wakeup_softirqd(). ksoftirqd_CPU0 is an ordinary SCHED_OTHER
 * thread at nice 19 ({@code current->nice = 19} in ksoftirqd()), woken without preempting
 * anybody: it runs the leftovers when the scheduler picks it (the CPU would otherwise idle,
 * or the current task's slice ran out), and until then the leftover also runs at every
 * interrupt exit (irq_exit, then do_softirq()).
 *
 * <p>A zero-cost uniprocessor with kernel-core's test scheduler (round robin, 5-tick slices,
 * nice ignored: the nice-19 share belongs to the real schedulers); one device interrupt at
 * 1 ms raises NET_RX, whose handler computes 10 us and raises NET_RX again until it has run
 * {@code runs} times. The PIT ticks at j * 11932 / 1193180 s (LATCH for HZ 100), each tick
 * raising HI. Every instant below is worked out by hand from those rules.
 */
class KsoftirqdTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final long NET_RX = 10 * US;

  private static long tick(int j) {
    return j * 11_932L * 1_000_000_000L / 1_193_180L;
  }

  private static String at(long ns, String who) {
    return ns + "ns " + who;
  }

  private static Kernel boot(TaskSpec spec, int runs, List<String> seen) {
    int[] ran = {0};
    KernelPath netRx = KernelPath.path("net/core/dev.c", "net_rx_action")
        .effect("record", c -> seen.add(at(c.now(), c.current().comm())))
        .compute(NET_RX)
        .effect("raise again", c -> {
          if (++ran[0] < runs) {
            c.raiseSoftirq(Softirq.NET_RX);
          }
        })
        .build();
    KernelPath handler =
        KernelPath.path("drivers/test/dev.c", "dev_interrupt").raiseSoftirq(Softirq.NET_RX).build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .requestIrq(Rtc.IRQ, "dev", handler, true)
        .openSoftirq(Softirq.NET_RX, netRx)
        .task(spec)
        .build();
    k.machine().simulation().schedule(new Event("dev.assert", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), MS);
    return k;
  }

  private static KernelPath busyForEver() {
    return KernelPath.userProgram("B")
        .loop("spin", Long.MAX_VALUE, body -> body.compute(MS))
        .build();
  }

  @Test
  void ksoftirqdIsANice19KernelThreadBoundToItsCpu() {
    Kernel k = boot(TaskSpec.user("B", busyForEver()), 1, new ArrayList<>());
    Task d = k.task("ksoftirqd_CPU0").orElseThrow();
    assertThat(d.nice()).isEqualTo(19);
    assertThat(d.policy()).isEqualTo(SchedPolicy.OTHER);
    assertThat(d.cpusAllowed()).isEqualTo(1L);
  }

  @Test
  void theLeftoverRunsInKsoftirqdWhenTheOnlyTaskSleepsAndTheCpuWouldGoIdle() {
    // B in the kernel for 3 ms from t = 0, then asleep. The interrupt at 1 ms: its exit's
    // do_softirq runs NET_RX (1000..1010 us, B current), which re-raises: not in the mask, so
    // no restart; wakeup_softirqd wakes ksoftirqd (asleep since boot), which does not preempt
    // B. B's 3 ms end at 3010 us (10 us stolen); it sleeps, and ksoftirqd runs the other four,
    // back to back, each from its own do_softirq call.
    List<String> seen = new ArrayList<>();
    KernelPath b = KernelPath.userProgram("B")
        .syscall(KernelPath.path("test/b.c", "work").compute(3 * MS).sleepFor(100 * MS).build())
        .build();
    Kernel k = boot(TaskSpec.user("B", b), 5, seen);
    k.run(9 * MS);
    assertThat(seen).containsExactly(
        at(1_000 * US, "B"),
        at(3_010 * US, "ksoftirqd_CPU0"),
        at(3_020 * US, "ksoftirqd_CPU0"),
        at(3_030 * US, "ksoftirqd_CPU0"),
        at(3_040 * US, "ksoftirqd_CPU0"));
    Task d = k.task("ksoftirqd_CPU0").orElseThrow();
    assertThat(d.state()).as("asleep again once nothing is pending").isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(k.cpu(0).softirqPending).isZero();
  }

  @Test
  void aRealTimeHogKeepsKsoftirqdOffTheCpuAndTheLeftoverRunsOncePerInterruptExit() {
    // B is SCHED_FIFO: ksoftirqd never gets the CPU, and each tick's do_softirq (HI, then the
    // NET_RX left pending) runs NET_RX once more, in B's time.
    List<String> seen = new ArrayList<>();
    Kernel k = boot(TaskSpec.user("B", busyForEver()).fifo(50), 4, seen);
    k.run(tick(3) + MS);
    assertThat(seen).containsExactly(
        at(1_000 * US, "B"), at(tick(1), "B"), at(tick(2), "B"), at(tick(3), "B"));
    assertThat(k.task("ksoftirqd_CPU0").orElseThrow().voluntarySwitches()).isZero();
  }

  @Test
  void aNormalHogLetsKsoftirqdRunWhenItsSliceEnds() {
    // B is SCHED_OTHER and never sleeps. ksoftirqd ran first at boot (queued first) and went
    // to sleep at t = 0, so B's 5-tick slice started at 0. NET_RX runs at 1 ms and at the exits
    // of ticks 1..5 (runs 2..6, B current). Tick 5 ends B's slice: after that tick's
    // do_softirq, ret_from_intr schedules ksoftirqd (woken at 1 ms, ahead of B in the queue),
    // which runs the 7th and last at tick 5 + 10 us, then sleeps; B gets the CPU back.
    List<String> seen = new ArrayList<>();
    Kernel k = boot(TaskSpec.user("B", busyForEver()), 7, seen);
    k.run(tick(6) + MS);
    assertThat(seen).containsExactly(
        at(1_000 * US, "B"), at(tick(1), "B"), at(tick(2), "B"), at(tick(3), "B"),
        at(tick(4), "B"), at(tick(5), "B"), at(tick(5) + NET_RX, "ksoftirqd_CPU0"));
    assertThat(k.task("ksoftirqd_CPU0").orElseThrow().state()).isEqualTo(TaskState.INTERRUPTIBLE);
  }

  @Test
  void ksoftirqdWhoseSliceEndsSchedulesAfterThePassItIsInEvenWithTheSoftirqStillPending() {
    // ksoftirqd(): while (softirq_pending(cpu)) { do_softirq(); if (current->need_resched)
    // schedule(); }. NET_RX raises itself for ever. As above, ksoftirqd gets the CPU at
    // tick 5 + 10 us and runs NET_RX back to back, 10 us apart (a tick inside a run finds
    // in_interrupt(): its HI waits for that call's restart, which runs NET_RX once more too,
    // still back to back). Its own 5-tick slice ends at tick 10 (100 001 676 ns), inside the
    // 5000th run (from tick 5 + 50 000 us = 100 000 838 ns); that call restarts for HI and runs
    // a 5001st; then need_resched is seen, and B, ahead of it in the queue since tick 10, runs
    // from 100 020 838 ns, NET_RX still pending, until tick 11's exit runs NET_RX in B's time.
    List<String> seen = new ArrayList<>();
    Kernel k = boot(TaskSpec.user("B", busyForEver()), Integer.MAX_VALUE, seen);
    k.run(tick(11) + MS);
    List<String> inKsoftirqd = seen.stream().filter(x -> x.endsWith("ksoftirqd_CPU0")).toList();
    assertThat(seen.subList(0, 6)).containsExactly(
        at(1_000 * US, "B"), at(tick(1), "B"), at(tick(2), "B"), at(tick(3), "B"),
        at(tick(4), "B"), at(tick(5), "B"));
    assertThat(inKsoftirqd).hasSize(5_001);
    for (int m = 1; m <= 5_001; m += 1_000) {
      assertThat(inKsoftirqd.get(m - 1)).isEqualTo(at(tick(5) + m * NET_RX, "ksoftirqd_CPU0"));
    }
    assertThat(inKsoftirqd.get(5_000)).isEqualTo(at(100_010_838L, "ksoftirqd_CPU0"));
    assertThat(seen.subList(6 + 5_001, seen.size())).containsExactly(at(tick(11), "B"));
  }
}
