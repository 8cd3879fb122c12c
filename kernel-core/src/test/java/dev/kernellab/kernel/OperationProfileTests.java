package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.Site;
import org.junit.jupiter.api.Test;

/** The operation profile counts what the interpreter ran, and only while it is on. */
class OperationProfileTests {

  private static final long MS = 1_000_000;

  private static final Site SITE = new Site("mm/test.c", "walk", "pages");

  private static Kernel kernel() {
    return kernel(DebugChecks.all());
  }

  private static Kernel kernel(DebugChecks debug) {
    SpinLock lock = SpinLock.spin("test_lock");
    KernelPath walk = KernelPath.path("mm/test.c", "walk")
        .spinLock(lock)
        .loop(SITE, Distribution.fixed(100), i -> i.compute(1_000).effect("visit", c -> { }))
        .spinUnlock(lock)
        .build();
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(debug)
        .task(TaskSpec.user("U", KernelPath.userProgram("U")
            .loop("main", Long.MAX_VALUE, l -> l.syscall(walk).compute(MS))
            .build()))
        .build();
  }

  @Test
  void theKindsAndThePathsEachAddUpToTheOperationsRunWhileCounting() {
    Kernel k = kernel();
    k.run(10 * MS);
    assertThat(k.operationProfile().byKind()).isEmpty();
    long before = k.opsExecuted();
    long forwardedBefore = k.opsFastForwarded();
    k.profileOperations();
    k.run(30 * MS);
    OperationProfile p = k.operationProfile();
    long ran = k.opsExecuted() - before;
    assertThat(p.byKind().stream().mapToLong(OperationProfile.Count::ops).sum()).isEqualTo(ran);
    assertThat(p.byPath().stream().mapToLong(OperationProfile.Count::ops).sum()).isEqualTo(ran);
    assertThat(p.fastForwardedByPath().stream().mapToLong(OperationProfile.Count::ops).sum())
        .isEqualTo(k.opsFastForwarded() - forwardedBefore);
    // each system call runs 100 iterations of a compute and an effect (not a bare compute
    // loop, which runs as one piece): the loop body's path is the busiest
    assertThat(p.byPath().get(0).name()).isEqualTo("mm/test.c:walk#pages");
    assertThat(p.byKind()).extracting(OperationProfile.Count::name).contains("FlowOps.Compute");
    assertThat(p.byKind()).allSatisfy(c -> assertThat(c.className()).startsWith("dev.kernellab.kernel."));
  }

  @Test
  void whatFastForwardRanIsCountedByItsPathApart() {
    // without the debug checks' event ring, which wants every operation, the walk's iterations
    // after the first run by fast-forward
    Kernel k = kernel(DebugChecks.none());
    k.profileOperations();
    k.run(30 * MS);
    OperationProfile p = k.operationProfile();
    assertThat(k.opsFastForwarded()).isPositive();
    assertThat(p.fastForwardedByPath()).extracting(OperationProfile.Count::name).containsExactly("mm/test.c:walk#pages");
    assertThat(p.fastForwardedByPath().get(0).ops()).isEqualTo(k.opsFastForwarded());
    assertThat(p.byPath().stream().mapToLong(OperationProfile.Count::ops).sum()).isEqualTo(k.opsExecuted());
  }

  @Test
  void countingChangesNoResult() {
    Kernel a = kernel();
    Kernel b = kernel();
    b.profileOperations();
    a.run(20 * MS);
    b.run(20 * MS);
    assertThat(b.opsExecuted()).isEqualTo(a.opsExecuted());
    assertThat(b.eventsFired()).isEqualTo(a.eventsFired());
  }
}
