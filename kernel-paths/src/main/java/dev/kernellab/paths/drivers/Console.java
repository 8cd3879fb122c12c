package dev.kernellab.paths.drivers;

import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;

/**
 * Models kernel/printk.c {@code printk()} / {@code release_console_sem()} with
 * drivers/char/console.c {@code vt_console_print()}, and the tty write path
 * drivers/char/console.c {@code con_write()} / {@code do_con_write()} with
 * drivers/video/fbcon-cfb16.c {@code fbcon_cfb16_putcs()} (2.4.17).
 */
public final class Console {

  /*
   * Implementation overview
   *
   * printk in 2.4.17 calls the console drivers from release_console_sem with local interrupts
   * still off (it took logbuf_lock with spin_lock_irqsave and restores the flags only after
   * call_console_drivers): a kernel message is an interrupts-off stretch as long as the
   * console takes to draw it, in every configuration. On VGA text that is a few microseconds
   * a line; on an unaccelerated framebuffer a scroll redraws the screen, and Morton lists
   * framebuffer scrolling among the latency sources no patch fixed (reference 2.4).
   *
   * A user's write to the tty draws character cells with interrupts on and no spinlock; the
   * low-latency patch reschedules per putcs call (one call per line here).
   */

  /** call_console_drivers' loop over the lines of a message, interrupts off. */
  public static final Site CALL_CONSOLE_DRIVERS =
      new Site("kernel/printk.c", "release_console_sem", "call_console_drivers");
  /** do_con_write's loop over lines, one fbcon putcs each. */
  public static final Site PUTCS = new Site("drivers/video/fbcon-cfb16.c", "fbcon_cfb16_putcs", "putcs");

  /** vsnprintf and the log buffer copy: assumption, 2 us. */
  public static final long PRINTK_FORMAT_NS = 2_000;
  /** One 80-column line on VGA text (160 bytes to video memory over PCI): assumption, 5 us. */
  public static final long VGA_LINE_NS = 5_000;
  /** VGA text scroll by moving the origin (scrup): assumption, 10 us. */
  public static final long VGA_SCROLL_NS = 10_000;
  /**
   * One 128-column line of 16x8 glyphs at 16 bpp on an unaccelerated framebuffer: 32 KiB of
   * write-combined stores to AGP memory at ~150 MB/s (assumption), 220 us.
   */
  public static final long FB_LINE_NS = 220_000;
  /** A full-screen redraw for a scroll at 1024x768x16 bpp (1.5 MB at 150 MB/s): 10.5 ms. */
  public static final long FB_SCROLL_NS = 10_500_000;
  /** Lines of one kernel message: usually 1, sometimes a dump (assumption). */
  public static final Distribution PRINTK_LINES =
      Distribution.empirical(new long[] {1, 3, 25}, new double[] {0.9, 0.09, 0.01});
  /** Lines of one tty write (an ls, a compile's output): assumption. */
  public static final Distribution TTY_LINES = Distribution.logNormal(3, 1.0);

  /** printk of a message that reaches the console. */
  public final KernelPath printk;
  /** write(2) to the console tty. */
  public final KernelPath ttyWrite;

  private final long lineNs;

  /** Builds the paths for one kernel, drawing on VGA text or a framebuffer. */
  public Console(Locks l, PathParams params) {
    boolean fb = params.framebufferConsole();
    lineNs = fb ? FB_LINE_NS + FB_SCROLL_NS : VGA_LINE_NS + VGA_SCROLL_NS;
    printk =
        KernelPath.path("kernel/printk.c", "printk")
            .localIrqSave()
            .spinLock(l.logbufLock)
            .compute(PRINTK_FORMAT_NS)
            .spinUnlock(l.logbufLock)
            .call(KernelPath.path("kernel/printk.c", "release_console_sem")
                .loop(CALL_CONSOLE_DRIVERS.label(), PRINTK_LINES, line -> line.compute(lineNs))
                .build())
            .localIrqRestore()
            .build();
    ttyWrite =
        KernelPath.path("drivers/char/console.c", "do_con_write")
            .call(KernelPath.path("drivers/video/fbcon-cfb16.c", "fbcon_cfb16_putcs")
                .loop(PUTCS.label(), TTY_LINES, line -> line.compute(lineNs))
                .build())
            .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    String src = "VGA 5+10 us/line, fbcon 0.22+10.5 ms/line (assumptions: ~150 MB/s to VRAM)";
    return List.of(
        new CatalogEntry(
            "printk (console)", printk, List.of("irqs off", "logbuf_lock"),
            PRINTK_FORMAT_NS + Quantiles.typical(PRINTK_LINES) * lineNs,
            PRINTK_FORMAT_NS + Quantiles.tail(PRINTK_LINES) * lineNs,
            "an oops or a dump of 25 lines (1 message in 100), all with irqs off", src),
        new CatalogEntry(
            "tty write (console)", ttyWrite, List.of(),
            Quantiles.typical(TTY_LINES) * lineNs, Quantiles.tail(TTY_LINES) * lineNs,
            "a long listing scrolled on the console; no vanilla reschedule point", src));
  }
}
