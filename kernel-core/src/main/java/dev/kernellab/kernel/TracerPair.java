package dev.kernellab.kernel;

/** Two tracers fed the same events, the first first (the kernel's event ring and a user's). */
final class TracerPair implements Tracer {

  private final Tracer first;
  private final Tracer second;

  private TracerPair(Tracer first, Tracer second) {
    this.first = first;
    this.second = second;
  }

  /** Both, either one alone, or null when neither is given. */
  static Tracer of(Tracer first, Tracer second) {
    if (first == null) {
      return second;
    }
    return second == null ? first : new TracerPair(first, second);
  }

  @Override
  public void interest(TraceInterest mine) {
    TraceInterest other = mine.split(); // first asks with the pair's handle, second with its own
    first.interest(mine);
    second.interest(other);
  }

  @Override
  public void boot(Kernel kernel) {
    first.boot(kernel);
    second.boot(kernel);
  }

  @Override
  public void schedSwitch(long now, int cpu, Task prev, Task next) {
    first.schedSwitch(now, cpu, prev, next);
    second.schedSwitch(now, cpu, prev, next);
  }

  @Override
  public void schedWakeup(long now, int cpu, Task task) {
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
  public void preemptOff(long now, int cpu, KernelPath path) {
    first.preemptOff(now, cpu, path);
    second.preemptOff(now, cpu, path);
  }

  @Override
  public void preemptOn(long now, int cpu, KernelPath path, long lengthNs) {
    first.preemptOn(now, cpu, path, lengthNs);
    second.preemptOn(now, cpu, path, lengthNs);
  }

  @Override
  public void irqsOff(long now, int cpu, KernelPath path) {
    first.irqsOff(now, cpu, path);
    second.irqsOff(now, cpu, path);
  }

  @Override
  public void irqsOn(long now, int cpu, KernelPath path, long lengthNs) {
    first.irqsOn(now, cpu, path, lengthNs);
    second.irqsOn(now, cpu, path, lengthNs);
  }

  @Override
  public void lockAcquire(long now, int cpu, SpinLock lock, KernelPath path, long spunNs) {
    first.lockAcquire(now, cpu, lock, path, spunNs);
    second.lockAcquire(now, cpu, lock, path, spunNs);
  }

  @Override
  public void lockContend(long now, int cpu, SpinLock lock, KernelPath path) {
    first.lockContend(now, cpu, lock, path);
    second.lockContend(now, cpu, lock, path);
  }

  @Override
  public void lockRelease(long now, int cpu, SpinLock lock, KernelPath path, long heldNs) {
    first.lockRelease(now, cpu, lock, path, heldNs);
    second.lockRelease(now, cpu, lock, path, heldNs);
  }

  @Override
  public void latencySample(long now, int cpu, Task task, long latencyNs) {
    first.latencySample(now, cpu, task, latencyNs);
    second.latencySample(now, cpu, task, latencyNs);
  }

  @Override
  public void pathEnter(long now, int cpu, KernelPath path) {
    first.pathEnter(now, cpu, path);
    second.pathEnter(now, cpu, path);
  }

  @Override
  public void pathExit(long now, int cpu, KernelPath path) {
    first.pathExit(now, cpu, path);
    second.pathExit(now, cpu, path);
  }
}
