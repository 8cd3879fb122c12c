package dev.kernellab.hw;

import dev.kernellab.hw.sim.Simulation;
import java.util.Objects;

/**
 * A simulated PC: CPUs with their local APICs, the I/O APIC, the PIT, the RTC and an IDE disk,
 * all driven by one {@link Simulation}.
 *
 * <p>The machine knows nothing of any kernel. Software attaches one {@link CpuListener} and
 * from then on is told when an interrupt is accepted or a work segment ends; it drives the
 * devices through their registers.
 *
 * <pre>{@code
 * Simulation sim = new Simulation(seed);
 * Machine m = new Machine(MachineSpec.uniprocessor(), sim);
 * m.attach(kernel);
 * m.pit().program(11932);          // HZ = 100
 * sim.runUntil(1_000_000_000L);
 * }</pre>
 */
public final class Machine {

  private final MachineSpec spec;
  private final Simulation sim;
  private final Cpu[] cpus;
  private final LocalApic[] apics;
  private final IoApic ioApic;
  private final Pit pit;
  private final Rtc rtc;
  private final IdeDisk disk;
  private boolean attached;

  /** Builds the machine described by {@code spec} on {@code sim}. */
  public Machine(MachineSpec spec, Simulation sim) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.sim = Objects.requireNonNull(sim, "sim");
    this.cpus = new Cpu[spec.cpus()];
    this.apics = new LocalApic[spec.cpus()];
    for (int i = 0; i < cpus.length; i++) {
      cpus[i] = new Cpu(i, sim, spec.cpuHz());
      apics[i] = new LocalApic(this, cpus[i]);
    }
    this.ioApic = new IoApic(this, spec.routing());
    this.pit = new Pit(this);
    this.rtc = new Rtc(this);
    this.disk = new IdeDisk(this, spec.disk());
  }

  /** Attaches the software that runs on every CPU. Once only. */
  public void attach(CpuListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (attached) {
      throw new IllegalStateException("a CpuListener is already attached to this machine");
    }
    attached = true;
    for (Cpu c : cpus) {
      c.setListener(listener);
    }
  }

  /** The machine's description. */
  public MachineSpec spec() {
    return spec;
  }

  /** The simulation the machine runs in. */
  public Simulation simulation() {
    return sim;
  }

  /** Number of CPUs. */
  public int cpuCount() {
    return cpus.length;
  }

  /** CPU {@code i}. */
  public Cpu cpu(int i) {
    return cpus[i];
  }

  /** The local APIC of CPU {@code i}. */
  public LocalApic localApic(int i) {
    return apics[i];
  }

  /** The I/O APIC. */
  public IoApic ioApic() {
    return ioApic;
  }

  /** The 8254 PIT. */
  public Pit pit() {
    return pit;
  }

  /** The MC146818 RTC. */
  public Rtc rtc() {
    return rtc;
  }

  /** The IDE disk on IRQ 14. */
  public IdeDisk disk() {
    return disk;
  }

  /**
   * Sends an IPI of {@code vector} from CPU {@code from} to CPU {@code to}; it becomes pending
   * there after the IPI delivery cost.
   */
  public void sendIpi(int from, int to, int vector) {
    if (from < 0 || from >= cpus.length || to < 0 || to >= cpus.length) {
      throw new IllegalArgumentException(
          "IPI from cpu" + from + " to cpu" + to + " on a " + cpus.length + "-CPU machine");
    }
    Vectors.checkExternal(vector);
    apics[to].receiveIpi(vector);
  }
}
