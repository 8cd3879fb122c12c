package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.DiskSpec;
import dev.kernellab.hw.IdeDisk;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.IdeInterruptCause;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.Realfeel;
import org.junit.jupiter.api.Test;

/**
 * The IDE interrupt as the worst case, on small machines: one CPU whose costs are zero but for
 * the memory latency and the IDE register access (the two the completion is made of), realfeel
 * blocked in read(), a task D doing one disk transfer, and the RTC asserted while the IDE
 * handler runs with interrupts off (unmaskirq 0, the default). The anatomy names the interrupt
 * in the load's terms: the buffer heads completed and how long interrupts were off.
 */
class IdeInterruptScenarioTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;
  private static final CostTable COSTS =
      new CostTable(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 175, 0, 600, 0, 0);

  /** D's one transfer of {@code sectors} on {@code disk}, and the RTC {@code afterNs} into its first interrupt. */
  private static SampleAnatomy worst(DiskSpec disk, int sectors, boolean write, long afterNs) {
    long ide = kernel(disk, sectors, write, null, -1).machine().ioApic().lastAssertNs(IdeDisk.IRQ);
    LatencyAnatomy[] anatomy = new LatencyAnatomy[1];
    kernel(disk, sectors, write, anatomy, ide + afterNs);
    assertThat(anatomy[0].worst()).isNotEmpty();
    return anatomy[0].worst().get(0);
  }

  private static Kernel kernel(DiskSpec disk, int sectors, boolean write, LatencyAnatomy[] out, long rtcAt) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelPath d = KernelPath.userProgram("D")
        .syscall(KernelPath.path("fs/buffer.c", write ? "ll_rw_block(WRITE)" : "ll_rw_block(READ)")
            .diskIo(Distribution.fixed(1_000_000), Distribution.fixed(sectors), write).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(MS)).build();
    Realfeel realfeel = new Realfeel(paths, 2048);
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor().withCosts(COSTS).withDisk(disk), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    kb.task(realfeel.task()).task(TaskSpec.user("D", d));
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 4);
    if (out != null) {
      kb.tracer(anatomy);
      realfeel.listen(anatomy);
      out[0] = anatomy;
    }
    Kernel k = kb.build();
    if (rtcAt >= 0) {
      k.machine().simulation().schedule(new Event("rtc", t -> k.machine().ioApic().assertLine(Rtc.IRQ)), rtcAt);
    }
    k.run(100 * MS);
    return k;
  }

  private static IdeInterruptCause ideCause(Segment s, long heads) {
    assertThat(s.cause()).isInstanceOf(Cause.Declared.class);
    Cause.Declared d = (Cause.Declared) s.cause();
    assertThat(d.iterations()).as("buffer heads completed").isEqualTo(heads);
    assertThat(d.path().location()).startsWith("drivers/ide/ide.c:ide_intr");
    return (IdeInterruptCause) d.cause();
  }

  /**
   * A DMA write of 248 sectors, one request of 31 buffer heads: ide_dma_intr ends them one
   * b_end_io each (4 DRAM misses, 700 ns) with interrupts off, after ide_intr's status read and
   * ide_dma_end (6 register accesses, 3.6 us): 25.3 us. An RTC asserted 5 us into it waits 20.3 us.
   */
  @Test
  void aLargeDmaWriteCompletesItsBufferHeadsWithInterruptsOff() {
    SampleAnatomy w = worst(DiskSpec.ata7200rpm(), 248, true, 5 * US);
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.dominant().ns()).isEqualTo(6 * 600 + 31 * 700 - 5 * US);
    IdeInterruptCause c = ideCause(w.dominant(), 31);
    assertThat(c.dma()).isTrue();
    assertThat(((Cause.Declared) w.dominant().cause()).cause().describe(((Cause.Declared) w.dominant().cause()).hold()))
        .isEqualTo("ide0 interrupt (ide_dma_intr): 31 buffer heads completed, interrupts off 25.3 us");
  }

  /**
   * PIO with multcount 16 and unmaskirq off: read_intr copies 16 sectors through the data port
   * (493 us at ATA PIO mode 4) and ends the 2 buffer heads they fill, interrupts off throughout;
   * an RTC asserted 100 us in waits for the rest.
   */
  @Test
  void aPioReadWithUnmaskIrqOffHoldsTheRtcForItsDrqBlock() {
    DiskSpec pio = DiskSpec.ata7200rpm().withPio(false).withMultcount(16);
    SampleAnatomy w = worst(pio, 16, false, 100 * US);
    long offNs = 600 + 600 + pio.pioCopyNs(16) + 2 * 700;
    assertThat(w.dominant().part()).isEqualTo(Part.INTERRUPT_LATENCY);
    assertThat(w.dominant().ns()).isEqualTo(offNs - 100 * US);
    IdeInterruptCause c = ideCause(w.dominant(), 2);
    assertThat(c.dma()).isFalse();
    assertThat(c.describe(((Cause.Declared) w.dominant().cause()).hold()))
        .isEqualTo("ide0 interrupt (read_intr/write_intr, PIO 16 sectors an interrupt): 2 buffer heads completed,"
            + " interrupts off 496.1 us");
  }

  /** With hdparm -u1 the same read lets the RTC in at once: the IDE interrupt is no longer the latency. */
  @Test
  void unmaskIrqTakesThePioCopyOutOfTheInterruptLatency() {
    DiskSpec pio = DiskSpec.ata7200rpm().withPio(true).withMultcount(16);
    SampleAnatomy w = worst(pio, 16, false, 100 * US);
    assertThat(w.segment(Part.INTERRUPT_LATENCY)).hasValueSatisfying(s -> assertThat(s.ns()).isLessThan(2 * US));
  }
}
