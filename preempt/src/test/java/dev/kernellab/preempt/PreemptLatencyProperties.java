package dev.kernellab.preempt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtcProbeRig;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.SpinLock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The patch's promise over random kernel paths: the latency of a woken real-time task is the
 * remaining length of the outermost non-preemptible region it landed in (spinlock held,
 * preempt_disable, bottom halves off, interrupts off), or zero outside such regions; without
 * the patch it is the remaining length of the whole kernel path. Zero-cost machine, so "plus
 * fixed costs" is plus zero.
 *
 * <p>Regions are properly nested or disjoint; two adjacent regions do not merge, because the
 * preemption happens at the instant the first one ends (the unlock, or the interrupt taken at
 * sti with a zero count). The wake-up instant sits half a microsecond off the 10 us grid of
 * the path, so no operation boundary coincides with it.
 */
class PreemptLatencyProperties {

  private static final long US = 1_000;
  private static final SpinLock[] LOCKS = {SpinLock.spin("A"), SpinLock.spin("B"), SpinLock.spin("C")};

  private record Decoded(KernelPath path, long lengthNs, List<long[]> outermost, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  // Tokens: 0..2 compute((t+1) * 100 us); 3..6 open lock / preempt-off / irq-off / bh-off;
  // 7 close the innermost region. Interrupt-off regions use local_irq_save/restore, which
  // nest; plain cli/sti do not (an inner sti turns interrupts on for the outer region too).
  private static Decoded decode(List<Integer> tokens) {
    KernelPath.Builder b = KernelPath.path("test/random.c", "K");
    List<long[]> outer = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    long[] clock = {0};
    int[] pos = {0};
    emit(b, tokens, pos, 0, clock, outer, text);
    return new Decoded(b.build(), clock[0], outer, text.toString());
  }

  private static void emit(KernelPath.Builder b, List<Integer> tokens, int[] pos, int depth,
      long[] clock, List<long[]> outer, StringBuilder text) {
    while (pos[0] < tokens.size()) {
      int t = tokens.get(pos[0]++) % 8;
      if (t <= 2) {
        long ns = (t + 1) * 100 * US;
        b.compute(ns);
        clock[0] += ns;
        text.append("c").append(ns / US).append(' ');
      } else if (t == 7) {
        if (depth > 0) {
          return;
        }
      } else if (depth < LOCKS.length) {
        long start = clock[0];
        SpinLock l = LOCKS[depth];
        String[] names = {"lock", "preempt_off", "irq_off", "bh_off"};
        text.append(names[t - 3]).append("{ ");
        switch (t) {
          case 3 -> b.spinLock(l);
          case 4 -> b.preemptDisable();
          case 5 -> b.localIrqSave();
          default -> b.localBhDisable();
        }
        emit(b, tokens, pos, depth + 1, clock, outer, text);
        switch (t) {
          case 3 -> b.spinUnlock(l);
          case 4 -> b.preemptEnable();
          case 5 -> b.localIrqRestore();
          default -> b.localBhEnable();
        }
        text.append("} ");
        if (depth == 0) {
          outer.add(new long[] {start, clock[0]});
        }
      }
    }
  }

  @Test
  void withThePatchLatencyIsTheRestOfTheRegionItLandedInWithoutItTheRestOfThePath() {
    qt().withFixedSeed(0x0b)
        .withExamples(120)
        .forAll(lists().of(integers().between(0, 7)).ofSizeBetween(1, 30), integers().between(0, 999))
        .checkAssert((tokens, where) -> {
          Decoded d = decode(tokens);
          if (d.lengthNs() == 0) {
            return;
          }
          long tIrq = d.lengthNs() * where / 1000 / (10 * US) * (10 * US) + 500;
          if (tIrq >= d.lengthNs()) {
            return;
          }
          long expectedPatched = 0;
          for (long[] r : d.outermost()) {
            if (r[0] < tIrq && tIrq < r[1]) {
              expectedPatched = r[1] - tIrq;
            }
          }
          assertThat(latency(d.path(), tIrq, true)).as("patched: %s at %d", d, tIrq).isEqualTo(expectedPatched);
          assertThat(latency(d.path(), tIrq, false))
              .as("vanilla: %s at %d", d, tIrq)
              .isEqualTo(d.lengthNs() - tIrq);
        });
  }

  private static long latency(KernelPath k, long tIrq, boolean patched) {
    RtcProbeRig rig = new RtcProbeRig();
    KernelBuilder b = rig.builder(new SimpleRoundRobinScheduler(), RtcProbeRig.busyTask(k));
    if (patched) {
      b.patch(new PreemptKernelPatch());
    }
    // The PIT's first tick falls at 10 ms; stay inside a window it cannot disturb by running
    // long enough for P to come back whatever the path length.
    return rig.firstLatency(b, tIrq, k.listing().isEmpty() ? tIrq + 1 : tIrq + 200_000_000L);
  }
}
