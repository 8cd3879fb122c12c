package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.TraceInterest;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tracer that asks for the detail events only at times sees, while it asks, exactly what a
 * tracer that takes everything sees; the kernel skips them where no tracer asks; composed
 * tracers' wishes add up.
 */
class TraceInterestTests {

  private static final long MS = 1_000_000;
  private static final Site WALK = new Site("fs/test.c", "sys_walk", "walk");
  private static final SpinLock LOCK = SpinLock.spin("walk_lock");

  /** Logs every event it is told of; drops what {@code drop} names in {@code interest}. */
  private static class Log implements Tracer {
    final List<String> events = new ArrayList<>();
    final List<TraceInterest.Detail> drop;
    TraceInterest mine;

    Log(TraceInterest.Detail... drop) {
      this.drop = List.of(drop);
    }

    @Override
    public void interest(TraceInterest interest) {
      mine = interest;
      drop.forEach(interest::dropEverywhere);
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      events.add("irq_entry " + now);
    }

    @Override
    public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      events.add("switch " + now + " " + next.pid());
    }

    @Override
    public void preemptOff(long now, int cpu, PathView path) {
      events.add("preempt_off " + now + " " + path.function());
    }

    @Override
    public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
      events.add("preempt_on " + now + " " + lengthNs);
    }

    @Override
    public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
      events.add("lock_acquire " + now + " " + lock.name());
    }

    @Override
    public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
      events.add("lock_release " + now + " " + lock.name() + " " + heldNs);
    }

    @Override
    public void pathEnter(long now, int cpu, PathView path) {
      events.add("enter " + now + " " + path.location());
    }

    @Override
    public void pathExit(long now, int cpu, PathView path) {
      events.add("exit " + now + " " + path.location());
    }
  }

  /** A system call that walks with interrupts on, then with them off, under a lock. */
  private static KernelPath program() {
    KernelPath body = KernelPath.path("fs/test.c", "sys_walk")
        .compute(MS / 2)
        .spinLock(LOCK)
        .loop(WALK, 4, l -> l.compute(100_000))
        .spinUnlock(LOCK)
        .localIrqDisable()
        .loop(new Site("fs/test.c", "sys_walk", "irqs_off_walk"), 3, l -> l.compute(50_000))
        .localIrqEnable()
        .compute(MS / 2)
        .build();
    return KernelPath.userProgram("P").syscall(body).compute(MS).syscall(body).build();
  }

  private static Kernel boot(Tracer t, long irqAt) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .debugChecks(DebugChecks.none())
        .task(TaskSpec.user("P", program()))
        .requestIrq(Rtc.IRQ, "rtc", KernelPath.path("drivers/char/rtc.c", "rtc_interrupt").compute(1_000).build(), true);
    if (t != null) {
      b.tracer(t);
    }
    Kernel k = b.build();
    if (irqAt >= 0) {
      k.machine().simulation().schedule(new Event("rtc", now -> k.machine().ioApic().assertLine(Rtc.IRQ)), irqAt);
    }
    return k;
  }

  private static void run(Tracer t, long irqAt) {
    boot(t, irqAt).run(10 * MS);
  }

  @Test
  void aTracerThatDropsEveryDetailIsToldOfNoneAndOfEverythingElse() {
    Log all = new Log();
    run(all, 2 * MS);
    Log none = new Log(TraceInterest.Detail.values());
    run(none, 2 * MS);
    assertThat(all.events).anyMatch(e -> e.startsWith("enter ")).anyMatch(e -> e.startsWith("lock_release "))
        .anyMatch(e -> e.startsWith("preempt_on "));
    assertThat(none.events).containsExactlyElementsOf(all.events.stream()
        .filter(e -> e.startsWith("irq_entry ") || e.startsWith("switch ")).toList());
  }

  @Test
  void composedTracersAreToldOfWhatEitherAsksFor() {
    Log all = new Log();
    Log none = new Log(TraceInterest.Detail.values());
    run(Tracer.both(none, all), 2 * MS);
    assertThat(none.events).isEqualTo(all.events);
    Log alone = new Log();
    run(alone, 2 * MS);
    assertThat(all.events).isEqualTo(alone.events);
  }

  /** Asks for everything from the first interrupt on, as the anatomy does from a wake-up. */
  private static final class FromFirstIrq extends Log {
    FromFirstIrq() {
      super(TraceInterest.Detail.values());
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      super.irqEntry(now, cpu, vector);
      for (TraceInterest.Detail d : TraceInterest.Detail.values()) {
        mine.want(d, cpu);
      }
    }
  }

  @Test
  void fromTheMomentATracerAsksItSeesWhatATracerOfEverythingSees() {
    for (long irqAt : new long[] {MS / 4, 3 * MS / 4, MS + 120_000, 2 * MS + 10, 3 * MS + 300_000}) {
      Log all = new Log();
      run(all, irqAt);
      FromFirstIrq late = new FromFirstIrq();
      run(late, irqAt);
      int from = all.events.indexOf(all.events.stream().filter(e -> e.startsWith("irq_entry ")).findFirst().orElseThrow());
      List<String> before = all.events.subList(0, from).stream()
          .filter(e -> e.startsWith("irq_entry ") || e.startsWith("switch ")).toList();
      List<String> expected = new ArrayList<>(before);
      expected.addAll(all.events.subList(from, all.events.size()));
      assertThat(late.events).as("irq at %d", irqAt).isEqualTo(expected);
    }
  }

  /** Reads the loop's iteration count at each exit, as an interrupts-off tracer does. */
  private static final class LoopExits extends Log {
    KernelView kernel;

    LoopExits(TraceInterest.Detail... drop) {
      super(drop);
    }

    @Override
    public void boot(KernelView k) {
      kernel = k;
    }

    @Override
    public void pathExit(long now, int cpu, PathView path) {
      events.add((kernel.cpu(cpu).interruptsEnabled() ? "on " : "off ") + "exit " + now + " "
          + (path.site() != null ? path.site().key() : path.location()) + " x" + kernel.cpu(cpu).exitedLoopIterations());
    }
  }

  @Test
  void theExitsOfLoopsThatEndWithInterruptsOffComeAloneWhenOnlyTheyAreAskedFor() {
    LoopExits all = new LoopExits();
    run(all, -1);
    LoopExits offOnly = new LoopExits(TraceInterest.Detail.PATHS, TraceInterest.Detail.LOCKS, TraceInterest.Detail.PREEMPT);
    run(offOnly, -1);
    List<String> expected = all.events.stream()
        .filter(e -> e.startsWith("irq_entry ") || e.startsWith("switch ")
            || (e.startsWith("off exit ") && e.contains("#irqs_off_walk")))
        .toList();
    assertThat(expected).anyMatch(e -> e.startsWith("off exit ") && e.endsWith(" x3"));
    assertThat(offOnly.events).isEqualTo(expected);
  }

  @Test
  void aHandleCountsItsOwnWishOnceAndRefusesACpuTheKernelDoesNotHave() {
    Log t = new Log(TraceInterest.Detail.values());
    Kernel k = boot(t, -1);
    KernelCpu c = k.cpu(0);
    t.mine.want(TraceInterest.Detail.PATHS, 0);
    t.mine.want(TraceInterest.Detail.PATHS, 0);
    assertThat(c.pathTracers).isEqualTo(1);
    TraceInterest other = t.mine.split();
    assertThat(c.pathTracers).isEqualTo(2);
    other.drop(TraceInterest.Detail.PATHS, 0);
    other.drop(TraceInterest.Detail.PATHS, 0);
    assertThat(c.pathTracers).isEqualTo(1);
    assertThat(other.wants(TraceInterest.Detail.PATHS, 0)).isFalse();
    assertThat(t.mine.wants(TraceInterest.Detail.PATHS, 0)).isTrue();
    assertThatThrownBy(() -> t.mine.want(TraceInterest.Detail.LOCKS, 1))
        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("1 CPUs");
  }

  @Test
  void withNoTracerNothingIsCounted() {
    Kernel k = boot(null, -1);
    assertThat(k.cpu(0).pathTracers + k.cpu(0).lockTracers + k.cpu(0).preemptTracers + k.cpu(0).irqsOffLoopTracers)
        .isZero();
  }
}
