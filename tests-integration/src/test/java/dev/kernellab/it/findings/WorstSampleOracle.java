package dev.kernellab.it.findings;

import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.workloads.SampleListener;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An oracle for the findings, written apart from the lab's wake-up latency tracer so that the
 * findings do not take their verdict from the code they check: it cuts each CPU's time into
 * segments (which task ran, in which innermost kernel path, holding which innermost spinlock,
 * or in an interrupt) from the kernel's raw events, and for the worst sample adds up, over the
 * sample's window, how long each path and each lock held the sample's CPU for another task.
 */
final class WorstSampleOracle implements Tracer, SampleListener {

  /** Segments kept per CPU: far more than a worst sample's window holds. */
  private static final int RING = 1 << 16;

  /** What held the CPU during the worst sample. */
  record Culprit(long latencyNs, long atNs, int cpu, String path, long pathNs, String lock, long lockNs) {}

  private final CpuTimeline[] cpus;
  private final IdentityHashMap<TaskView, Deque<String>> paths = new IdentityHashMap<>();
  private final IdentityHashMap<TaskView, Deque<String>> locks = new IdentityHashMap<>();
  private Culprit worst;

  WorstSampleOracle(int cpuCount) {
    cpus = new CpuTimeline[cpuCount];
    for (int i = 0; i < cpuCount; i++) {
      cpus[i] = new CpuTimeline();
    }
  }

  /** The worst sample and what held its CPU, or null before any sample. */
  Culprit worst() {
    return worst;
  }

  @Override
  public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
    CpuTimeline c = cpus[cpu];
    c.current = next;
    c.cut(now, this);
  }

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    cpus[cpu].irqDepth++;
    cpus[cpu].cut(now, this);
  }

  @Override
  public void irqExit(long now, int cpu, int vector) {
    cpus[cpu].irqDepth--;
    cpus[cpu].cut(now, this);
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    cpus[cpu].irqDepth++;
    cpus[cpu].cut(now, this);
  }

  @Override
  public void softirqExit(long now, int cpu) {
    cpus[cpu].irqDepth--;
    cpus[cpu].cut(now, this);
  }

  @Override
  public void pathEnter(long now, int cpu, PathView path) {
    if (!path.isUser() && cpus[cpu].irqDepth == 0 && cpus[cpu].current != null) {
      paths.computeIfAbsent(cpus[cpu].current, t -> new ArrayDeque<>()).push(name(path));
      cpus[cpu].cut(now, this);
    }
  }

  @Override
  public void pathExit(long now, int cpu, PathView path) {
    if (!path.isUser() && cpus[cpu].irqDepth == 0 && cpus[cpu].current != null) {
      Deque<String> d = paths.get(cpus[cpu].current);
      if (d != null && !d.isEmpty()) {
        d.pop();
      }
      cpus[cpu].cut(now, this);
    }
  }

  @Override
  public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
    if (cpus[cpu].irqDepth == 0 && cpus[cpu].current != null) {
      locks.computeIfAbsent(cpus[cpu].current, t -> new ArrayDeque<>()).push(lock.name());
      cpus[cpu].cut(now, this);
    }
  }

  @Override
  public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
    if (cpus[cpu].irqDepth == 0 && cpus[cpu].current != null) {
      Deque<String> d = locks.get(cpus[cpu].current);
      if (d != null) {
        d.remove(lock.name());
      }
      cpus[cpu].cut(now, this);
    }
  }

  @Override
  public void sample(TaskView probe, long startNs, long endNs, int cpu) {
    long latency = endNs - startNs;
    if (worst != null && latency <= worst.latencyNs()) {
      return;
    }
    CpuTimeline c = cpus[cpu];
    c.cut(endNs, this);
    Map<String, Long> byPath = new TreeMap<>();
    Map<String, Long> byLock = new TreeMap<>();
    for (int n = 0; n < Math.min(c.size, RING); n++) {
      int i = Math.floorMod(c.size - 1 - n, RING);
      if (c.end[i] <= startNs) {
        break;
      }
      long overlap = Math.min(endNs, c.end[i]) - Math.max(startNs, c.start[i]);
      if (overlap <= 0 || c.task[i] == probe || c.task[i] == null) {
        continue;
      }
      byPath.merge(c.path[i], overlap, Long::sum);
      if (c.lock[i] != null) {
        byLock.merge(c.lock[i], overlap, Long::sum);
      }
    }
    Map.Entry<String, Long> p = largest(byPath);
    Map.Entry<String, Long> l = largest(byLock);
    worst = new Culprit(latency, endNs, cpu, p == null ? null : p.getKey(), p == null ? 0 : p.getValue(),
        l == null ? null : l.getKey(), l == null ? 0 : l.getValue());
  }

  private static Map.Entry<String, Long> largest(Map<String, Long> m) {
    Map.Entry<String, Long> best = null;
    for (Map.Entry<String, Long> e : m.entrySet()) {
      if (best == null || e.getValue() > best.getValue()) {
        best = e;
      }
    }
    return best;
  }

  static String name(PathView p) {
    return p.file() + ":" + p.function() + (p.site() != null ? "#" + p.site().label() : "");
  }

  /** One CPU's time, cut into segments at every change of task, path, lock or interrupt. */
  private static final class CpuTimeline {
    final long[] start = new long[RING];
    final long[] end = new long[RING];
    final TaskView[] task = new TaskView[RING];
    final String[] path = new String[RING];
    final String[] lock = new String[RING];
    int size;
    TaskView current;
    int irqDepth;

    /** Closes the open segment at {@code now} and opens the next with the CPU's state now. */
    void cut(long now, WorstSampleOracle o) {
      int i = Math.floorMod(size - 1, RING);
      if (size > 0 && end[i] == Long.MAX_VALUE) {
        end[i] = now;
      }
      int j = Math.floorMod(size, RING);
      start[j] = now;
      end[j] = Long.MAX_VALUE;
      if (irqDepth > 0) {
        task[j] = current;
        path[j] = "interrupt";
        lock[j] = null;
      } else {
        task[j] = current;
        Deque<String> ps = current == null ? null : o.paths.get(current);
        Deque<String> ls = current == null ? null : o.locks.get(current);
        path[j] = ps == null || ps.isEmpty() ? "user or idle" : ps.peek();
        lock[j] = ls == null || ls.isEmpty() ? null : ls.peek();
      }
      size++;
    }
  }
}
