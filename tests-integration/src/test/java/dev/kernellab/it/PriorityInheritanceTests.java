package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBug;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.RtMutex;
import dev.kernellab.kernel.Semaphore;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.TaskView;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The classic priority inversion, on one CPU with both schedulers: L (SCHED_OTHER) holds a lock
 * for 10 ms of its own work; H (SCHED_FIFO 90) wants it 2 ms in; M (SCHED_FIFO 50), which
 * never touches the lock, wakes 3 ms in and would compute for 50 ms.
 *
 * <p>L holds the lock in user space, as a {@code PTHREAD_PRIO_INHERIT} mutex is held: the
 * futex's lock operation takes the kernel's rt_mutex and returns with it owned
 * ({@code futex_lock_pi}, kernel/futex/pi.c, Linux 6.12), so L's critical section is
 * preemptible in every kernel configuration and the only question is who runs. With the
 * rt_mutex, H lends L its priority 90 and M cannot preempt L: H waits for the rest of L's
 * critical section and no more. With the 2.4 semaphore in its place (the same lock without the
 * loan) M preempts L and H waits for all of M's 50 ms too.
 */
class PriorityInheritanceTests {

  private static final long MS = 1_000_000;

  /** When each milestone happened, ms, and L's loan midway through M's would-be run. */
  private record Timeline(Map<String, Long> at, int loanOfL) {}

  private static Timeline run(String scheduler, boolean inheritance) {
    RtMutex m = new RtMutex("m");
    Semaphore s = new Semaphore("s", 1);
    Map<String, Long> at = new LinkedHashMap<>();
    KernelPath.Builder lock = KernelPath.path("test/pi.c", "lock_it");
    KernelPath.Builder unlock = KernelPath.path("test/pi.c", "unlock_it");
    if (inheritance) {
      lock.rtMutexLock(m);
      unlock.rtMutexUnlock(m);
    } else {
      lock.down(s);
      unlock.up(s);
    }
    KernelPath take = lock.build();
    KernelPath give = unlock.build();
    KernelPath rest = KernelPath.path("test/pi.c", "rest").sleepFor(1000 * MS).build();
    KernelPath low = KernelPath.userProgram("L")
        .syscall(take)
        .compute(10 * MS)
        .syscall(give)
        .probe((c, t, now) -> at.put("L unlocked", now))
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath high = KernelPath.userProgram("H")
        .syscall(KernelPath.path("test/pi.c", "h_sleep").sleepFor(2 * MS).build())
        .probe((c, t, now) -> at.put("H asks", now))
        .syscall(take)
        .probe((c, t, now) -> at.put("H has it", now))
        .syscall(give)
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath medium = KernelPath.userProgram("M")
        .syscall(KernelPath.path("test/pi.c", "m_sleep").sleepFor(3 * MS).build())
        .probe((c, t, now) -> at.put("M runs", now))
        .compute(50 * MS)
        .probe((c, t, now) -> at.put("M done", now))
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    Kernel k = boot(scheduler, TaskSpec.user("L", low), TaskSpec.user("H", high).fifo(90),
        TaskSpec.user("M", medium).fifo(50));
    int[] loan = {-1};
    k.machine().simulation().schedule(new Event("look at L", t -> loan[0] = task(k, "L").inheritedRtPriority()), 6 * MS);
    k.run(100 * MS);
    Map<String, Long> ms = new LinkedHashMap<>();
    at.forEach((what, ns) -> ms.put(what, ns / MS));
    return new Timeline(ms, loan[0]);
  }

  /** A uniprocessor of zero costs at HZ 1000 with {@code tasks}, booted. */
  private static Kernel boot(String scheduler, TaskSpec... tasks) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(scheduler)
        .hz(1000);
    for (TaskSpec t : tasks) {
      b.task(t);
    }
    return b.build();
  }

  /** A user program that makes {@code calls} in turn, then sleeps for ever. */
  private static KernelPath program(String comm, KernelPath... calls) {
    KernelPath rest = KernelPath.path("test/pi.c", "rest").sleepFor(1000 * MS).build();
    KernelPath.Builder b = KernelPath.userProgram(comm);
    for (KernelPath call : calls) {
      b.syscall(call);
    }
    return b.loop("rest", Long.MAX_VALUE, x -> x.syscall(rest)).build();
  }

  private static TaskView task(Kernel k, String comm) {
    return k.task(comm).orElseThrow();
  }

  @ParameterizedTest
  @ValueSource(strings = {"goodness", "o1"})
  void theOwnerInheritsTheWaitersPriorityAndTheWaitIsBoundedByTheCriticalSection(String scheduler) {
    Timeline t = run(scheduler, true);
    assertThat(t.loanOfL()).as("L runs on H's priority while H waits").isEqualTo(90);
    long asked = t.at().get("H asks");
    long got = t.at().get("H has it");
    assertThat(asked).as("a 2 ms sleep ends at the second or third tick").isBetween(1L, 3L);
    // L's 10 ms of work end at 10 ms; H has the lock at once and M runs only after both.
    assertThat(got).isEqualTo(10);
    assertThat(got - asked).isLessThanOrEqualTo(10);
    assertThat(t.at().get("M runs")).isGreaterThanOrEqualTo(got);
  }

  @ParameterizedTest
  @ValueSource(strings = {"goodness", "o1"})
  void withoutInheritanceTheMediumTaskDelaysTheHighOneForAllItsWork(String scheduler) {
    Timeline t = run(scheduler, false);
    assertThat(t.loanOfL()).isZero();
    long asked = t.at().get("H asks");
    long got = t.at().get("H has it");
    long mDone = t.at().get("M done");
    // M preempts L at about 3 ms and computes 50 ms; L's remaining 7 ms follow: H waits for M.
    assertThat(t.at().get("M runs")).isLessThan(got);
    assertThat(mDone).isLessThanOrEqualTo(got);
    assertThat(got - asked).isGreaterThan(50);
  }

  @ParameterizedTest
  @ValueSource(strings = {"goodness", "o1"})
  void aChainPassesTheLoanOnToTheOwnerOfTheSecondLock(String scheduler) {
    // L owns b; K (SCHED_FIFO 10) owns a and waits for b; H (70) waits for a: L runs on 70.
    RtMutex a = new RtMutex("a");
    RtMutex b = new RtMutex("b");
    KernelPath rest = KernelPath.path("test/pi.c", "rest").sleepFor(1000 * MS).build();
    KernelPath low = KernelPath.userProgram("L")
        .syscall(KernelPath.path("test/pi.c", "l_take").rtMutexLock(b).build())
        .compute(20 * MS)
        .syscall(KernelPath.path("test/pi.c", "l_give").rtMutexUnlock(b).build())
        .loop("rest", Long.MAX_VALUE, x -> x.syscall(rest))
        .build();
    KernelPath middle = program("K",
        KernelPath.path("test/pi.c", "k_take").sleepFor(1 * MS).rtMutexLock(a).rtMutexLock(b).build(),
        KernelPath.path("test/pi.c", "k_give").rtMutexUnlock(b).rtMutexUnlock(a).build());
    KernelPath high = program("H",
        KernelPath.path("test/pi.c", "h_take").sleepFor(4 * MS).rtMutexLock(a).rtMutexUnlock(a).build());
    Kernel k = boot(scheduler, TaskSpec.user("L", low), TaskSpec.user("K", middle).fifo(10),
        TaskSpec.user("H", high).fifo(70));
    int[] loans = {-1, -1};
    k.machine().simulation().schedule(new Event("look", x -> {
      loans[0] = task(k, "L").inheritedRtPriority();
      loans[1] = task(k, "K").inheritedRtPriority();
    }), 10 * MS);
    k.run(60 * MS);
    assertThat(loans).containsExactly(70, 70);
    assertThat(task(k, "L").inheritedRtPriority()).isZero();
    assertThat(task(k, "K").inheritedRtPriority()).isZero();
    assertThat(a.owner()).isNull();
    assertThat(b.owner()).isNull();
    assertThat(a.contentions()).isEqualTo(1);
    assertThat(b.contentions()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"goodness", "o1"})
  void anAbBaPairOfMutexesIsCaughtAsADeadlock(String scheduler) {
    RtMutex a = new RtMutex("a");
    RtMutex b = new RtMutex("b");
    KernelPath one = program("P", KernelPath.path("test/pi.c", "p").rtMutexLock(a).sleepFor(2 * MS).rtMutexLock(b).build());
    KernelPath two = program("Q", KernelPath.path("test/pi.c", "q").rtMutexLock(b).sleepFor(2 * MS).rtMutexLock(a).build());
    Kernel k = boot(scheduler, TaskSpec.user("P", one), TaskSpec.user("Q", two));
    assertThatThrownBy(() -> k.run(20 * MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("rt_mutex deadlock");
  }
}
