package dev.kernellab.lowlat;

import dev.kernellab.kernel.CountZeroPreemption;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.CatalogLock;
import dev.kernellab.paths.Kernel24Paths;
import java.util.List;

/**
 * The scenario machine of docs/golden-scenarios.md (kernel-core's {@link RtcProbeRig}: probe P
 * FIFO 99 asleep on the RTC, task B in kernel path K, costs zero) with K a loop at a catalog
 * site, so the patch's hooks apply to it.
 */
final class SiteRig {

  final Kernel24Paths catalog = Kernel24Paths.withDefaults();
  final RtcProbeRig rig = new RtcProbeRig();
  long visited;

  /**
   * K: {@code locks} taken (outermost first), a loop of {@code n} x {@code iterNs} at
   * {@code site} counting its iterations, the locks released.
   */
  KernelPath loopAt(Site site, List<CatalogLock> locks, long n, long iterNs) {
    KernelPath.Builder b = KernelPath.path(site.file(), site.function());
    for (CatalogLock l : locks) {
      b.spinLock(catalog.locks().get(l));
    }
    b.loop(site, n, body -> body.compute(iterNs).effect("visit", c -> visited++));
    for (int i = locks.size() - 1; i >= 0; i--) {
      b.spinUnlock(catalog.locks().get(locks.get(i)));
    }
    return b.build();
  }

  /** The builder: B runs {@code k}; the given patches; optional tracer. */
  KernelBuilder builder(KernelPath k, boolean lowlat, boolean preempt, boolean gateOn, Tracer t) {
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    if (lowlat) {
      b.patch(new LowLatencyPatch(catalog).enabledAtBoot(gateOn));
    }
    if (preempt) {
      b.patch(CountZeroPreemption.patch());
    }
    if (t != null) {
      b.tracer(t);
    }
    return b;
  }

  /** P's first latency with one RTC interrupt at {@code tIrq}. */
  long latency(KernelPath k, long tIrq, boolean lowlat, boolean preempt) {
    return rig.firstLatency(builder(k, lowlat, preempt, true, null), tIrq, 20_000_000);
  }
}
