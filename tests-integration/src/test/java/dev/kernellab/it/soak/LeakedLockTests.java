package dev.kernellab.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import java.util.IdentityHashMap;
import org.junit.jupiter.api.Test;

class LeakedLockTests {

  private static final long MS = 1_000_000;

  private static Kernel holding(SpinLock l, long holdNs) {
    KernelPath user = KernelPath.userProgram("holder")
        .loop("again", Long.MAX_VALUE, x -> x
            .syscall(KernelPath.path("test/leak.c", "hold").spinLock(l).compute(holdNs).spinUnlock(l).build())
            .compute(MS))
        .build();
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(SchedulerProvider.create("goodness"))
        .task(TaskSpec.user("holder", user))
        .build();
  }

  @Test
  void aLockHeldWithoutAReleaseForFiveSecondsIsReportedAndOneTakenAgainAndAgainIsNot() {
    SpinLock forgotten = SpinLock.spin("forgotten");
    Kernel k = holding(forgotten, 60_000 * MS);
    IdentityHashMap<SpinLock, long[]> heldAt = new IdentityHashMap<>();
    String report = null;
    long t = 0;
    while (report == null && t < 20_000 * MS) {
      t += SoakRunner.SLICE_NS;
      k.run(t);
      report = SoakRunner.leakedLock(k, t, heldAt);
    }
    assertThat(report).startsWith("forgotten held by cpu0 since t=1000000000 ns");
    assertThat(t).isEqualTo(1_000 * MS + SoakRunner.STALL_NS);

    SpinLock busy = SpinLock.spin("busy");
    Kernel k2 = holding(busy, 999 * MS);
    IdentityHashMap<SpinLock, long[]> heldAt2 = new IdentityHashMap<>();
    for (long u = SoakRunner.SLICE_NS; u <= 20_000 * MS; u += SoakRunner.SLICE_NS) {
      k2.run(u);
      assertThat(SoakRunner.leakedLock(k2, u, heldAt2)).as("at %d", u).isNull();
    }
    assertThat(busy.acquisitions()).isGreaterThan(15);
  }
}
