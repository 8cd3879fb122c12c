package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spinlocks and rwlocks as include/asm-i386/spinlock.h (2.4.17) defines them, on zero-cost
 * machines (every instant below is the sum of the computes before it; the first timer tick is
 * at 10 ms, after all of them): on SMP a held lock makes the taker spin until the release,
 * readers share an rwlock and a writer waits for the last of them; on UP the lock compiles to
 * nothing. The per-CPU list of held locks and the ownership checks are the model's
 * CONFIG_DEBUG_SPINLOCK.
 */
class SpinLockSemanticsTests {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  /** Lock events as "what lock cpuN @us [ns]". */
  private static final class LockTrace implements Tracer {
    final List<String> events = new ArrayList<>();

    @Override
    public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
      events.add("acquire " + lock + " cpu" + cpu + " @" + now / US + " spun=" + spunNs / US);
    }

    @Override
    public void lockContend(long now, int cpu, LockView lock, PathView path) {
      events.add("contend " + lock + " cpu" + cpu + " @" + now / US);
    }

    @Override
    public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
      events.add("release " + lock + " cpu" + cpu + " @" + now / US + " held=" + heldNs / US);
    }
  }

  private static KernelBuilder smp(int cpus, Tracer t, KernelPath... syscalls) {
    KernelBuilder b = new KernelBuilder(
        MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(cpus), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    if (t != null) {
      b.tracer(t);
    }
    for (int i = 0; i < syscalls.length; i++) {
      b.task(TaskSpec.user("t" + i, KernelPath.userProgram("t" + i).syscall(syscalls[i]).build())
          .onCpu(i).allowedOn(1L << i));
    }
    return b;
  }

  private static KernelPath.Builder k(String fn) {
    return KernelPath.path("test/lock.c", fn);
  }

  /**
   * cpu0 holds L from 0 to 2 ms. cpu1 asks for it at 0.5 ms, spins 1.5 ms and takes it at the
   * release, 2 ms, then holds it 1 ms. Hold times 2 ms and 1 ms: histogram buckets 21
   * (2^20 <= 2e6 < 2^21) and 20 (2^19 <= 1e6 < 2^20).
   */
  @Test
  void aContendedLockIsTakenAtTheReleaseAfterSpinningAndCountedAsContended() {
    SpinLock l = SpinLock.spin("L");
    List<Long> tookAt = new ArrayList<>();
    KernelPath holder = k("holder").spinLock(l).compute(2 * MS).spinUnlock(l).build();
    KernelPath waiter = k("waiter").compute(MS / 2).spinLock(l)
        .effect("took", c -> tookAt.add(c.now())).compute(MS).spinUnlock(l).build();
    LockTrace trace = new LockTrace();
    Kernel kernel = smp(2, trace, holder, waiter).build();
    kernel.run(5 * MS);
    assertThat(tookAt).containsExactly(2 * MS);
    assertThat(kernel.machine().cpu(1).spinNs()).isEqualTo(1_500_000);
    assertThat(kernel.machine().cpu(0).spinNs()).isZero();
    assertThat(trace.events).containsExactly(
        "acquire L cpu0 @0 spun=0",
        "contend L cpu1 @500",
        "release L cpu0 @2000 held=2000",
        "acquire L cpu1 @2000 spun=1500",
        "release L cpu1 @3000 held=1000");
    assertThat(l.acquisitions()).isEqualTo(2);
    assertThat(l.contentions()).isEqualTo(1);
    assertThat(l.maxHoldNs()).isEqualTo(2 * MS);
    assertThat(l.maxHoldPath()).isSameAs(holder);
    assertThat(l.totalHoldNs()).isEqualTo(3 * MS);
    long[] h = l.holdHistogram();
    assertThat(h[21]).isEqualTo(1);
    assertThat(h[20]).isEqualTo(1);
    assertThat(java.util.Arrays.stream(h).sum()).isEqualTo(2);
    assertThat(l.isHeldExclusive()).isFalse();
  }

  /**
   * read_lock on an rwlock held for read does not wait (2.4.17 include/asm-i386/rwlock.h: a
   * reader only waits for a writer); write_lock waits for the last reader. Readers on cpu0
   * (0..2 ms) and cpu1 (0.5..1.5 ms); the writer on cpu2 asks at 1 ms and gets it at 2 ms.
   */
  @Test
  void readersShareAnRwlockAndAWriterWaitsForTheLastOfThem() {
    SpinLock rw = SpinLock.readerWriter("tasklist_lock");
    List<String> seen = new ArrayList<>();
    KernelPath r0 = k("r0").readLock(rw).compute(2 * MS).readUnlock(rw).build();
    KernelPath r1 = k("r1").compute(MS / 2).readLock(rw)
        .effect("in", c -> seen.add("r1@" + c.now() / US + " readers=" + rw.readers()))
        .compute(MS).readUnlock(rw).build();
    KernelPath w = k("w").compute(MS).writeLock(rw)
        .effect("in", c -> seen.add("w@" + c.now() / US + " readers=" + rw.readers()
            + " exclusive=" + rw.isHeldExclusive()))
        .compute(MS).writeUnlock(rw).build();
    Kernel kernel = smp(3, null, r0, r1, w).build();
    kernel.run(5 * MS);
    assertThat(seen).containsExactly("r1@500 readers=2", "w@2000 readers=0 exclusive=true");
    assertThat(kernel.machine().cpu(1).spinNs()).as("a reader never waits for a reader").isZero();
    assertThat(kernel.machine().cpu(2).spinNs()).isEqualTo(MS);
    assertThat(rw.isReaderWriter()).isTrue();
    assertThat(rw.readers()).isZero();
    assertThat(rw.isHeldExclusive()).isFalse();
    // the read hold runs from the first reader in to the last reader out: 0..2 ms; then the
    // writer's 1 ms, taken after a spin
    assertThat(rw.maxHoldNs()).isEqualTo(2 * MS);
    assertThat(rw.totalHoldNs()).isEqualTo(3 * MS);
    assertThat(rw.acquisitions()).isEqualTo(2);
    assertThat(rw.contentions()).isEqualTo(1);
  }

  /** A reader waits for a writer: cpu0 writes 0..2 ms, cpu1's read_lock at 1 ms waits. */
  @Test
  void aReaderWaitsForAWriter() {
    SpinLock rw = SpinLock.readerWriter("rw");
    List<Long> in = new ArrayList<>();
    KernelPath w = k("w").writeLock(rw).compute(2 * MS).writeUnlock(rw).build();
    KernelPath r = k("r").compute(MS).readLock(rw).effect("in", c -> in.add(c.now()))
        .readUnlock(rw).build();
    Kernel kernel = smp(2, null, w, r).build();
    kernel.run(5 * MS);
    assertThat(in).containsExactly(2 * MS);
    assertThat(kernel.machine().cpu(1).spinNs()).isEqualTo(MS);
  }

  @Test
  void unlockingALockAnotherCpuHoldsIsABug() {
    SpinLock l = SpinLock.spin("L");
    KernelPath holder = k("holder").spinLock(l).compute(2 * MS).spinUnlock(l).build();
    KernelPath thief = k("thief").compute(MS).spinUnlock(l).build();
    assertThatThrownBy(() -> smp(2, null, holder, thief).build().run(5 * MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: unlock by another CPU: L held by cpu0, unlocked on cpu1");
  }

  @Test
  void readUnlockWithoutAReaderIsABug() {
    SpinLock rw = SpinLock.readerWriter("rw");
    assertThatThrownBy(() -> smp(1, null, k("bad").readUnlock(rw).build()).build().run(MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: unlock of unheld lock: read_unlock(rw) with no reader in test/lock.c:bad");
  }

  private static Action held(List<String> out) {
    return c -> {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < c.heldLockCount(); i++) {
        sb.append(c.heldLock(i)).append(' ');
      }
      out.add(sb.toString().trim());
    };
  }

  /**
   * Linux locks need not nest: releasing the middle of three held locks leaves the outer and
   * the inner, in the order taken.
   */
  @Test
  void releasingAMiddleLockLeavesTheOthersInTheOrderTaken() {
    SpinLock a = SpinLock.spin("A");
    SpinLock b = SpinLock.spin("B");
    SpinLock c = SpinLock.spin("C");
    List<String> seen = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    KernelPath p = k("three").spinLock(a).spinLock(b).spinLock(c).effect("held", held(seen))
        .spinUnlock(b).effect("held", held(seen))
        .effect("out of range", x -> {
          try {
            x.heldLock(2);
          } catch (IndexOutOfBoundsException e) {
            errors.add(e.getMessage());
          }
          try {
            x.heldLock(-1);
          } catch (IndexOutOfBoundsException e) {
            errors.add("negative");
          }
        })
        .spinUnlock(c).effect("held", held(seen))
        .spinUnlock(a).effect("held", held(seen))
        .build();
    smp(1, null, p).build().run(MS);
    assertThat(seen).containsExactly("A B C", "A C", "A", "");
    assertThat(errors).containsExactly("cpu0 holds 2 locks, not 3", "negative");
  }

  /**
   * UP, lock debugging off: an interrupt handler taking a lock its interrupted task holds does
   * not wait (the 2.4 UP lock is empty) and its unlock does not free the task's hold: the task
   * still holds L after the handler, and frees it at its own unlock. Task holds L 0..2 ms; the
   * RTC fires at 1 ms. With lock debugging on, the same take is a spinlock recursion, as on SMP,
   * where it would spin for ever.
   */
  @Test
  void onUpAHandlerRetakingTheTasksLockNeitherWaitsNorFreesIt() {
    SpinLock l = SpinLock.spin("L");
    List<String> seen = new ArrayList<>();
    KernelPath handler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt")
        .spinLock(l).effect("h", c -> seen.add("handler@" + c.now() / US + " held=" + l.isHeldExclusive()))
        .spinUnlock(l).build();
    KernelPath task = k("task").spinLock(l).compute(2 * MS)
        .effect("t", c -> seen.add("task@" + c.now() / US + " held=" + l.isHeldExclusive()))
        .spinUnlock(l)
        .effect("t", c -> seen.add("after@" + c.now() / US + " held=" + l.isHeldExclusive()))
        .build();
    SpinLock d = SpinLock.spin("L");
    KernelPath dHandler = KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").spinLock(d).spinUnlock(d).build();
    Kernel debugged = smp(1, null, k("task").spinLock(d).compute(2 * MS).spinUnlock(d).build())
        .requestIrq(Rtc.IRQ, "rtc", dHandler, false).build();
    debugged.machine().simulation().schedule(
        new Event("rtc", now -> debugged.machine().ioApic().assertLine(Rtc.IRQ)), MS);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> debugged.run(5 * MS))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: spinlock recursion: L already held (taken by test/lock.c:task)");
    Kernel kernel = smp(1, null, task).requestIrq(Rtc.IRQ, "rtc", handler, false)
        .debugChecks(new DebugChecks(true, false, true, true, true, true, true))
        .build();
    kernel.machine().simulation().schedule(
        new Event("rtc", now -> kernel.machine().ioApic().assertLine(Rtc.IRQ)), MS);
    kernel.run(5 * MS);
    assertThat(seen).containsExactly("handler@1000 held=true", "task@2000 held=true", "after@2000 held=false");
    assertThat(l.acquisitions()).as("the nested take is not an acquisition").isEqualTo(1);
    assertThat(l.maxHoldNs()).isEqualTo(2 * MS);
  }
}
