package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.TraceInterest;

/**
 * The kernel's {@link TraceInterest}: a handle's wants, counted into each {@link KernelCpu}'s
 * per-detail counters, which the interpreter reads before it builds a detail event.
 */
final class CpuTraceInterest implements TraceInterest {

  /*
   * Implementation overview
   *
   * Each KernelCpu keeps, per detail, how many handles want it there (pathTracers,
   * irqsOffLoopTracers, lockTracers, preemptTracers): plain ints the interpreter reads before
   * building an event, zero when no tracer is attached. A handle keeps its own wants in
   * wants[detail][cpu] and moves a count only when its own want changes, so a handle can
   * neither count twice nor drop another's. Composed tracers each get a handle of their own
   * (split): the counts are the union of what they want.
   */


  private static final Detail[] DETAILS = Detail.values();

  private final KernelCpu[] cpus;
  private final boolean[][] wants; // [detail][cpu]: this handle wants it there now

  /** A handle on {@code cpus} that wants every detail everywhere (and counts so). */
  CpuTraceInterest(KernelCpu[] cpus) {
    this.cpus = cpus;
    this.wants = new boolean[DETAILS.length][cpus.length];
    for (Detail d : DETAILS) {
      for (int c = 0; c < cpus.length; c++) {
        want(d, c);
      }
    }
  }

  /**
   * Another handle on the same kernel, wanting every detail everywhere until told otherwise:
   * for a tracer that hands events on to several others, one handle for each.
   */
  @Override
  public TraceInterest split() {
    return new CpuTraceInterest(cpus);
  }

  /** The CPUs this handle speaks for: 0 to {@code cpuCount() - 1}. */
  @Override
  public int cpuCount() {
    return cpus.length;
  }

  /** True if this handle wants {@code d} on {@code cpu} now. */
  @Override
  public boolean wants(Detail d, int cpu) {
    return wants[d.ordinal()][check(cpu)];
  }

  /** From now on this tracer wants {@code d} on {@code cpu} (nothing if it did already). */
  @Override
  public void want(Detail d, int cpu) {
    boolean[] w = wants[d.ordinal()];
    if (!w[check(cpu)]) {
      w[cpu] = true;
      count(cpus[cpu], d, 1);
    }
  }

  /** From now on this tracer does not need {@code d} on {@code cpu} (nothing if it did not). */
  @Override
  public void drop(Detail d, int cpu) {
    boolean[] w = wants[d.ordinal()];
    if (w[check(cpu)]) {
      w[cpu] = false;
      count(cpus[cpu], d, -1);
    }
  }

  /** {@link #want} on every CPU. */
  @Override
  public void wantEverywhere(Detail d) {
    for (int c = 0; c < cpus.length; c++) {
      want(d, c);
    }
  }

  /** {@link #drop} on every CPU. */
  @Override
  public void dropEverywhere(Detail d) {
    for (int c = 0; c < cpus.length; c++) {
      drop(d, c);
    }
  }

  private int check(int cpu) {
    if (cpu < 0 || cpu >= cpus.length) {
      throw new IndexOutOfBoundsException("cpu" + cpu + ": this kernel has " + cpus.length + " CPUs");
    }
    return cpu;
  }

  private static void count(KernelCpu c, Detail d, int delta) {
    switch (d) {
      case PATHS -> c.pathTracers += delta;
      case LOOP_EXITS_IRQS_OFF -> c.irqsOffLoopTracers += delta;
      case LOCKS -> c.lockTracers += delta;
      case PREEMPT -> c.preemptTracers += delta;
    }
  }
}
