package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * arch/i386/kernel/semaphore.c (2.4.17) on two zero-cost CPUs: down() sleeps until a slot is
 * free, up() frees one and wakes a sleeper, down_trylock() takes a slot only if one is free.
 * A holds S for 2 ms on cpu0 from t = 0; B wants it on cpu1 from t = 0.
 */
class SemaphoreTests {

  private static final long MS = 1_000_000;

  private static List<String> run(int slots, boolean trylock) {
    Semaphore s = new Semaphore("S", slots);
    List<String> done = new ArrayList<>();
    KernelPath critical = KernelPath.path("test/sem.c", "critical").compute(2 * MS).up(s).build();
    KernelPath a = KernelPath.userProgram("A")
        .syscall(KernelPath.path("test/sem.c", "a").down(s).call(critical).build())
        .probe((c, t, now) -> done.add("A@" + now / MS))
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    KernelPath.Builder bk = KernelPath.path("test/sem.c", "b");
    if (trylock) {
      bk.compute(MS).callIfDownTrylock(s, critical);
    } else {
      bk.down(s).call(critical);
    }
    KernelPath b = KernelPath.userProgram("B")
        .syscall(bk.build())
        .probe((c, t, now) -> done.add("B@" + now / MS))
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS))
        .build();
    new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .task(TaskSpec.user("A", a).onCpu(0).allowedOn(1))
        .task(TaskSpec.user("B", b).onCpu(1).allowedOn(2))
        .build()
        .run(8 * MS);
    done.add("count=" + s.count());
    return done;
  }

  @Test
  void aMutexSerialisesItsHoldersAndTheSleeperRunsAtTheUp() {
    assertThat(run(1, false)).containsExactly("A@2", "B@4", "count=1");
  }

  @Test
  void twoSlotsLetBothHoldersIn() {
    List<String> done = run(2, false);
    assertThat(done).containsExactlyInAnyOrder("A@2", "B@2", "count=2");
  }

  @Test
  void downTrylockOfAHeldMutexTakesNothing() {
    assertThat(run(1, true)).containsExactly("B@1", "A@2", "count=1");
  }

  @Test
  void downTrylockOfAFreeSlotRunsTheCriticalSection() {
    assertThat(run(2, true)).containsExactly("A@2", "B@3", "count=2");
  }

  @Test
  void aSemaphoreCannotStartBelowZero() {
    assertThatIllegalArgumentException().isThrownBy(() -> new Semaphore("S", -1));
    assertThat(new Semaphore("console_sem", 1)).hasToString("console_sem");
    assertThat(new Semaphore("console_sem", 1).name()).isEqualTo("console_sem");
  }
}
