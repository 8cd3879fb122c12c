package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.DiskSpec;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Timers, block I/O, fork and exit, ksoftirqd: the services paths are built from. */
class KernelServicesTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  private static KernelBuilder zeroCost(int cpus) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 5)
        .scheduler(new SimpleRoundRobinScheduler());
  }

  @Test
  void nanosleepWakesAtTheFirstTickAfterTheRoundedUpLengthPlusOne() {
    List<Long> woke = new ArrayList<>();
    KernelPath p =
        KernelPath.userProgram("sleeper")
            .compute(3 * MS)
            .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
                .nanosleep(Distribution.fixed(15 * MS)).build())
            .probe((c, t, now) -> woke.add(now))
            .build();
    Kernel k = zeroCost(1).task(TaskSpec.user("sleeper", p)).build();
    k.run(100 * MS);
    // At jiffies 1 (t = 3 ms), 15 ms = 2 ticks, + 1 = expiry at jiffies 4: the 3rd PIT tick.
    assertThat(woke).hasSize(1);
    assertThat(woke.get(0)).isEqualTo(3L * 11_932L * 1_000_000_000L / 1_193_180L);
  }

  @Test
  void nanosleepOfARealTimeTaskUpToTwoMillisecondsBusyWaits() {
    for (long ns : new long[] {1_500_000, 2_500_000}) {
      List<Long> woke = new ArrayList<>();
      KernelPath p =
          KernelPath.userProgram("rt")
              .compute(3 * MS)
              .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep")
                  .nanosleep(Distribution.fixed(ns)).build())
              .probe((c, t, now) -> woke.add(now))
              .build();
      zeroCost(1).task(TaskSpec.user("rt", p).fifo(10)).build().run(100 * MS);
      long expected = ns <= 2 * MS ? 3 * MS + ns : 2L * 11_932L * 1_000_000_000L / 1_193_180L;
      assertThat(woke).as("%d ns", ns).containsExactly(expected);
    }
  }

  @Test
  void aTaskWaitsUninterruptiblyForItsDiskIoWhileAnotherRuns() {
    List<Long> done = new ArrayList<>();
    KernelPath reader =
        KernelPath.userProgram("reader")
            .syscall(KernelPath.path("fs/buffer.c", "bread")
                .diskIo(Distribution.fixed(30_000_000), Distribution.fixed(8), false).build())
            .probe((c, t, now) -> done.add(now))
            .build();
    Kernel k =
        zeroCost(1)
            .task(TaskSpec.user("reader", reader))
            .task(TaskSpec.user("hog", RtcProbeRig.userHog()))
            .build();
    k.run(MS);
    assertThat(k.task("reader").orElseThrow().state()).isEqualTo(TaskState.UNINTERRUPTIBLE);
    k.run(100 * MS);
    DiskSpec d = k.machine().spec().disk();
    long min = d.controllerOverheadNs() + d.seekNs(30_000) + d.mediaNs(8);
    long completed = k.machine().ioApic().lastAssertNs(14);
    assertThat(completed).isBetween(min, min + d.revolutionNs());
    // Woken at completion, the reader (SCHED_OTHER like the hog) runs when the hog's
    // round-robin slice ends at a tick: the test scheduler does not preempt equals.
    assertThat(done).hasSize(1);
    assertThat(done.get(0)).isGreaterThanOrEqualTo(completed);
    assertThat(k.machine().disk().served()).isEqualTo(1);
  }

  /**
   * PIO with unmaskirq off (hdparm -u0): read_intr copies the drive's DRQ block, multcount
   * sectors, with interrupts off, so an RTC interrupt asserted during the copy waits for its end
   * (drivers/ide/ide-disk.c read_intr, ide.c ide_intr, 2.4.17).
   */
  @Test
  void pioWithoutUnmaskHoldsInterruptsOffForOneDrqBlock() {
    MachineSpec pio = MachineSpec.uniprocessor().withCosts(CostTable.zero())
        .withDisk(DiskSpec.ata7200rpm().withPio(false).withMultcount(16));
    KernelPath reader =
        KernelPath.userProgram("reader")
            .syscall(KernelPath.path("fs/buffer.c", "bread")
                .diskIo(Distribution.fixed(0), Distribution.fixed(16), false).build())
            .build();
    RtcProbeRig rig = new RtcProbeRig();
    Kernel k =
        new KernelBuilder(pio, 5)
            .scheduler(new SimpleRoundRobinScheduler())
            .requestIrq(Rtc.IRQ, "rtc", rig.rtcInterrupt, true)
            .task(TaskSpec.user("P", rig.probe).fifo(99))
            .task(TaskSpec.user("reader", reader))
            .build();
    // Find when the block's interrupt comes, then assert the RTC in the middle of its copy.
    k.run(60 * MS);
    long copy = pio.disk().pioCopyNs(16);
    assertThat(copy).isEqualTo(493_493); // 8 KB at 16.6 MB/s
    assertThat(k.machine().disk().served()).isEqualTo(1);
    long block = k.machine().ioApic().lastAssertNs(14);
    RtcProbeRig rig2 = new RtcProbeRig();
    Kernel k2 =
        new KernelBuilder(pio, 5)
            .scheduler(new SimpleRoundRobinScheduler())
            .requestIrq(Rtc.IRQ, "rtc", rig2.rtcInterrupt, true)
            .task(TaskSpec.user("P", rig2.probe).fifo(99))
            .task(TaskSpec.user("reader", reader))
            .build();
    RtcProbeRig.assertRtcAt(k2, block + 100 * US);
    k2.run(80 * MS);
    assertThat(rig2.latencies).containsExactly(copy - 100 * US);
  }

  /** hdparm -u1: the IDE handler re-enables interrupts, so the RTC handler runs at once. */
  @Test
  void unmaskIrqLetsOtherInterruptsInDuringThePioCopy() {
    for (boolean unmask : new boolean[] {false, true}) {
      MachineSpec pio = MachineSpec.uniprocessor().withCosts(CostTable.zero())
          .withDisk(DiskSpec.ata7200rpm().withPio(unmask).withMultcount(16));
      List<Long> handlerDelay = new ArrayList<>();
      KernelPath rtc =
          KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
              .effect("read register C, note the delay", c -> {
                c.machine().rtc().readRegisterC();
                handlerDelay.add(c.now() - c.machine().ioApic().lastAssertNs(Rtc.IRQ));
              })
              .build();
      KernelPath reader =
          KernelPath.userProgram("reader")
              .syscall(KernelPath.path("fs/buffer.c", "bread")
                  .diskIo(Distribution.fixed(0), Distribution.fixed(16), false).build())
              .build();
      Kernel k =
          new KernelBuilder(pio, 5)
              .scheduler(new SimpleRoundRobinScheduler())
              .requestIrq(Rtc.IRQ, "rtc", rtc, true)
              .task(TaskSpec.user("reader", reader))
              .build();
      k.run(60 * MS);
      long block = k.machine().ioApic().lastAssertNs(14);
      Kernel k2 =
          new KernelBuilder(pio, 5)
              .scheduler(new SimpleRoundRobinScheduler())
              .requestIrq(Rtc.IRQ, "rtc", rtc, true)
              .task(TaskSpec.user("reader", reader))
              .build();
      RtcProbeRig.assertRtcAt(k2, block + 100 * US);
      k2.run(80 * MS);
      long copy = pio.disk().pioCopyNs(16);
      assertThat(handlerDelay).as("unmask=%s", unmask).containsExactly(unmask ? 0 : copy - 100 * US);
    }
  }

  /**
   * The block layer merges a task's 32 buffer heads into requests of at most 255 sectors (31
   * heads of 8 sectors), and the task wakes when the last of them is done; in PIO with
   * multiple mode off the drive interrupts once a sector (__make_request, ll_rw_blk.c;
   * read_intr, ide-disk.c; 2.4.17).
   */
  @Test
  void aTasksBuffersAreMergedIntoRequestsOfAtMostMaxSectorsAndItWakesAfterTheLast() {
    MachineSpec pio = MachineSpec.uniprocessor().withCosts(CostTable.zero())
        .withDisk(DiskSpec.ata7200rpm().withPio(false));
    List<Long> done = new ArrayList<>();
    KernelPath reader =
        KernelPath.userProgram("reader")
            .syscall(KernelPath.path("fs/buffer.c", "bread")
                .diskIo(Distribution.fixed(0), Distribution.fixed(256), false).build())
            .probe((c, t, now) -> done.add(now))
            .build();
    Kernel k = new KernelBuilder(pio, 5).scheduler(new SimpleRoundRobinScheduler())
        .task(TaskSpec.user("reader", reader)).build();
    k.run(200 * MS);
    assertThat(k.machine().disk().served()).as("248 + 8 sectors").isEqualTo(2);
    assertThat(k.machine().ioApic().assertCount(14)).as("one interrupt a sector").isEqualTo(256);
    assertThat(done).hasSize(1);
    assertThat(done.get(0)).isGreaterThanOrEqualTo(k.machine().ioApic().lastAssertNs(14));
  }

  @Test
  void forkedChildrenRunAndExitedTasksAreReaped() {
    List<String> ran = new ArrayList<>();
    KernelPath child =
        KernelPath.userProgram("child").compute(MS).probe((c, t, now) -> ran.add(t.comm())).build();
    KernelPath parent =
        KernelPath.userProgram("parent")
            .syscall(KernelPath.path("kernel/fork.c", "sys_fork")
                .compute(300_000).fork("child", child).build())
            .compute(2 * MS)
            .build();
    Kernel k = zeroCost(1).task(TaskSpec.user("parent", parent)).build();
    k.run(50 * MS);
    assertThat(ran).containsExactly("child");
    assertThat(k.task("child")).isEmpty();
    assertThat(k.task("parent")).isEmpty();
    assertThat(k.scheduler().queuedTasks()).extracting(TaskView::comm).doesNotContain("parent", "child");
  }

  @Test
  void softirqsLeftOverByDoSoftirqRunInKsoftirqd() {
    // A softirq that raises itself again: do_softirq runs it once per restart pass, then hands
    // the rest to ksoftirqd (nice 19), which keeps running it as long as it is raised.
    int[] runs = {0};
    KernelPath again =
        KernelPath.path("net/core/dev.c", "net_rx_action")
            .compute(10_000)
            .effect("raise again (5 times)", c -> {
              if (++runs[0] < 5) {
                c.raiseSoftirq(Softirq.NET_RX);
              }
            })
            .build();
    RtcProbeRig rig = new RtcProbeRig();
    KernelPath h =
        KernelPath.path("drivers/char/rtc.c", "rtc+raise").call(rig.rtcInterrupt).raiseSoftirq(Softirq.NET_RX).build();
    Kernel k =
        zeroCost(1)
            .requestIrq(Rtc.IRQ, "rtc", h, true)
            .openSoftirq(Softirq.NET_RX, again)
            .task(TaskSpec.user("P", rig.probe).fifo(99))
            .build();
    RtcProbeRig.assertRtcAt(k, MS);
    k.run(5 * MS);
    assertThat(runs[0]).isEqualTo(5);
    assertThat(k.task("ksoftirqd_CPU0").orElseThrow().voluntarySwitches()).isGreaterThanOrEqualTo(1);
  }
}
