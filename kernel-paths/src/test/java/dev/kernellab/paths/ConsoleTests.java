package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.drivers.Console;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * printk and the tty write as kernel/printk.c and drivers/char/console.c of 2.4.17 have them,
 * on an unaccelerated framebuffer where one line costs 10.7 ms to draw.
 */
class ConsoleTests {

  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  /**
   * release_console_sem restores the flags before it calls the drivers: an interrupt asserted
   * while a printk draws its message is taken at once, not after the 10.7 ms line.
   */
  @Test
  void anInterruptDuringAPrintkDrawIsTakenAtOnce() {
    Kernel24Paths p = new Kernel24Paths(PathParams.defaults().withFramebufferConsole());
    List<Long> rtcEntries = new ArrayList<>();
    int[] rtcVector = {-1};
    KernelBuilder b =
        new KernelBuilder(MachineSpec.uniprocessor(), 1)
            .scheduler(new SimpleRoundRobinScheduler())
            .tracer(new Tracer() {
              @Override
              public void irqEntry(long now, int cpu, int vector) {
                if (vector == rtcVector[0]) {
                  rtcEntries.add(now);
                }
              }
            });
    p.install(b);
    b.task(TaskSpec.user("klog", KernelPath.userProgram("klog").syscall(p.console().printk).build()));
    Kernel k = b.build();
    rtcVector[0] = k.machine().ioApic().vectorOf(Rtc.IRQ);
    k.machine().simulation().schedule(new Event("rtc", t -> k.machine().ioApic().assertLine(Rtc.IRQ)), 5 * MS);
    k.run(40 * MS);
    assertThat(rtcEntries).hasSize(1);
    assertThat(rtcEntries.get(0) - 5 * MS).isLessThan(5 * US);
  }

  /**
   * A printk that finds console_sem held (a tty write drawing) only buffers its text: it
   * returns in microseconds instead of drawing a line.
   */
  @Test
  void aPrintkDuringATtyWriteOnlyBuffers() {
    Kernel24Paths p = new Kernel24Paths(PathParams.defaults().withFramebufferConsole());
    long[] printkTook = {-1};
    long[] started = {0};
    KernelPath klog =
        KernelPath.userProgram("klog")
            .compute(2 * MS)
            .probe((c, t, now) -> started[0] = now)
            .syscall(p.console().printk)
            .probe((c, t, now) -> printkTook[0] = now - started[0])
            .build();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    b.task(TaskSpec.user("writer", KernelPath.userProgram("writer").syscall(p.console().ttyWrite).build()).onCpu(0))
        .task(TaskSpec.user("klog", klog).onCpu(1).allowedOn(0b10));
    Kernel k = b.build();
    k.run(15 * MS);
    assertThat(p.console().consoleSem.count()).as("the writer still draws").isZero();
    assertThat(printkTook[0]).isBetween(0L, 20 * US);
    assertThat(Console.FB_SCROLL_NS).isGreaterThan(10 * MS);
  }
}
