package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.kernel.spi.TaskState;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the library, refused where it arrives with one clear exception: the caller's
 * mistakes are the caller's exceptions, not a kernel oops with a CPU and a task, and a value
 * that cannot be right is refused when the path is built, not when it runs.
 */
class LibraryBadInputTests {

  private static final long MS = 1_000_000;
  private static final Site SPIN = new Site("fs/test.c", "spin", "spin");

  private static KernelBuilder builder(KernelPath user) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .task(TaskSpec.user("P", user));
  }

  private static KernelPath spinning() {
    return KernelPath.userProgram("P").loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build();
  }

  @Test
  void runningBackwardsOrFromInsideTheSimulationIsTheCallersError() {
    Kernel k = builder(spinning()).build();
    k.run(20 * MS);
    assertThatIllegalArgumentException().isThrownBy(() -> k.run(10 * MS))
        .withMessage("cannot run until 10000000 ns: the clock is already at 20000000 ns");
    assertThatIllegalArgumentException().isThrownBy(() -> k.run(-1));
    assertThatIllegalArgumentException().isThrownBy(() -> k.run(Long.MIN_VALUE));

    Kernel[] self = new Kernel[1];
    KernelPath nested = KernelPath.userProgram("P").probe((c, t, now) -> self[0].run(now + MS)).build();
    self[0] = builder(nested).build();
    assertThatThrownBy(() -> self[0].run(5 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("run() called from inside the simulation");
  }

  @Test
  void anOopsedKernelDoesNotRunOn() {
    KernelPath bad = KernelPath.userProgram("P").syscall(KernelPath.path("fs/test.c", "bad")
        .compute("a length that cannot be", c -> -1).build()).build();
    Kernel k = builder(bad).build();
    assertThatThrownBy(() -> k.run(5 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("a length that cannot be").hasMessageContaining("-1 ns");
    assertThatIllegalStateException().isThrownBy(() -> k.run(10 * MS)).withMessageContaining("this kernel oopsed");
  }

  @Test
  void aNegativeCountIsTheCountsBugNotAnEmptyLoop() {
    Site each = new Site("fs/test.c", "walk", "each");
    KernelPath walk = KernelPath.path("fs/test.c", "walk").loop(each, c -> -3, l -> l.compute(1)).build();
    Kernel k = builder(KernelPath.userProgram("P").syscall(walk).build()).build();
    assertThatThrownBy(() -> k.run(5 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("loop fs/test.c:walk#each: its count is -3");
  }

  @Test
  void aSleepLongerThanJiffiesCanCountIsForEver() {
    KernelPath sleeper = KernelPath.userProgram("P").syscall(KernelPath.path("kernel/sched.c", "forever")
        .sleepFor(Long.MAX_VALUE).build()).build();
    Kernel k = builder(sleeper).build();
    k.run(50 * MS);
    assertThat(k.task("P").orElseThrow().state()).isEqualTo(TaskState.INTERRUPTIBLE);
    KernelPath napper = KernelPath.userProgram("P").syscall(KernelPath.path("kernel/timer.c", "forever")
        .nanosleep(Distribution.fixed(Long.MAX_VALUE)).build()).build();
    Kernel n = builder(napper).build();
    n.run(50 * MS);
    assertThat(n.task("P").orElseThrow().state()).isEqualTo(TaskState.INTERRUPTIBLE);
  }

  @Test
  void aUniformDrawUpToTheLargestLongWorks() {
    Distribution d = Distribution.uniform(0, Long.MAX_VALUE);
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      assertThat(d.sample(r)).isNotNegative();
    }
    assertThat(Distribution.uniform(Long.MAX_VALUE, Long.MAX_VALUE).sample(r)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void nullsAreRefusedWhereTheyArrive() {
    KernelPath.Builder b = KernelPath.path("fs/test.c", "f");
    assertThatNullPointerException().isThrownBy(() -> b.compute((Distribution) null)).withMessage("compute: d");
    assertThatNullPointerException().isThrownBy(() -> b.loop(SPIN, (Distribution) null, l -> { }));
    assertThatNullPointerException().isThrownBy(() -> b.sleepOn(null)).withMessage("sleepOn: wq");
    assertThatNullPointerException().isThrownBy(() -> b.wakeUp(null));
    assertThatNullPointerException().isThrownBy(() -> b.raiseSoftirq(null));
    assertThatNullPointerException().isThrownBy(() -> b.nanosleep((Count) null));
    assertThatNullPointerException().isThrownBy(() -> b.effect("x", null));
    assertThatNullPointerException().isThrownBy(() -> b.callIf("x", null, b.build()));
    assertThatIllegalArgumentException().isThrownBy(() -> b.condReschedLock(null, 0));
    assertThatNullPointerException().isThrownBy(() -> KernelPath.userProgram("P").probe(null));
    assertThatNullPointerException().isThrownBy(() -> new KernelTimer("t", null));
    assertThatNullPointerException().isThrownBy(() -> TaskSpec.user("x", null)).withMessage("program");
    assertThatIllegalArgumentException().isThrownBy(() -> new Semaphore(null, 1));
    assertThatNullPointerException().isThrownBy(() -> new WaitQueue(null));
    assertThatIllegalArgumentException().isThrownBy(() -> new Sysctl(null, true));
    Kernel k = builder(spinning()).build();
    assertThatIllegalArgumentException().isThrownBy(() -> k.current(1)).withMessage("no cpu1 on a 1-CPU machine");
    assertThatIllegalArgumentException().isThrownBy(() -> k.cpu(-1));
  }

  @Test
  void aBuilderBuildsOnceAndNamesAreOneWord() {
    KernelBuilder b = builder(spinning());
    b.build();
    assertThatIllegalStateException().isThrownBy(() -> b.task(TaskSpec.user("Q", spinning())))
        .withMessage("this builder already built its kernel: a change now would reach nothing");
    assertThatIllegalStateException().isThrownBy(() -> b.hz(1000));
    assertThatIllegalArgumentException().isThrownBy(() -> TaskSpec.user("", spinning()));
    assertThatIllegalArgumentException().isThrownBy(() -> TaskSpec.user("two\nlines", spinning()))
        .withMessage("a task's name is one word without blanks or control characters, got \"two\\nlines\"");
    Kernel k = builder(spinning()).build();
    assertThatIllegalArgumentException().isThrownBy(() -> k.spawn(TaskSpec.user("swapper/0", spinning())))
        .withMessage("spawn swapper/0: the name of cpu0's idle task");
    assertThatIllegalArgumentException().isThrownBy(() -> k.spawn(TaskSpec.user("P", spinning())))
        .withMessage("spawn P: a live task has that name");
  }

  @Test
  void aSemaphoreCannotWrapNegative() {
    Semaphore s = new Semaphore("sem", Integer.MAX_VALUE);
    assertThatIllegalStateException().isThrownBy(s::up).withMessageContaining("up() past");
  }

  /** Nine million zero-cost iterations are a long loop, not a lockup, with the checks off. */
  @Test
  void withTheDebugChecksOffALongZeroCostLoopRuns() {
    Site each = new Site("fs/test.c", "walk", "each");
    KernelPath walk = KernelPath.path("fs/test.c", "walk").loop(each, 9_000_000, l -> l.compute(0)).build();
    KernelPath user = KernelPath.userProgram("P").syscall(walk).loop("spin", Long.MAX_VALUE, l -> l.compute(MS)).build();
    Kernel off = builder(user).debugChecks(DebugChecks.none()).build();
    off.run(2 * MS);
    assertThatThrownBy(() -> builder(user).build().run(2 * MS)).isInstanceOf(KernelBug.class)
        .hasMessageContaining("soft lockup");
  }
}
