package dev.kernellab.testkit;

import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;

/**
 * Every event a kernel traces, with its time, CPU and identities, folded into one 64-bit digest
 * (FNV-1a over longs), and counted: two runs with the same digest and count gave the same trace,
 * event for event. For determinism tests and for tests that run a shortcut both ways.
 */
public final class TraceDigest implements Tracer {

  private long digest = 0xcbf29ce484222325L;
  private long events;

  /** The digest so far. */
  public long digest() {
    return digest;
  }

  /** Events traced so far. */
  public long events() {
    return events;
  }

  private void mix(long kind, long now, int cpu, long a, long b) {
    digest = fold(fold(fold(fold(fold(digest, kind), now), cpu), a), b);
    events++;
  }

  private static long fold(long h, long v) {
    return (h ^ v) * 0x100000001b3L;
  }

  private static long id(TaskView t) {
    return t == null ? -1 : t.pid();
  }

  private static long id(PathView p) {
    return p == null ? -1 : p.location().hashCode();
  }

  private static long id(LockView l) {
    return l.name().hashCode();
  }

  @Override
  public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
    mix(1, now, cpu, id(prev), id(next));
  }

  @Override
  public void schedWakeup(long now, int cpu, TaskView task) {
    mix(2, now, cpu, id(task), 0);
  }

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    mix(3, now, cpu, vector, 0);
  }

  @Override
  public void irqExit(long now, int cpu, int vector) {
    mix(4, now, cpu, vector, 0);
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    mix(5, now, cpu, pending, 0);
  }

  @Override
  public void softirqExit(long now, int cpu) {
    mix(6, now, cpu, 0, 0);
  }

  @Override
  public void preemptOff(long now, int cpu, PathView path) {
    mix(7, now, cpu, id(path), 0);
  }

  @Override
  public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
    mix(8, now, cpu, id(path), lengthNs);
  }

  @Override
  public void irqsOff(long now, int cpu, PathView path) {
    mix(9, now, cpu, id(path), 0);
  }

  @Override
  public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
    mix(10, now, cpu, id(path), lengthNs);
  }

  @Override
  public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
    mix(11, now, cpu, id(lock) * 31 + id(path), spunNs);
  }

  @Override
  public void lockContend(long now, int cpu, LockView lock, PathView path) {
    mix(12, now, cpu, id(lock) * 31 + id(path), 0);
  }

  @Override
  public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
    mix(13, now, cpu, id(lock) * 31 + id(path), heldNs);
  }

  @Override
  public void latencySample(long now, int cpu, TaskView task, long latencyNs) {
    mix(14, now, cpu, id(task), latencyNs);
  }

  @Override
  public void pathEnter(long now, int cpu, PathView path) {
    mix(15, now, cpu, id(path), 0);
  }

  @Override
  public void pathExit(long now, int cpu, PathView path) {
    mix(16, now, cpu, id(path), 0);
  }
}
