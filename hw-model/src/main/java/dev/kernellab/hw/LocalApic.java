package dev.kernellab.hw;

import dev.kernellab.hw.sim.Event;

/**
 * A CPU's local APIC as a source of interrupts: its periodic timer and the inter-processor
 * interrupts sent to it.
 *
 * <p>Models arch/i386/kernel/apic.c ({@code setup_APIC_timer}: periodic mode on
 * {@code LOCAL_TIMER_VECTOR}, calibrated against the PIT at boot to HZ interrupts per second)
 * and arch/i386/kernel/smp.c ({@code send_IPI_mask}, {@code smp_send_reschedule}) of 2.4.17.
 * An IPI reaches the target's IRR after the machine's IPI delivery cost; a second IPI of the
 * same vector sent while one is in flight merges with it, as two requests of one vector merge
 * in the IRR.
 */
public final class LocalApic {

  private final Machine machine;
  private final Cpu cpu;
  private final PeriodicTimer timer;
  private final Event[] ipiInFlight = new Event[Vectors.COUNT];
  private long ipisReceived;
  private long ipisMerged;

  LocalApic(Machine machine, Cpu cpu) {
    this.machine = machine;
    this.cpu = cpu;
    this.timer =
        new PeriodicTimer(
            machine.simulation(),
            "cpu" + cpu.id() + ".apic-timer",
            now -> cpu.raise(Vectors.LOCAL_TIMER_VECTOR));
  }

  /** The CPU this APIC belongs to. */
  public Cpu cpu() {
    return cpu;
  }

  /**
   * Starts the periodic timer: {@code LOCAL_TIMER_VECTOR} every {@code periodNs}, the first one
   * {@code periodNs} from now.
   */
  @Models(file = "arch/i386/kernel/apic.c", function = "setup_APIC_timer", version = "2.4.17")
  public void startTimer(long periodNs) {
    timer.start(periodNs, 1);
  }

  /** Stops the timer. */
  public void stopTimer() {
    timer.stop();
  }

  /** IPIs that reached this CPU. */
  public long ipisReceived() {
    return ipisReceived;
  }

  /** IPIs that merged with one of the same vector already in flight. */
  public long ipisMerged() {
    return ipisMerged;
  }

  @Models(file = "arch/i386/kernel/smp.c", function = "send_IPI_mask", version = "2.4.17")
  @Models(file = "arch/i386/kernel/smp.c", function = "smp_send_reschedule", version = "2.4.17")
  void receiveIpi(int vector) {
    Event e = ipiInFlight[vector];
    if (e == null) {
      // One event per vector actually used, created on first use and reused forever after.
      e = new Event("cpu" + cpu.id() + ".ipi." + Integer.toHexString(vector), now -> deliver(vector));
      ipiInFlight[vector] = e;
    }
    if (e.isScheduled()) {
      ipisMerged++;
      return;
    }
    machine.simulation().scheduleAfter(e, machine.spec().costs().ipiDeliveryNs());
  }

  private void deliver(int vector) {
    ipisReceived++;
    cpu.raise(vector);
  }
}
