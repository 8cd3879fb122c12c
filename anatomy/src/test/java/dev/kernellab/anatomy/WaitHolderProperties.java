package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.workloads.Realfeel;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Over random scripted system calls, on a zero-cost machine with and without the preempt patch:
 * realfeel's one sample has parts that add up to it, a wait whose holders add up to it, and
 * holders that are exactly what an obviously correct oracle saw run on the CPU from the wake-up
 * to the switch, per task, path and context (hardirq, softirq, task), to the nanosecond.
 *
 * <p>The story: B's system call K runs a lead, then calls one path per block, in order; each
 * block computes a while, then holds one state (interrupts off, a spinlock, two nested locks,
 * bottom halves off, a preempt count, a softirq it raises and runs) for a while, and drops it.
 * The RTC asserts once, at a chosen instant. Where it does not hold: a wait with more than
 * {@link WaitLedger#SLOTS} holders merges the least (the stories here have at most 12 blocks).
 */
class WaitHolderProperties {

  private static final long US = 1_000;

  /** One block of K: a path that computes {@code leadUs}, holds {@code kind} for {@code holdUs}, and drops it. */
  record Block(Kind kind, int leadUs, int holdUs) {
    enum Kind { COMPUTE, IRQS_OFF, LOCK, NESTED_LOCKS, BH, PREEMPT, SOFTIRQ }

    static Block decode(int code) {
      Kind[] kinds = Kind.values();
      return new Block(kinds[code % kinds.length], 50 * (1 + code / kinds.length % 8), 50 * (1 + code / 56 % 8));
    }

    KernelPath path(int i, SpinLock outer, SpinLock inner) {
      KernelPath.Builder b = KernelPath.path("scenario/story.c", "block" + i + "_" + kind).compute(leadUs * US);
      long hold = holdUs * US;
      switch (kind) {
        case COMPUTE -> b.compute(hold);
        case IRQS_OFF -> b.localIrqDisable().compute(hold).localIrqEnable();
        case LOCK -> b.spinLock(outer).compute(hold).spinUnlock(outer);
        case NESTED_LOCKS -> b.spinLock(outer).compute(hold / 2).spinLock(inner).compute(hold / 2)
            .spinUnlock(inner).compute(hold / 2).spinUnlock(outer);
        case BH -> b.localBhDisable().compute(hold).localBhEnable();
        case PREEMPT -> b.preemptDisable().compute(hold).preemptEnable();
        case SOFTIRQ -> b.localBhDisable().raiseSoftirq(Softirq.TASKLET).compute(hold).localBhEnable();
      }
      return b.build();
    }
  }

  private static String key(TaskView t, PathView path, String context) {
    if (t.isIdle() || path == null) {
      return "-";
    }
    return t.comm() + "|" + path + "|" + context;
  }

  private static String key(Cause.Holding h) {
    if (h instanceof Cause.InterruptHandler i) {
      return i.task().comm() + "|" + i.handler() + "|hardirq";
    }
    if (h instanceof Cause.SoftirqRunning s) {
      return s.task().comm() + "|" + s.path() + "|softirq";
    }
    if (h instanceof Cause.InKernelCode k) {
      return k.task().comm() + "|" + k.path() + "|task";
    }
    return "-";
  }

  /** Runs the story: K's lead, {@code blocks}, the RTC at {@code irqAtUs}; checks the one sample. */
  private static int check(boolean preempt, int leadUs, int irqAtUs, List<Block> blocks) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    SpinLock outer = SpinLock.spin("outer");
    SpinLock inner = SpinLock.spin("inner");
    KernelPath tasklet = KernelPath.path("scenario/story.c", "tasklet_action").compute(70 * US).build();
    KernelPath.Builder k = KernelPath.path("scenario/story.c", "K").compute(leadUs * US);
    for (int i = 0; i < blocks.size(); i++) {
      k.call(blocks.get(i).path(i, outer, inner));
    }
    KernelPath b = KernelPath.userProgram("B").syscall(k.build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(1_000 * US)).build();
    Realfeel realfeel = new Realfeel(paths, Realfeel.DEFAULT_HZ);
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    kb.openSoftirq(Softirq.TASKLET, tasklet);
    if (preempt) {
      kb.patch(new PreemptKernelPatch());
    }
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 1);
    CpuStateOracle oracle = new CpuStateOracle();
    kb.tracer(anatomy).tracer(oracle);
    kb.task(realfeel.task()).task(TaskSpec.user("B", b));
    realfeel.listen(anatomy);
    Kernel kernel = kb.build();
    kernel.machine().simulation().schedule(
        new Event("rtc", t -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), irqAtUs * US);
    kernel.run(60_000 * US);
    assertThat(realfeel.result().latency().samples()).isEqualTo(1);
    SampleAnatomy s = anatomy.worst().get(0);
    long t = s.atNs() - s.latencyNs();
    assertThat(t).isEqualTo(irqAtUs * US);
    long waitFrom = -1;
    for (Segment g : s.segments()) {
      if (g.part() == Part.WAIT_FOR_CPU) {
        waitFrom = t;
      }
      t += g.ns();
    }
    assertThat(t).isEqualTo(s.atNs());
    Segment wait = s.segment(Part.WAIT_FOR_CPU).orElseThrow();
    Map<String, Long> got = new TreeMap<>();
    for (Cause.Holding h : wait.holders()) {
      got.merge(key(h), h.ns(), Long::sum);
    }
    assertThat(got).isEqualTo(oracle.ran(s.cpu(), waitFrom, waitFrom + wait.ns(), WaitHolderProperties::key));
    if (!wait.holders().isEmpty()) {
      long longest = wait.holders().stream().mapToLong(Cause.Holding::ns).max().orElseThrow();
      assertThat(wait.cause()).isEqualTo(
          wait.holders().stream().filter(h -> h.ns() == longest).findFirst().orElseThrow());
    }
    return wait.holders().size();
  }

  @Test
  void theWaitsHoldersAreWhatRanFromTheWakeUpToTheSwitch() {
    int[] waits = new int[2]; // stories whose wait had a holder, and more than one
    qt().withFixedSeed(0x0A1L)
        .withExamples(80)
        .withShrinkCycles(100)
        .forAll(integers().between(0, 1), integers().between(1, 40), integers().between(1, 40),
            lists().of(integers().between(0, 7 * 8 * 8 - 1)).ofSizeBetween(0, 12))
        .checkAssert((preempt, lead, irq, codes) -> {
          int holders = check(preempt == 1, 50 * lead, 50 * irq, codes.stream().map(Block::decode).toList());
          waits[0] += holders > 0 ? 1 : 0;
          waits[1] += holders > 1 ? 1 : 0;
        });
    assertThat(waits[0]).as("stories with a wait").isGreaterThanOrEqualTo(40);
    assertThat(waits[1]).as("of which held by more than one").isGreaterThanOrEqualTo(25);
  }
}
