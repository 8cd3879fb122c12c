package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.KernelTimer;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.TimerBh;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.mm.Slab;
import dev.kernellab.paths.net.Net;
import org.junit.jupiter.api.Test;

/**
 * One small machine per softirq, timer or slab source, where that source is the worst case of
 * realfeel at 2048 Hz on a preemptible 2.4.17 kernel (so nothing but the source itself holds
 * the probe back), and the anatomy names it in the load's terms through the cause its path
 * declares.
 */
class SoftirqTimerSlabScenarioTests {

  private static final long MS = 1_000_000;

  /**
   * ttcp with 8 MB socket buffers (ttcp -b) writes 4 MB in one call: the congestion window holds
   * most of it on the write queue while the writer owns the socket, and at release_sock the ACKs
   * that came meanwhile release it; the softirq then drains the whole exchange, segment after
   * ACK after segment, until its budget of 302 packets.
   */
  @Test
  void aBigTtcpWriteDrainedInOneSoftirqRunIsNamedAsThatConnectionsPackets() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Net.Connection conn = paths.net().newConnection("ttcp", 512, 512);
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> {
      kb.task(TaskSpec.user("ttcp-t", KernelPath.userProgram("ttcp-t")
          .compute(MS).syscall(conn.sendmsg(256))
          .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS))).build()));
      kb.task(TaskSpec.user("ttcp-r", KernelPath.userProgram("ttcp-r")
          .loop("recv", Long.MAX_VALUE, l -> l.syscall(conn.recv)).build()));
    }, k -> { }, 100 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Net.NetRxAction("ttcp's connection"));
      assertThat(d.iterations()).isEqualTo(Net.RX_BUDGET);
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).startsWith("net_rx_action: 302 packets of ttcp's connection (on ttcp-t[");
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  /** 2,000 timers armed for the same jiffy (the fifth tick) run from one timer bottom half. */
  @Test
  void aTickThatExpiresTwoThousandTimersIsNamedAsRunTimerList() {
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(), (p, kb) -> { }, k -> {
      for (int i = 0; i < 2_000; i++) {
        k.modTimer(new KernelTimer("t" + i, c -> { }), 5);
      }
    }, 100 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new TimerBh.RunTimerList());
      assertThat(d.iterations()).isEqualTo(2_000);
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).startsWith("run_timer_list: 2,000 timers (on ");
  }

  /** calc_load's walk of 2,000 sleeping tasks, once LOAD_FREQ has passed. */
  @Test
  void aLoadAverageOverTwoThousandTasksIsNamedAsCountActiveTasks() {
    KernelPath sleeper = KernelPath.userProgram("sleeper")
        .syscall(Timer.sysNanosleep(3_600_000 * MS)).build();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(), (p, kb) -> {
      for (int i = 0; i < 2_000; i++) {
        kb.task(TaskSpec.user("sleeper" + i, sleeper));
      }
    }, k -> { }, 5_200 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d ->
        assertThat(d.cause()).isEqualTo(new TimerBh.CountActiveTasks()));
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).matches("count_active_tasks: 2,0\\d\\d tasks \\(on .*, \\d+\\.\\d us\\)");
  }

  /**
   * A load pruned 100,000 dentries (the dcache of a big tree, refilled since boot); kswapd is
   * woken every 30 ms and each of its zone passes reaps: the clock hand reaches dentry_cache on
   * the fourth wake-up, which counts its ~2,900 free slabs with interrupts off. kswapd's other
   * work (shrink_cache, the prunes, swap_out) is set to nothing, so the reap is all it does.
   */
  @Test
  void aReapOfTheDentryCacheAfterABigPruneIsNamedWithItsFreeSlabs() {
    PathParams b = PathParams.defaults();
    Distribution none = Distribution.fixed(0);
    Kernel24Paths paths = new Kernel24Paths(new PathParams(b.processPages(), b.munmapPages(), b.readPages(),
        b.writePages(), b.pageCacheMissRate(), b.dirtyBalanceRate(), b.truncatePages(), b.truncateSkipPages(),
        none, none, none, none, b.deviceBuffers(), b.openFiles(), 0, false));
    KernelPath wake = KernelPath.path("scenario/alloc.c", "wakeup_kswapd")
        .wakeUp(paths.vmscan().kswapdWait).build();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("alloc", KernelPath.userProgram("alloc")
        .loop("wake", 5, l -> l.syscall(Timer.sysNanosleep(30 * MS)).syscall(wake)).build())), k -> {
          paths.slab().alloc(Slab.DENTRY_CACHE, 70_000);
          paths.slab().free(Slab.DENTRY_CACHE, 100_000);
        }, 200 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Slab.KmemCacheReap());
      assertThat(d.task().comm()).isEqualTo("kswapd");
      assertThat(d.iterations()).isEqualTo(2_942);
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).startsWith("kmem_cache_reap: 2,942 free slabs counted, interrupts off (on kswapd[");
  }

  /** A reader of /proc/net/tcp walks the established hash with bottom halves off. */
  @Test
  void aReadOfProcNetTcpIsNamedAsTheHashWalkWithBottomHalvesOff() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("netstat", KernelPath.userProgram("netstat")
        .loop("refresh", Long.MAX_VALUE, l -> l.syscall(p.net().tcpGetInfo).syscall(Timer.sysNanosleep(20 * MS)))
        .build())), k -> { }, 100 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d ->
        assertThat(d.cause()).isEqualTo(new Net.TcpGetInfo()));
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).startsWith("tcp_get_info: 8,192 hash buckets walked, bottom halves off (on netstat[");
  }

  /** What explain prints for a declared cause is the cause's own line. */
  @Test
  void aDeclaredCauseReadsAsOneLineInTheLoadsTerms() {
    LatencyCause.Hold h = new LatencyCause.Hold("ksoftirqd_CPU0[3]",
        KernelPath.path("net/core/dev.c", "net_rx_action").build(), 1_000_000, 0);
    assertThat(new Net.NetRxAction("ttcp's connection").describe(h))
        .isEqualTo("net_rx_action: the packets of ttcp's connection (on ksoftirqd_CPU0[3], 1000.0 us)");
  }
}
