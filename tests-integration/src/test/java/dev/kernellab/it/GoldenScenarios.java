package dev.kernellab.it;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.Site;
import java.util.List;

/**
 * The hand-worked machines of docs/golden-scenarios.md: what B's kernel path K does from t = 0,
 * when the RTC interrupt is asserted, and P's latency in each configuration.
 */
final class GoldenScenarios {

  static final long US = 1_000;
  static final long MS = 1_000_000;
  static final String FILE = "scenario/k.c";

  /** The four kernels of the debate. */
  enum Config {
    VANILLA(false, false),
    PREEMPT(true, false),
    LOWLAT(false, true),
    BOTH(true, true);

    final boolean preempt;
    final boolean lowlat;

    Config(boolean preempt, boolean lowlat) {
      this.preempt = preempt;
      this.lowlat = lowlat;
    }
  }

  /** What lowlat does at the scenario's site S. */
  enum Hook {
    NONE,
    COND_RESCHED,
    LOCK_BREAK
  }

  /**
   * One row of the table.
   *
   * @param id S1..S8
   * @param k B's kernel path, or null if B is in user mode (S6)
   * @param tIrqNs when the RTC interrupt is asserted, from the start of K
   * @param expectedNs P's latency for VANILLA, PREEMPT, LOWLAT, BOTH
   * @param hook what lowlat does at site S (S8's loop is at T, which no table names)
   * @param lock the lock lowlat breaks
   */
  record Scenario(String id, KernelPath k, long tIrqNs, long[] expectedNs, Hook hook, SpinLock lock) {
    long expected(Config c) {
      return expectedNs[c.ordinal()];
    }

    @Override
    public String toString() {
      return id;
    }
  }

  static final Site S = new Site(FILE, "K", "S");
  static final Site T = new Site(FILE, "K", "T");

  private static KernelPath.Builder k() {
    return KernelPath.path(FILE, "K");
  }

  private static long[] ms(double v, double p, double l, double b) {
    return new long[] {Math.round(v * MS), Math.round(p * MS), Math.round(l * MS), Math.round(b * MS)};
  }

  /** Fresh scenarios (locks carry per-run state, so every test builds its own). */
  static List<Scenario> all() {
    SpinLock l2 = SpinLock.spin("L");
    SpinLock l3 = SpinLock.spin("L");
    SpinLock l7 = SpinLock.spin("L");
    SpinLock l8 = SpinLock.spin("L");
    return List.of(
        new Scenario("S1", k().compute(5 * MS).build(), MS, ms(4, 0, 4, 0), Hook.NONE, null),
        new Scenario(
            "S2",
            k().spinLock(l2).compute(5 * MS).spinUnlock(l2).compute(3 * MS).build(),
            MS, ms(7, 4, 7, 4), Hook.NONE, null),
        new Scenario(
            "S3",
            k().spinLock(l3).loop(S, 50, b -> b.compute(100 * US)).spinUnlock(l3).build(),
            1_050 * US, ms(3.95, 3.95, 0.05, 0.05), Hook.LOCK_BREAK, l3),
        new Scenario(
            "S4",
            k().loop(S, 50, b -> b.compute(100 * US)).build(),
            1_050 * US, ms(3.95, 0, 0.05, 0), Hook.COND_RESCHED, null),
        new Scenario(
            "S5",
            k().localIrqDisable().compute(2 * MS).localIrqEnable().compute(MS).build(),
            MS / 2, ms(2.5, 1.5, 2.5, 1.5), Hook.NONE, null),
        new Scenario("S6", null, MS, ms(0, 0, 0, 0), Hook.NONE, null),
        new Scenario(
            "S7",
            k().spinLock(l7).compute(2 * MS).preemptDisable().spinUnlock(l7).compute(MS)
                .preemptEnable().compute(2 * MS).build(),
            MS, ms(4, 2, 4, 2), Hook.NONE, null),
        new Scenario(
            "S8",
            k().spinLock(l8).loop(T, 30, b -> b.compute(100 * US)).spinUnlock(l8).build(),
            MS / 2, ms(2.5, 2.5, 2.5, 2.5), Hook.LOCK_BREAK, l8));
  }

  private GoldenScenarios() {}
}
