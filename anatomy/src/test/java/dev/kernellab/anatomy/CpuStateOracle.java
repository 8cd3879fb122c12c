package dev.kernellab.anatomy;

import dev.kernellab.kernel.spi.KernelView;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The obviously correct oracle the anatomy's wait is checked against: the state of every CPU
 * (who runs, which path, in which context) logged at every event, in order, with no slots and
 * no shortcuts; {@link #ran} adds up what ran over an interval under a key the test chooses.
 */
final class CpuStateOracle implements Tracer {

  /** How a test names one holder: from the task, its running path (null if none) and context. */
  interface Key {
    String of(TaskView task, PathView path, String context);
  }

  private record Mark(long at, TaskView task, PathView path, String context) {}

  private final List<List<Mark>> marks = new ArrayList<>();
  private KernelView kernel;

  @Override
  public void boot(KernelView k) {
    kernel = k;
    for (int c = 0; c < k.cpuCount(); c++) {
      marks.add(new ArrayList<>());
    }
  }

  private void mark(long now, int cpu) {
    if (kernel == null) {
      return;
    }
    var c = kernel.cpu(cpu);
    String context = c.inHardirqContext() ? "hardirq" : c.inSoftirqContext() ? "softirq" : "task";
    marks.get(cpu).add(new Mark(now, c.current(), c.runningPath(), context));
  }

  /** What ran on {@code cpu} from {@code from} to {@code to}: ns per {@code key}, in key order. */
  Map<String, Long> ran(int cpu, long from, long to, Key key) {
    Map<String, Long> out = new TreeMap<>();
    List<Mark> ms = marks.get(cpu);
    for (int i = 0; i < ms.size(); i++) {
      Mark m = ms.get(i);
      long end = i + 1 < ms.size() ? ms.get(i + 1).at() : Long.MAX_VALUE;
      long a = Math.max(from, m.at());
      long b = Math.min(to, end);
      if (b > a) {
        out.merge(key.of(m.task(), m.path(), m.context()), b - a, Long::sum);
      }
    }
    return out;
  }

  @Override public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) { mark(now, cpu); }
  @Override public void schedWakeup(long now, int cpu, TaskView task) { mark(now, cpu); }
  @Override public void irqEntry(long now, int cpu, int vector) { mark(now, cpu); }
  @Override public void irqExit(long now, int cpu, int vector) { mark(now, cpu); }
  @Override public void softirqEntry(long now, int cpu, int pending) { mark(now, cpu); }
  @Override public void softirqExit(long now, int cpu) { mark(now, cpu); }
  @Override public void preemptOff(long now, int cpu, PathView path) { mark(now, cpu); }
  @Override public void preemptOn(long now, int cpu, PathView path, long lengthNs) { mark(now, cpu); }
  @Override public void irqsOff(long now, int cpu, PathView path) { mark(now, cpu); }
  @Override public void irqsOn(long now, int cpu, PathView path, long lengthNs) { mark(now, cpu); }
  @Override public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) { mark(now, cpu); }
  @Override public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) { mark(now, cpu); }
  @Override public void pathEnter(long now, int cpu, PathView path) { mark(now, cpu); }
  @Override public void pathExit(long now, int cpu, PathView path) { mark(now, cpu); }
}
