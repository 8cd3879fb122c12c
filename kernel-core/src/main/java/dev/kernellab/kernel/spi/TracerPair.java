package dev.kernellab.kernel.spi;

/** Two tracers fed the same events, the first first (the kernel's event ring and a user's). */
final class TracerPair implements Tracer {

  private final Tracer first;
  private final Tracer second;

  TracerPair(Tracer first, Tracer second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public void interest(TraceInterest mine) {
    TraceInterest other = mine.split(); // first asks with the pair's handle, second with its own
    first.interest(mine);
    second.interest(other);
  }

  @Override
  public void boot(KernelView kernel) {
    first.boot(kernel);
    second.boot(kernel);
  }

  @Override
  public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
    first.schedSwitch(now, cpu, prev, next);
    second.schedSwitch(now, cpu, prev, next);
  }

  @Override
  public void schedWakeup(long now, int cpu, TaskView task) {
    first.schedWakeup(now, cpu, task);
    second.schedWakeup(now, cpu, task);
  }

  @Override
  public void irqEntry(long now, int cpu, int vector) {
    first.irqEntry(now, cpu, vector);
    second.irqEntry(now, cpu, vector);
  }

  @Override
  public void irqExit(long now, int cpu, int vector) {
    first.irqExit(now, cpu, vector);
    second.irqExit(now, cpu, vector);
  }

  @Override
  public void softirqEntry(long now, int cpu, int pending) {
    first.softirqEntry(now, cpu, pending);
    second.softirqEntry(now, cpu, pending);
  }

  @Override
  public void softirqExit(long now, int cpu) {
    first.softirqExit(now, cpu);
    second.softirqExit(now, cpu);
  }

  @Override
  public void preemptOff(long now, int cpu, PathView path) {
    first.preemptOff(now, cpu, path);
    second.preemptOff(now, cpu, path);
  }

  @Override
  public void preemptOn(long now, int cpu, PathView path, long lengthNs) {
    first.preemptOn(now, cpu, path, lengthNs);
    second.preemptOn(now, cpu, path, lengthNs);
  }

  @Override
  public void irqsOff(long now, int cpu, PathView path) {
    first.irqsOff(now, cpu, path);
    second.irqsOff(now, cpu, path);
  }

  @Override
  public void irqsOn(long now, int cpu, PathView path, long lengthNs) {
    first.irqsOn(now, cpu, path, lengthNs);
    second.irqsOn(now, cpu, path, lengthNs);
  }

  @Override
  public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
    first.lockAcquire(now, cpu, lock, path, spunNs);
    second.lockAcquire(now, cpu, lock, path, spunNs);
  }

  @Override
  public void lockContend(long now, int cpu, LockView lock, PathView path) {
    first.lockContend(now, cpu, lock, path);
    second.lockContend(now, cpu, lock, path);
  }

  @Override
  public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
    first.lockRelease(now, cpu, lock, path, heldNs);
    second.lockRelease(now, cpu, lock, path, heldNs);
  }

  @Override
  public void latencySample(long now, int cpu, TaskView task, long latencyNs) {
    first.latencySample(now, cpu, task, latencyNs);
    second.latencySample(now, cpu, task, latencyNs);
  }

  @Override
  public void pathEnter(long now, int cpu, PathView path) {
    first.pathEnter(now, cpu, path);
    second.pathEnter(now, cpu, path);
  }

  @Override
  public void pathExit(long now, int cpu, PathView path) {
    first.pathExit(now, cpu, path);
    second.pathExit(now, cpu, path);
  }
}
