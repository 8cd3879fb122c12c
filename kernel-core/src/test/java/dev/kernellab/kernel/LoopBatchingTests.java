package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Site;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A loop whose body is one bare fixed compute (FlowOps.Compute) runs the iterations that end
 * before the machine's next event as one segment, and must still be interrupted exactly where
 * a per-iteration model would be. On a zero-cost uniprocessor task B enters kernel path K at
 * t = 0: {@code for (i = 0; i < n; i++) compute(1 us)}, then records its end; one device
 * interrupt is asserted at {@code T} and its handler computes 7 us. HZ 100: the first tick is
 * at 10 ms, after every instant here, and the run's horizon is 5 ms.
 *
 * <p>Every expected figure is hand arithmetic: the interrupt at T, the iteration it finds
 * running (index = iterations wholly done before T), and the loop's end at {@code n us + 7 us}
 * when it straddles T, {@code n us} when it does not. The same scenario with the queue's
 * inline ends turned off (no batching possible) must see the same instants; the difference in
 * executed operations is the batching itself, worked out from the window rule (a batch ends by
 * the next event's instant minus 1 ns: Simulation.nextToFireUntil).
 */
class LoopBatchingTests {

  private static final long US = 1_000;
  private static final long BODY = US;
  private static final long HANDLER = 7 * US;
  private static final Site WALK = new Site("test/walk.c", "walk", "walk");
  private static final Site EMPTY = new Site("test/walk.c", "empty", "empty");

  /** What one run saw. */
  private static final class Seen {
    final List<Long> irqAt = new ArrayList<>();
    final List<Long> indexAtIrq = new ArrayList<>();
    final List<Long> leftAtIrq = new ArrayList<>();
    final List<Long> loopEnd = new ArrayList<>();
    long ops;
  }

  /** The loop frame of the task the interrupt found running, or null once past the loop. */
  private static ExecContext.Frame loopFrame(KernelCpu c) {
    ExecContext ctx = c.current.context;
    for (int i = ctx.depth - 1; i >= 0; i--) {
      ExecContext.Frame f = ctx.frame(i);
      if (f.path.site() != null && !f.user) {
        return f;
      }
    }
    return null;
  }

  private static Seen run(long n, long irqAt, boolean inline) {
    Seen seen = new Seen();
    KernelPath handler = KernelPath.path("drivers/test/dev.c", "dev_interrupt")
        .effect("record", c -> {
          seen.irqAt.add(c.now());
          ExecContext.Frame f = loopFrame(c);
          seen.indexAtIrq.add(f == null ? -1 : f.iteration);
          seen.leftAtIrq.add(f == null ? -1 : f.iterationsLeft);
        })
        .compute(HANDLER)
        .build();
    KernelPath k = KernelPath.path("test/walk.c", "walk")
        .loop(WALK, n, body -> body.compute(BODY))
        .effect("end", c -> seen.loopEnd.add(c.now()))
        .build();
    KernelPath b = KernelPath.userProgram("B")
        .syscall(k)
        .syscall(KernelPath.path("test/walk.c", "pause").sleepFor(100 * 1_000_000L).build())
        .build();
    Kernel kernel = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .ksoftirqd(false)
        .requestIrq(Rtc.IRQ, "dev", handler, true)
        .task(TaskSpec.user("B", b))
        .build();
    kernel.machine().simulation().setInlineEvents(inline);
    kernel.machine().simulation().schedule(
        new Event("dev.assert", now -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), irqAt);
    kernel.run(5_000_000);
    seen.ops = kernel.opsExecuted();
    return seen;
  }

  /** The same instants with and without batching; returns the batched run. */
  private static Seen both(long n, long irqAt) {
    Seen batched = run(n, irqAt, true);
    Seen single = run(n, irqAt, false);
    assertThat(batched.irqAt).isEqualTo(single.irqAt);
    assertThat(batched.indexAtIrq).isEqualTo(single.indexAtIrq);
    assertThat(batched.leftAtIrq).isEqualTo(single.leftAtIrq);
    assertThat(batched.loopEnd).isEqualTo(single.loopEnd);
    batched.ops = single.ops - batched.ops; // operations the batching saved
    return batched;
  }

  @Test
  void anInterruptInsideAnIterationIsTakenAtItsInstantAndTheRestOfTheLoopRunsAfterTheHandler() {
    // T = 500.5 us: 500 iterations done, the 501st (index 500) half run; 499 left after it.
    Seen s = both(1_000, 500 * US + 500);
    assertThat(s.irqAt).containsExactly(500 * US + 500);
    assertThat(s.indexAtIrq).containsExactly(500L);
    assertThat(s.leftAtIrq).containsExactly(499L);
    assertThat(s.loopEnd).containsExactly(1_000 * US + HANDLER);
    // Batches: iteration 1 alone (started from the boot kick, not from a segment's end);
    // 2..500 end by T - 1 = 500 499 ns: (500 499 - 1 000) / 1 000 = 499 iterations, one
    // operation; 501 alone, interrupted; its last 0.5 us resumes without a new operation,
    // ending at 507.5 us; 502..1000 fit before the 5 ms horizon: one operation. 4 compute
    // operations instead of 1 000.
    assertThat(s.ops).isEqualTo(1_000 - 4);
  }

  @Test
  void anInterruptAtAnIterationBoundaryComesBeforeTheIterationEndingAtThatInstant() {
    // T = 500 us, when the 500th iteration ends: the assertion was armed first (at boot), so it
    // fires first and finds index 499 with nothing left of it; the loop ends 7 us late.
    Seen s = both(1_000, 500 * US);
    assertThat(s.irqAt).containsExactly(500 * US);
    assertThat(s.indexAtIrq).containsExactly(499L);
    assertThat(s.leftAtIrq).containsExactly(500L);
    assertThat(s.loopEnd).containsExactly(1_000 * US + HANDLER);
    // 1 alone; 2..499 by 499 999 ns (498 iterations: the window holds 498.999); 500 alone,
    // interrupted with 0 ns left; 501..1000 in one piece: 4 operations.
    assertThat(s.ops).isEqualTo(1_000 - 4);
  }

  @Test
  void aLoopWhoseLastIterationEndsAtTheInterruptStillPaysTheHandlerBeforeItEnds() {
    Seen s = both(500, 500 * US);
    assertThat(s.irqAt).containsExactly(500 * US);
    assertThat(s.indexAtIrq).containsExactly(499L);
    assertThat(s.leftAtIrq).containsExactly(0L);
    assertThat(s.loopEnd).containsExactly(500 * US + HANDLER);
    // 1 alone, 2..499 as one, 500 alone: 3 operations.
    assertThat(s.ops).isEqualTo(500 - 3);
  }

  @Test
  void aLoopThatFitsBeforeTheInterruptRunsToItsEndWithoutWaitingForIt() {
    // Nothing remains of the loop at T: it ended at 300 us and B sleeps; the interrupt finds
    // no loop. 1 alone, then 2..300 fit (the window holds 499 and only 299 are left).
    Seen s = both(300, 500 * US);
    assertThat(s.loopEnd).containsExactly(300 * US);
    assertThat(s.irqAt).containsExactly(500 * US);
    assertThat(s.indexAtIrq).containsExactly(-1L);
    assertThat(s.ops).isEqualTo(300 - 2);
  }

  @Test
  void theLastIterationBeforeTheWindowClosesIsNotPulledIntoTheBatch() {
    // T = 3.5 us: iteration 1 alone, then the window (3 499 - 1 000) / 1 000 = 2 holds
    // exactly 2 (iterations 2, 3); the 4th straddles T. Index 3 at T, 6 left.
    Seen s = both(10, 3 * US + 500);
    assertThat(s.irqAt).containsExactly(3 * US + 500);
    assertThat(s.indexAtIrq).containsExactly(3L);
    assertThat(s.leftAtIrq).containsExactly(6L);
    assertThat(s.loopEnd).containsExactly(10 * US + HANDLER);
    // 1, {2,3}, 4 (resumed), {5..10}: 4 operations.
    assertThat(s.ops).isEqualTo(10 - 4);
  }

  @Test
  void aWindowOfOneIterationRunsItAlone() {
    // T = 2.5 us: after iteration 1 the window (2 499 - 1 000) / 1 000 = 1 holds one
    // iteration, which is no batch; the interrupt lands in the 3rd (index 2).
    Seen s = both(4, 2 * US + 500);
    assertThat(s.irqAt).containsExactly(2 * US + 500);
    assertThat(s.indexAtIrq).containsExactly(2L);
    assertThat(s.leftAtIrq).containsExactly(1L);
    assertThat(s.loopEnd).containsExactly(4 * US + HANDLER);
    // 1, 2, 3 (resumed), 4 alone: no operation saved.
    assertThat(s.ops).isZero();
  }

  @Test
  void aZeroLengthBodyTakesNoTimeAndIsNotBatched() {
    // for (i = 0; i < 5; i++) ; after 1 us of work, so it starts from a segment's end inside a
    // window: nothing to batch (a window holds any number of 0 ns iterations), and the path
    // goes on at once, at 1 us.
    List<Long> end = new ArrayList<>();
    KernelPath k = KernelPath.path("test/walk.c", "empty")
        .compute(US)
        .loop(EMPTY, 5, body -> body.compute(0))
        .effect("end", c -> end.add(c.now()))
        .build();
    KernelPath b = KernelPath.userProgram("B")
        .syscall(k)
        .syscall(KernelPath.path("test/walk.c", "pause").sleepFor(100 * 1_000_000L).build())
        .build();
    Kernel kernel = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .ksoftirqd(false)
        .task(TaskSpec.user("B", b))
        .build();
    kernel.run(5_000_000);
    assertThat(end).containsExactly(US);
  }
}
