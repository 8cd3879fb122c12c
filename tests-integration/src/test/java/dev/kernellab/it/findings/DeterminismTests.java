package dev.kernellab.it.findings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.Tracer;
import org.junit.jupiter.api.Test;

/** One configuration and one seed give one trace: every kernel event, in order, the same twice. */
class DeterminismTests {

  /** Folds every event, its time, CPU and identities into one 64-bit digest (FNV-1a over longs). */
  static final class TraceDigest implements Tracer {
    long digest = 0xcbf29ce484222325L;
    long events;

    private void mix(long... values) {
      for (long v : values) {
        digest = (digest ^ v) * 0x100000001b3L;
      }
      events++;
    }

    private static long id(Task t) {
      return t == null ? -1 : t.pid();
    }

    @Override
    public void schedSwitch(long now, int cpu, Task prev, Task next) {
      mix(1, now, cpu, id(prev), id(next));
    }

    @Override
    public void schedWakeup(long now, int cpu, Task task) {
      mix(2, now, cpu, id(task));
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      mix(3, now, cpu, vector);
    }

    @Override
    public void irqExit(long now, int cpu, int vector) {
      mix(4, now, cpu, vector);
    }

    @Override
    public void softirqEntry(long now, int cpu, int pending) {
      mix(5, now, cpu, pending);
    }

    @Override
    public void lockAcquire(long now, int cpu, SpinLock lock, KernelPath path, long spunNs) {
      mix(6, now, cpu, lock.name().hashCode(), spunNs);
    }

    @Override
    public void lockRelease(long now, int cpu, SpinLock lock, KernelPath path, long heldNs) {
      mix(7, now, cpu, lock.name().hashCode(), heldNs);
    }

    @Override
    public void pathEnter(long now, int cpu, KernelPath path) {
      mix(8, now, cpu, WorstSampleOracle.name(path).hashCode());
    }

    @Override
    public void latencySample(long now, int cpu, Task task, long latencyNs) {
      mix(9, now, cpu, id(task), latencyNs);
    }
  }

  static TraceDigest trace(String scheduler, String config, int cpus, long seed) {
    TraceDigest d = new TraceDigest();
    FindingsRig.compose("stress", scheduler, config, cpus, seed, d, null).kernel().run(3_000_000_000L);
    return d;
  }

  @Test
  void theSameConfigurationAndSeedGiveTheSameTraceTwiceAndAnotherSeedAnother() {
    TraceDigest a = trace("o1", "preempt+lowlat", 2, 7);
    TraceDigest b = trace("o1", "preempt+lowlat", 2, 7);
    TraceDigest c = trace("o1", "preempt+lowlat", 2, 8);
    assertThat(a.events).isGreaterThan(100_000);
    assertThat(b.events).isEqualTo(a.events);
    assertThat(b.digest).isEqualTo(a.digest);
    assertThat(c.digest).isNotEqualTo(a.digest);

    TraceDigest g1 = trace("goodness", "preempt", 1, 7);
    TraceDigest g2 = trace("goodness", "preempt", 1, 7);
    assertThat(g2.digest).isEqualTo(g1.digest);
  }
}
