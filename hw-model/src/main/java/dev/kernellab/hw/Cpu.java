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
   *
   * Inline ends. Most segments start from the handler of the previous one's end and end before
   * anything else is armed. Such a segment would be the very next event, so the handler runs
   * its end itself (finishCompute's loop, Simulation.fireInline) instead of arming segmentEnd:
   * the same clock, the same event count, the same order, without the queue. A kernel may ask
   * for the window in which that holds (inlineComputeUntil) and run several identical segments
   * as one that counts as all of them (a loop's bare compute body); nothing can tell them
   * apart, since nothing happens on the machine until the window ends. Tests run both ways
   * (Simulation.setInlineEvents(false)) and compare the traces.
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
  // hasDeliverableInterrupt()'s answer, worked out again wherever IF, irr or isr change: it is
  // asked before every kernel step and at every inline compute, and changes far more rarely
  private boolean deliverable;

  private Segment segment = Segment.NONE;
  private long segmentStartNs;
  private final Event segmentEnd;
  private final Event lateDelivery;
  private boolean inSegmentEnd; // running segmentEnd's handler: a compute started now may end inline
  private long inlineEndNs = -1; // >= 0: the end of a compute segment that skips the queue
  private long inlineSegments; // how many segment ends that inline end stands for

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
    deliverable = false;
  }

  /**
   * {@code sti}: unmask. A pending interrupt becomes deliverable at once; the caller (between
   * segments) takes it with {@link #acceptInterrupt()}.
   */
  public void sti() {
    interruptsEnabled = true;
    updateDeliverable();
  }

  /** Sets IF to a saved value ({@code local_irq_restore}, {@code iret}). */
  public void restoreInterruptFlag(boolean enabled) {
    interruptsEnabled = enabled;
    updateDeliverable();
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
    updateDeliverable();
    if (segment != Segment.NONE && hasDeliverableInterrupt()) {
      deliverNow();
    }
  }

  /** True if a requested vector would be accepted now (IF set, priority above in-service). */
  public boolean hasDeliverableInterrupt() {
    return deliverable;
  }

  private void updateDeliverable() {
    if (!interruptsEnabled || (irr[0] | irr[1] | irr[2] | irr[3]) == 0) {
      deliverable = false; // the common answer: nothing requested
      return;
    }
    int pending = highest(irr);
    deliverable = pending >= 0 && Vectors.priorityClass(pending) > inServiceClass();
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
    updateDeliverable();
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
    deliverable = false;
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
    startCompute(ns, 1);
  }

  /**
   * The latest end a compute segment started now could have and still end without the queue
   * (nothing can happen on the machine before it), or {@link Long#MIN_VALUE}: the window in
   * which the kernel may run several identical segments as one ({@link #startCompute(long,
   * long)}).
   */
  public long inlineComputeUntil() {
    if (!inSegmentEnd || segment != Segment.NONE || hasDeliverableInterrupt() || lateDelivery.isScheduled()) {
      return Long.MIN_VALUE;
    }
    return sim.nextToFireUntil();
  }

  /**
   * A compute segment of {@code ns} that stands for {@code segments} back-to-back segments of
   * {@code ns / segments} each: the simulation counts that many events when it ends. More than
   * one only if it ends within {@link #inlineComputeUntil()}, where nothing can tell the two
   * apart.
   */
  public void startCompute(long ns, long segments) {
    if (segments < 1) {
      throw new IllegalArgumentException("cpu" + id + ": " + segments + " segments");
    }
    if (ns < 0) {
      throw new IllegalArgumentException("cpu" + id + ": negative compute time " + ns + " ns");
    }
    long limit = segments > 1 ? inlineComputeUntil() : 0;
    begin(Segment.COMPUTE);
    long end = sim.now() + ns;
    if (segments > 1 && end > limit) {
      throw new IllegalStateException("cpu" + id + ": " + segments + " segments as one must end by " + limit
          + " ns, not " + end);
    }
    if (inSegmentEnd && sim.nextToFire(end)) {
      // Started from the handler of the previous segment's end, which returns at once, and
      // nothing is armed before this end: it is the next event, so it is run by that same
      // handler (finishCompute's loop) instead of going through the queue.
      inlineEndNs = end;
      inlineSegments = segments;
      return;
    }
    sim.scheduleAfter(segmentEnd, ns);
  }

  /**
   * Ends now the compute segment just started, if it skips the queue and is still the next
   * event: the clock moves to its end, the events it stands for are counted, and the CPU is
   * between segments again, exactly as if the handler that started it had returned and this
   * CPU's segment-end loop had run the end (without a listener call: the caller goes on as its
   * listener would). The kernel's interpreter calls it right after starting a segment, so one
   * loop runs a whole burst of inline segments. Returns false, changing nothing, otherwise.
   */
  public boolean finishInlineCompute() {
    if (inlineEndNs < 0 || !sim.nextToFire(inlineEndNs)) {
      return false;
    }
    long end = inlineEndNs;
    inlineEndNs = -1;
    sim.fireInline(end, inlineSegments);
    endCompute();
    return true;
  }

  /**
   * Runs a whole compute segment of {@code ns} now, if it is one that would skip the queue and
   * is still the next event ({@link #startCompute(long)} then {@link #finishInlineCompute()}):
   * the clock moves to its end, one event is counted and the compute time accounted, exactly as
   * that pair would, and true is returned; otherwise nothing changes and false is returned. For
   * a kernel that runs a stretch of its own code op by op inside the window (fast-forward).
   */
  public boolean computeInline(long ns) {
    return computeInline(ns, 1);
  }

  /**
   * {@link #computeInline(long)} for {@code segments} back-to-back compute segments of
   * {@code ns} in all, as {@link #startCompute(long, long)} runs them: the clock moves to their
   * end and that many events are counted, if the last ends inside the window.
   */
  public boolean computeInline(long ns, long segments) {
    if (!inSegmentEnd || segment != Segment.NONE || ns < 0 || segments < 1 || hasDeliverableInterrupt()) {
      return false;
    }
    long now = sim.now();
    if (ns > Long.MAX_VALUE - now || !sim.nextToFire(now + ns)) {
      return false;
    }
    sim.fireInline(now + ns, segments);
    computeNs += ns;
    return true;
  }

  private void endCompute() {
    computeNs += sim.now() - segmentStartNs;
    segment = Segment.NONE;
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
        if (inlineEndNs >= 0) {
          left = inlineEndNs - now;
          inlineEndNs = -1;
        } else {
          left = segmentEnd.time() - now;
          sim.cancel(segmentEnd);
        }
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
    inSegmentEnd = true;
    try {
      endCompute();
      listener.segmentFinished(this);
      // A segment the listener started and left running: its end is run here when it is
      // still the next event (the kernel's interpreter usually ends it itself first).
      while (inlineEndNs >= 0) {
        if (!finishInlineCompute()) {
          long end = inlineEndNs;
          inlineEndNs = -1;
          if (inlineSegments > 1) {
            throw new IllegalStateException("cpu" + id + ": an event was armed inside a run of segments");
          }
          // Something was armed after the segment started (the listener went on after starting
          // it): the segment's end goes through the queue after all.
          sim.schedule(segmentEnd, end);
          return;
        }
        listener.segmentFinished(this);
      }
    } finally {
      inSegmentEnd = false;
    }
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
