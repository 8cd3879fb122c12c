package dev.kernellab.hw;

import dev.kernellab.hw.sim.Event;
import dev.kernellab.hw.sim.Simulation;

/**
 * One x86 CPU as the kernel sees it: the interrupt flag, the local APIC's request and
 * in-service registers, and the work segment it is executing.
 *
 * <p>Software on a CPU is a sequence of <em>segments</em>: compute for N ns, spin on a lock
 * until told to stop, or halt until an interrupt. An interrupt that is deliverable (IF set,
 * priority class above everything in service) suspends the running segment at once and is
 * handed to the {@link CpuListener} with the compute time that was left; an interrupt raised
 * while IF is clear stays pending and is deliverable the instant IF is set again.
 *
 * <pre>{@code
 * cpu.startCompute(5_000_000);    // run 5 ms unless interrupted
 * cpu.cli(); ... cpu.sti();       // local_irq_disable / local_irq_enable
 * if (cpu.hasDeliverableInterrupt()) { int v = cpu.acceptInterrupt(); ... }
 * }</pre>
 *
 * <p>Models the x86 IF semantics and the local APIC IRR/ISR/EOI logic of the Intel SDM vol. 3
 * (ch. 10 in later editions), as used by arch/i386/kernel/{apic,irq}.c of 2.4.17.
 */
public final class Cpu {

  /*
   * Implementation overview
   *
   * irr[] and isr[] are 256-bit sets (4 longs): requested and in-service vectors. A vector is
   * deliverable iff IF is set and its priority class (vector >> 4) is above the class of the
   * highest in-service vector. Accepting moves it from IRR to ISR and clears IF; EOI clears
   * the highest ISR bit. A vector raised while already requested merges with it (edge lost),
   * as on the real APIC.
   *
   * Segments: at most one at a time. A compute segment arms `segmentEnd` for its end; spin and
   * halt segments are open-ended and end when the kernel says so or an interrupt arrives.
   * Accounting sums each kind's elapsed time, so busy time can be checked against the compute
   * time the kernel asked for.
   *
   * An interrupt raised when no segment runs (the kernel is in the middle of a synchronous
   * step) is left pending; the kernel polls hasDeliverableInterrupt() before it starts the
   * next segment. If it starts one anyway, the interrupt is delivered at the same instant from
   * a zero-delay event. Either way the listener is never re-entered from a call the kernel
   * made.
   */

  /** What the CPU is doing. */
  public enum Segment {
    /** Between segments: the kernel is deciding what to run next (zero simulated time). */
    NONE,
    /** Executing a bounded stretch of code. */
    COMPUTE,
    /** Busy-waiting on a lock: burns time, open-ended. */
    SPIN,
    /** {@code hlt}: idle until an interrupt, open-ended. */
    HALT
  }

  private final int id;
  private final Simulation sim;
  private final long hz;
  private CpuListener listener;

  private boolean interruptsEnabled;
  private final long[] irr = new long[4]; // bit v set iff vector v is requested
  private final long[] isr = new long[4]; // bit v set iff vector v is in service

  private Segment segment = Segment.NONE;
  private long segmentStartNs;
  private final Event segmentEnd;
  private final Event lateDelivery;

  private long computeNs;
  private long spinNs;
  private long haltNs;
  private long accepted;
  private long merged;

  Cpu(int id, Simulation sim, long hz) {
    this.id = id;
    this.sim = sim;
    this.hz = hz;
    this.segmentEnd = new Event("cpu" + id + ".segment", now -> finishCompute());
    this.lateDelivery = new Event("cpu" + id + ".deliver", now -> deliverIfPossible());
  }

  /** Logical CPU number. */
  public int id() {
    return id;
  }

  void setListener(CpuListener l) {
    this.listener = l;
  }

  // ---- interrupt flag ----------------------------------------------------------------------

  /** True when IF is set. */
  public boolean interruptsEnabled() {
    return interruptsEnabled;
  }

  /** {@code cli}: mask maskable interrupts on this CPU. */
  public void cli() {
    interruptsEnabled = false;
  }

  /**
   * {@code sti}: unmask. A pending interrupt becomes deliverable at once; the caller (between
   * segments) takes it with {@link #acceptInterrupt()}.
   */
  public void sti() {
    interruptsEnabled = true;
  }

  /** Sets IF to a saved value ({@code local_irq_restore}, {@code iret}). */
  public void restoreInterruptFlag(boolean enabled) {
    interruptsEnabled = enabled;
  }

  // ---- local APIC --------------------------------------------------------------------------

  /**
   * Requests {@code vector} on this CPU (an edge from the IO-APIC, an IPI, the local timer).
   * Delivered at once if deliverable and a segment is running; otherwise left pending.
   */
  public void raise(int vector) {
    Vectors.checkExternal(vector);
    int w = vector >>> 6;
    long bit = 1L << vector;
    if ((irr[w] & bit) != 0) {
      merged++;
      return;
    }
    irr[w] |= bit;
    if (segment != Segment.NONE && hasDeliverableInterrupt()) {
      deliverNow();
    }
  }

  /** True if a requested vector would be accepted now (IF set, priority above in-service). */
  public boolean hasDeliverableInterrupt() {
    if (!interruptsEnabled) {
      return false;
    }
    int pending = highest(irr);
    return pending >= 0 && Vectors.priorityClass(pending) > inServiceClass();
  }

  /**
   * Accepts the highest deliverable vector: moves it to in-service and clears IF. For the
   * kernel's use between segments; a running segment is suspended by the machine itself.
   *
   * @return the vector
   * @throws IllegalStateException if nothing is deliverable or a segment is running
   */
  public int acceptInterrupt() {
    if (segment != Segment.NONE) {
      throw new IllegalStateException("cpu" + id + ": a " + segment + " segment is running");
    }
    if (!hasDeliverableInterrupt()) {
      throw new IllegalStateException("cpu" + id + ": no deliverable interrupt");
    }
    return take();
  }

  /** End of interrupt: retires the highest in-service vector. */
  public void eoi() {
    int v = highest(isr);
    if (v < 0) {
      throw new IllegalStateException("cpu" + id + ": EOI with no interrupt in service");
    }
    isr[v >>> 6] &= ~(1L << v);
  }

  /** True if {@code vector} is requested and not yet accepted. */
  public boolean isPending(int vector) {
    return (irr[vector >>> 6] & (1L << vector)) != 0;
  }

  /** True if {@code vector} is in service. */
  public boolean isInService(int vector) {
    return (isr[vector >>> 6] & (1L << vector)) != 0;
  }

  /** Interrupts accepted so far. */
  public long interruptsAccepted() {
    return accepted;
  }

  /** Raises that found the same vector already requested (lost edges). */
  public long interruptsMerged() {
    return merged;
  }

  private int inServiceClass() {
    int v = highest(isr);
    return v < 0 ? -1 : Vectors.priorityClass(v);
  }

  private static int highest(long[] set) {
    for (int w = 3; w >= 0; w--) {
      if (set[w] != 0) {
        return (w << 6) + 63 - Long.numberOfLeadingZeros(set[w]);
      }
    }
    return -1;
  }

  private int take() {
    int v = highest(irr);
    irr[v >>> 6] &= ~(1L << v);
    isr[v >>> 6] |= 1L << v;
    interruptsEnabled = false;
    accepted++;
    return v;
  }

  private void deliverNow() {
    long left = stopSegment();
    int v = take();
    listener.interruptAccepted(this, v, left);
  }

  // ---- segments ----------------------------------------------------------------------------

  /** What the CPU is doing now. */
  public Segment segment() {
    return segment;
  }

  /**
   * Runs a compute segment of {@code ns}; {@link CpuListener#segmentFinished} is called at its
   * end unless an interrupt suspends it first.
   */
  public void startCompute(long ns) {
    if (ns < 0) {
      throw new IllegalArgumentException("cpu" + id + ": negative compute time " + ns + " ns");
    }
    begin(Segment.COMPUTE);
    sim.scheduleAfter(segmentEnd, ns);
  }

  /** Starts busy-waiting (a contended spinlock); ends with {@link #stopSegment()}. */
  public void startSpin() {
    begin(Segment.SPIN);
  }

  /** Halts until an interrupt (or {@link #stopSegment()}). */
  public void halt() {
    begin(Segment.HALT);
  }

  /**
   * Ends the running segment now.
   *
   * @return what was left of a compute segment, 0 for spin, halt or none
   */
  public long stopSegment() {
    long now = sim.now();
    long left = 0;
    switch (segment) {
      case COMPUTE -> {
        left = segmentEnd.time() - now;
        sim.cancel(segmentEnd);
        computeNs += now - segmentStartNs;
      }
      case SPIN -> spinNs += now - segmentStartNs;
      case HALT -> haltNs += now - segmentStartNs;
      case NONE -> {
        return 0;
      }
    }
    segment = Segment.NONE;
    return left;
  }

  private void begin(Segment s) {
    if (segment != Segment.NONE) {
      throw new IllegalStateException(
          "cpu" + id + ": cannot start a " + s + " segment during a " + segment + " segment");
    }
    segment = s;
    segmentStartNs = sim.now();
    if (hasDeliverableInterrupt() && !lateDelivery.isScheduled()) {
      // An interrupt became deliverable while the kernel was between segments and it did not
      // take it: it is taken at this same instant, from the event loop rather than from
      // inside the kernel's call, so the listener is never re-entered.
      sim.scheduleAfter(lateDelivery, 0);
    }
  }

  private void deliverIfPossible() {
    if (segment != Segment.NONE && hasDeliverableInterrupt()) {
      deliverNow();
    }
  }

  private void finishCompute() {
    computeNs += sim.now() - segmentStartNs;
    segment = Segment.NONE;
    listener.segmentFinished(this);
  }

  // ---- accounting --------------------------------------------------------------------------

  /** Total time spent in compute segments (ended ones and the running one). */
  public long computeNs() {
    return computeNs + (segment == Segment.COMPUTE ? sim.now() - segmentStartNs : 0);
  }

  /** Total time spent spinning. */
  public long spinNs() {
    return spinNs + (segment == Segment.SPIN ? sim.now() - segmentStartNs : 0);
  }

  /** Total time spent halted. */
  public long haltNs() {
    return haltNs + (segment == Segment.HALT ? sim.now() - segmentStartNs : 0);
  }

  /** The time-stamp counter: cycles since power-on at this CPU's clock. */
  public long readTsc() {
    long now = sim.now();
    return (now / 1_000_000_000L) * hz + (now % 1_000_000_000L) * hz / 1_000_000_000L;
  }

  @Override
  public String toString() {
    return "cpu" + id;
  }
}
