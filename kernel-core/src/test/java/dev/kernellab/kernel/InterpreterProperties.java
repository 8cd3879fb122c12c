package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.Vectors;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Properties of the interpreter over random well-formed kernel paths: balanced lock, irq,
 * preempt and bh regions and loops, decoded from a list of ints so QuickTheories can shrink a
 * failure to a short path. One task runs the path as a system call on a zero-cost UP machine;
 * one RTC interrupt with a 50 us handler arrives at a random instant.
 */
class InterpreterProperties {

  private static final long US = 1_000;
  private static final long HANDLER_NS = 50 * US;
  private static final SpinLock[] LOCKS = {
    SpinLock.spin("L0"), SpinLock.spin("L1"), SpinLock.spin("L2"), SpinLock.spin("L3")
  };

  /** The region kinds a token can open. */
  private enum Region {
    LOCK,
    LOCK_IRQ,
    LOCK_IRQSAVE,
    LOCK_BH,
    IRQ_OFF,
    PREEMPT_OFF,
    BH_OFF,
    LOOP
  }

  /** A decoded path and what the model expects of it. */
  private record Program(KernelPath path, long computeNs, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  private static Program decode(List<Integer> tokens) {
    StringBuilder text = new StringBuilder();
    long[] total = {0};
    KernelPath.Builder root = KernelPath.path("test/random.c", "random_path");
    int[] pos = {0};
    emit(root, tokens, pos, 0, 1, total, text);
    return new Program(root.build(), total[0], text.toString());
  }

  // Tokens: 0..3 compute((t+1) * 10 us); 4..11 open a region; 12 close the innermost.
  private static void emit(KernelPath.Builder b, List<Integer> tokens, int[] pos, int depth,
      long multiplier, long[] total, StringBuilder text) {
    while (pos[0] < tokens.size()) {
      int t = tokens.get(pos[0]++) % 13;
      if (t <= 3) {
        long ns = (t + 1) * 10 * US;
        b.compute(ns);
        total[0] += ns * multiplier;
        text.append("c").append(ns / US).append(' ');
      } else if (t == 12) {
        if (depth > 0) {
          return;
        }
      } else if (depth < LOCKS.length) {
        Region r = Region.values()[t - 4];
        SpinLock l = LOCKS[depth];
        text.append(r).append("{ ");
        switch (r) {
          case LOCK -> b.spinLock(l);
          case LOCK_IRQ -> b.spinLockIrq(l);
          case LOCK_IRQSAVE -> b.spinLockIrqSave(l);
          case LOCK_BH -> b.spinLockBh(l);
          case IRQ_OFF -> b.localIrqDisable();
          case PREEMPT_OFF -> b.preemptDisable();
          case BH_OFF -> b.localBhDisable();
          case LOOP -> {}
        }
        if (r == Region.LOOP) {
          int start = pos[0];
          b.loop("loop" + start, 3, body -> emit(body, tokens, pos, depth + 1, multiplier * 3, total, text));
        } else {
          emit(b, tokens, pos, depth + 1, multiplier, total, text);
        }
        switch (r) {
          case LOCK -> b.spinUnlock(l);
          case LOCK_IRQ -> b.spinUnlockIrq(l);
          case LOCK_IRQSAVE -> b.spinUnlockIrqRestore(l);
          case LOCK_BH -> b.spinUnlockBh(l);
          case IRQ_OFF -> b.localIrqEnable();
          case PREEMPT_OFF -> b.preemptEnable();
          case BH_OFF -> b.localBhEnable();
          case LOOP -> {}
        }
        text.append("} ");
      }
    }
  }

  /** What the run recorded. */
  private static final class Recorder implements Tracer {
    final List<long[]> irqsOff = new ArrayList<>(); // [from, to)
    long irqEntry = -1;

    @Override
    public void irqsOn(long now, int cpu, KernelPath path, long lengthNs) {
      irqsOff.add(new long[] {now - lengthNs, now});
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      if (vector != Vectors.FIRST_DEVICE_VECTOR && irqEntry < 0) {
        irqEntry = now;
      }
    }
  }

  @Test
  void randomWellFormedPathsBalanceEverythingAndChargeExactlyTheirComputeTime() {
    qt().withFixedSeed(0x1ab)
        .withExamples(150)
        .forAll(lists().of(integers().between(0, 12)).ofSizeBetween(0, 40), longs().between(0, 3_000_000))
        .checkAssert((tokens, tIrq) -> {
          Program prog = decode(tokens);
          for (SpinLock l : LOCKS) {
            assertThat(l.isHeldExclusive()).isFalse();
          }
          Recorder rec = new Recorder();
          RtcProbeRig rig = new RtcProbeRig();
          KernelPath handler =
              KernelPath.path("test/random.c", "irq").call(rig.rtcInterrupt).compute(HANDLER_NS).build();
          int[] countAtReturn = {-1};
          KernelPath task =
              KernelPath.userProgram("t")
                  .syscall(prog.path())
                  .probe((c, t, now) -> countAtReturn[0] = t.preemptCount())
                  .build();
          Kernel k =
              new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 3)
                  .scheduler(new SimpleRoundRobinScheduler())
                  .tracer(rec)
                  .requestIrq(Rtc.IRQ, "rtc", handler, true)
                  .task(TaskSpec.user("t", task))
                  .build();
          RtcProbeRig.assertRtcAt(k, tIrq);
          // Timer ticks cost nothing on this machine, so only the path and the handler run.
          k.run(prog.computeNs() + tIrq + HANDLER_NS + 1_000_000);
          assertThat(countAtReturn[0]).as("preempt_count back at user mode: %s", prog).isZero();
          for (SpinLock l : LOCKS) {
            assertThat(l.isHeldExclusive()).as("%s released: %s", l, prog).isFalse();
          }
          long interruptTime = HANDLER_NS;
          assertThat(k.machine().cpu(0).computeNs())
              .as("CPU busy time = path compute + handler: %s", prog)
              .isEqualTo(prog.computeNs() + interruptTime);
          long expectedEntry = tIrq;
          for (long[] off : rec.irqsOff) {
            if (off[0] <= tIrq && tIrq < off[1]) {
              expectedEntry = off[1];
            }
          }
          assertThat(rec.irqEntry).as("interrupt accepted at the right instant: %s", prog).isEqualTo(expectedEntry);
        });
  }
}
