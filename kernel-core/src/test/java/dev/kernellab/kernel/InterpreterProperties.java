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
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Tracer;
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
  private record Program(KernelPath path, long computeNs, List<long[]> irqsOff, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /**
   * The reference model of the interrupt flag along the path, independent of the kernel's
   * code: the rules of include/linux/spinlock.h and include/asm-i386/system.h (2.4.17) written
   * out. {@code spin_lock_irq} and {@code local_irq_disable} clear IF; {@code spin_unlock_irq}
   * and {@code local_irq_enable} set it whatever it was; {@code spin_lock_irqsave} saves IF and
   * clears it, {@code spin_unlock_irqrestore} puts the saved value back (clearing IF again if
   * an inner {@code spin_unlock_irq} set it); the plain and
   * {@code _bh} forms, {@code preempt_disable} and {@code local_bh_disable} leave it alone.
   * Time advances only through the path's own compute (every other cost is zero).
   */
  private static final class IfModel {
    long now;
    boolean enabled = true;
    long offSince;
    final List<long[]> off = new ArrayList<>(); // [from, to), path time

    void cli() {
      if (enabled) {
        enabled = false;
        offSince = now;
      }
    }

    void sti() {
      if (!enabled) {
        enabled = true;
        off.add(new long[] {offSince, now});
      }
    }
  }

  private static Program decode(List<Integer> tokens) {
    StringBuilder text = new StringBuilder();
    long[] total = {0};
    KernelPath.Builder root = KernelPath.path("test/random.c", "random_path");
    int[] pos = {0};
    IfModel model = new IfModel();
    List<java.util.function.Consumer<IfModel>> steps = new ArrayList<>();
    emit(root, tokens, pos, 0, 1, total, text, steps);
    steps.forEach(s -> s.accept(model));
    return new Program(root.build(), total[0], model.off, text.toString());
  }

  // Tokens: 0..3 compute((t+1) * 10 us); 4..11 open a region; 12 close the innermost.
  // Alongside the path, each token appends what it does to the interrupt flag model to
  // `steps`; a loop's body steps are appended three times, as the loop runs them.
  private static void emit(KernelPath.Builder b, List<Integer> tokens, int[] pos, int depth,
      long multiplier, long[] total, StringBuilder text,
      List<java.util.function.Consumer<IfModel>> steps) {
    while (pos[0] < tokens.size()) {
      int t = tokens.get(pos[0]++) % 13;
      if (t <= 3) {
        long ns = (t + 1) * 10 * US;
        b.compute(ns);
        total[0] += ns * multiplier;
        steps.add(m -> m.now += ns);
        text.append("c").append(ns / US).append(' ');
      } else if (t == 12) {
        if (depth > 0) {
          return;
        }
      } else if (depth < LOCKS.length) {
        Region r = Region.values()[t - 4];
        SpinLock l = LOCKS[depth];
        text.append(r).append("{ ");
        boolean[] saved = new boolean[1];
        switch (r) {
          case LOCK -> b.spinLock(l);
          case LOCK_IRQ -> {
            b.spinLockIrq(l);
            steps.add(IfModel::cli);
          }
          case LOCK_IRQSAVE -> {
            b.spinLockIrqSave(l);
            steps.add(m -> {
              saved[0] = m.enabled;
              m.cli();
            });
          }
          case LOCK_BH -> b.spinLockBh(l);
          case IRQ_OFF -> {
            b.localIrqDisable();
            steps.add(IfModel::cli);
          }
          case PREEMPT_OFF -> b.preemptDisable();
          case BH_OFF -> b.localBhDisable();
          case LOOP -> {}
        }
        if (r == Region.LOOP) {
          int start = pos[0];
          List<java.util.function.Consumer<IfModel>> body = new ArrayList<>();
          b.loop(new Site("test/random.c", "random_path", "loop" + start), 3,
              x -> emit(x, tokens, pos, depth + 1, multiplier * 3, total, text, body));
          for (int i = 0; i < 3; i++) {
            steps.addAll(body);
          }
        } else {
          emit(b, tokens, pos, depth + 1, multiplier, total, text, steps);
        }
        switch (r) {
          case LOCK -> b.spinUnlock(l);
          case LOCK_IRQ -> {
            b.spinUnlockIrq(l);
            steps.add(IfModel::sti);
          }
          case LOCK_IRQSAVE -> {
            b.spinUnlockIrqRestore(l);
            steps.add(m -> {
              if (saved[0]) {
                m.sti();
              } else {
                m.cli(); // the saved IF was clear: off again, even after an inner sti
              }
            });
          }
          case LOCK_BH -> b.spinUnlockBh(l);
          case IRQ_OFF -> {
            b.localIrqEnable();
            steps.add(IfModel::sti);
          }
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
    final List<long[]> irqsOff = new ArrayList<>(); // [from, to), as the kernel traced them
    long irqEntry = -1;

    @Override
    public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
      // The random path's own regions (its loop bodies are paths of the same function), not
      // the kernel's entry, exit and schedule() code.
      if (path != null && path.function().equals("random_path")) {
        irqsOff.add(new long[] {now - lengthNs, now});
      }
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
          // The oracle is the reference model's interrupt-off intervals, not the kernel's
          // trace: an interrupt asserted inside [from, to) waits for the sti at `to`; one
          // asserted with IF set is taken at once.
          long expectedEntry = tIrq;
          for (long[] off : prog.irqsOff()) {
            if (off[0] <= tIrq && tIrq < off[1]) {
              expectedEntry = off[1];
            }
          }
          assertThat(rec.irqEntry).as("interrupt accepted at the right instant: %s", prog).isEqualTo(expectedEntry);
          // The kernel's irqs_off trace agrees with the model: the path's intervals, those
          // from the handler's entry on shifted by the handler's 50 us.
          List<String> expectedTrace = new ArrayList<>();
          for (long[] off : prog.irqsOff()) {
            long shift = off[0] >= expectedEntry ? HANDLER_NS : 0;
            expectedTrace.add((off[0] + shift) + ".." + (off[1] + shift));
          }
          List<String> traced = new ArrayList<>();
          rec.irqsOff.forEach(off -> traced.add(off[0] + ".." + off[1]));
          assertThat(traced).as("irqs-off intervals traced: %s", prog).isEqualTo(expectedTrace);
        });
  }
}
