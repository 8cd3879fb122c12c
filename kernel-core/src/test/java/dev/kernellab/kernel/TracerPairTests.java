package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kernel's event ring and a user's tracer see every event, the ring first. */
class TracerPairTests {

  /** Writes every event it gets, prefixed with its name, into one shared log. */
  private record Recording(String name, List<String> log) implements Tracer {
    private void add(String event) {
      log.add(name + ":" + event);
    }

    @Override
    public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      add("switch " + now + " " + cpu + " " + prev.pid() + ">" + next.pid());
    }

    @Override
    public void schedWakeup(long now, int cpu, TaskView task) {
      add("wakeup " + now + " " + cpu + " " + task.pid());
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      add("irq_entry " + now + " " + cpu + " " + vector);
    }

    @Override
    public void irqExit(long now, int cpu, int vector) {
      add("irq_exit " + now + " " + cpu + " " + vector);
    }

    @Override
    public void softirqEntry(long now, int cpu, int pending) {
      add("softirq_entry " + now + " " + cpu + " " + pending);
    }

    @Override
    public void softirqExit(long now, int cpu) {
      add("softirq_exit " + now + " " + cpu);
    }

    @Override
    public void preemptOff(long now, int cpu, PathView path) {
      add("preempt_off " + now + " " + cpu + " " + path.function());
    }

    @Override
    public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
      add("preempt_on " + now + " " + cpu + " " + path.function() + " " + lengthNs);
    }

    @Override
    public void irqsOff(long now, int cpu, PathView path) {
      add("irqs_off " + now + " " + cpu + " " + path.function());
    }

    @Override
    public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
      add("irqs_on " + now + " " + cpu + " " + path.function() + " " + lengthNs);
    }

    @Override
    public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
      add("lock_acquire " + now + " " + cpu + " " + lock.name() + " " + path.function() + " " + spunNs);
    }

    @Override
    public void lockContend(long now, int cpu, LockView lock, PathView path) {
      add("lock_contend " + now + " " + cpu + " " + lock.name() + " " + path.function());
    }

    @Override
    public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
      add("lock_release " + now + " " + cpu + " " + lock.name() + " " + path.function() + " " + heldNs);
    }

    @Override
    public void latencySample(long now, int cpu, TaskView task, long latencyNs) {
      add("latency " + now + " " + cpu + " " + task.pid() + " " + latencyNs);
    }

    @Override
    public void pathEnter(long now, int cpu, PathView path) {
      add("enter " + now + " " + cpu + " " + path.function());
    }

    @Override
    public void pathExit(long now, int cpu, PathView path) {
      add("exit " + now + " " + cpu + " " + path.function());
    }
  }

  @Test
  void bothTracersGetEveryEventWithItsArgumentsTheFirstFirst() {
    List<String> log = new ArrayList<>();
    Tracer pair = Tracer.both(new Recording("ring", log), new Recording("user", log));
    Task a = TestTasks.other(1);
    Task b = TestTasks.other(2);
    KernelPath p = KernelPath.path("fs/dcache.c", "prune_dcache").compute(1).build();
    SpinLock l = SpinLock.spin("dcache_lock");
    pair.schedSwitch(1, 0, a, b);
    pair.schedWakeup(2, 1, b);
    pair.irqEntry(3, 0, 0x71);
    pair.irqExit(4, 0, 0x71);
    pair.softirqEntry(5, 1, 6);
    pair.softirqExit(6, 1);
    pair.preemptOff(7, 0, p);
    pair.preemptOn(8, 0, p, 1);
    pair.irqsOff(9, 1, p);
    pair.irqsOn(10, 1, p, 1);
    pair.lockAcquire(11, 0, l, p, 3);
    pair.lockContend(12, 1, l, p);
    pair.lockRelease(13, 0, l, p, 2);
    pair.latencySample(14, 0, a, 99);
    pair.pathEnter(15, 1, p);
    pair.pathExit(16, 1, p);
    String[] events = {
      "switch 1 0 1>2", "wakeup 2 1 2", "irq_entry 3 0 113", "irq_exit 4 0 113",
      "softirq_entry 5 1 6", "softirq_exit 6 1", "preempt_off 7 0 prune_dcache",
      "preempt_on 8 0 prune_dcache 1", "irqs_off 9 1 prune_dcache", "irqs_on 10 1 prune_dcache 1",
      "lock_acquire 11 0 dcache_lock prune_dcache 3", "lock_contend 12 1 dcache_lock prune_dcache",
      "lock_release 13 0 dcache_lock prune_dcache 2", "latency 14 0 1 99",
      "enter 15 1 prune_dcache", "exit 16 1 prune_dcache"
    };
    List<String> expected = new ArrayList<>();
    for (String e : events) {
      expected.add("ring:" + e);
      expected.add("user:" + e);
    }
    assertThat(log).containsExactlyElementsOf(expected);
  }

  @Test
  void aMissingTracerIsRefusedWhereItArrives() {
    Tracer one = new Recording("one", new ArrayList<>());
    org.assertj.core.api.Assertions.assertThatNullPointerException().isThrownBy(() -> Tracer.both(one, null))
        .withMessage("second");
    org.assertj.core.api.Assertions.assertThatNullPointerException().isThrownBy(() -> Tracer.both(null, one))
        .withMessage("first");
  }
}
