package dev.kernellab.paths.drivers;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Semaphore;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import java.util.List;
import java.util.Locale;

/**
 * Models kernel/printk.c {@code printk()} / {@code release_console_sem()} with
 * drivers/char/console.c {@code vt_console_print()}, and the tty write path
 * drivers/char/console.c {@code con_write()} / {@code do_con_write()} with
 * drivers/video/fbcon-cfb16.c {@code fbcon_cfb16_putcs()} (2.4.17).
 */
@Models(file = "kernel/printk.c", function = "printk", version = "2.4.17")
@Models(file = "kernel/printk.c", function = "release_console_sem", version = "2.4.17")
@Models(file = "drivers/char/console.c", function = "vt_console_print", version = "2.4.17")
@Models(file = "drivers/char/console.c", function = "do_con_write", version = "2.4.17")
@Models(file = "drivers/char/tty_io.c", function = "tty_write", version = "2.4.17")
@Models(file = "drivers/char/tty_io.c", function = "do_tty_write", version = "2.4.17")
@Models(file = "drivers/char/n_tty.c", function = "write_chan", version = "2.4.17")
@Models(file = "drivers/char/n_tty.c", function = "opost_block", version = "2.4.17")
@Models(file = "drivers/video/fbcon-cfb16.c", function = "fbcon_cfb16_putcs", version = "2.4.17")
public final class Console {

  /*
   * Implementation overview
   *
   * printk (kernel/printk.c 2.4.17) formats the message into the log buffer under logbuf_lock
   * taken with spin_lock_irqsave, then tries console_sem with down_trylock. The winner drops
   * logbuf_lock and restores the flags *before* release_console_sem calls the drivers: each
   * pass of release_console_sem takes logbuf_lock with irqsave only to claim the text
   * (con_start = log_end), drops it, and calls call_console_drivers with the caller's
   * interrupt state, normally on. So the irqs-off part of a printk is the formatting and a few
   * short claims; the drawing (vt_console_print, which takes only its try-only `printing` bit)
   * runs with interrupts on but holds console_sem. A printk that loses the trylock only buffers
   * its text. (The 2.6 kernels' irqs-off console drawing is not 2.4's.)
   *
   *     printk:   [cli: logbuf_lock, vsnprintf]  down_trylock(console_sem)?
   *                 -> release_console_sem: [cli: claim] draw line, line, ... [cli: claim] up()
   *
   * A user's write(2) to the console tty goes through tty_write and do_tty_write
   * (drivers/char/tty_io.c), which splits it into chunks of max(2 pages, 16 KiB) and calls the
   * line discipline's write_chan (n_tty.c) for each under lock_kernel(), testing need_resched
   * between chunks [1]. With OPOST and ONLCR on (a terminal's default) write_chan hands the
   * driver one opost_block at a time: at most 80 bytes, up to the next newline, which opost()
   * then sends as "\r\n". So the console sees one do_con_write per line of text: each takes
   * console_sem with acquire_console_sem (down: it may sleep), draws the cells with interrupts
   * on and no spinlock, and ends in console_conditional_schedule(), the console's own
   * reschedule point (printk.c: schedules if console_may_schedule and need_resched) [2]. Each
   * new line at the bottom of a full screen scrolls it. Under the BKL that schedule() drops it,
   * so a preemptible kernel holds the BKL, not preemptible, for one line's drawing at a time,
   * and the other kernels reach the same reschedule point. The low-latency patch reschedules per
   * character in fbcon_cfb16_putcs and touches neither tty_io.c nor n_tty.c; it has nothing
   * to say about the scroll, and VGA text does not go through fbcon at all.
   *
   * [1] 2.4.17 drivers/char/tty_io.c tty_write(), do_tty_write(); n_tty.c write_chan(),
   *     opost_block(), opost().
   * [2] 2.4.17 drivers/char/console.c do_con_write(); kernel/printk.c
   *     console_conditional_schedule().
   *
   * Simplifications: the text of a printk that lost the trylock is not drawn by the holder's
   * next pass (the holder draws only its own message); vt_console_print's `printing` bit,
   * which only matters for a printk nested inside a draw, is not modelled.
   */

  /**
   * call_console_drivers' loop over the lines of a message, each drawn by vt_console_print (no
   * patch touches it).
   */
  public static final Site CALL_CONSOLE_DRIVERS =
      new Site("drivers/char/console.c", "vt_console_print", "call_console_drivers");
  /** fbcon_cfb16_putcs' loop over the characters of a line. */
  public static final Site PUTCS = new Site("drivers/video/fbcon-cfb16.c", "fbcon_cfb16_putcs", "putcs");
  /** write_chan's loop over the lines of a tty write, one opost_block and do_con_write each, BKL held. */
  public static final Site LINES = new Site("drivers/char/n_tty.c", "write_chan", "opost_block");

  /** vsnprintf and the log buffer copy: assumption, 2 us. */
  public static final long PRINTK_FORMAT_NS = 2_000;
  /** One pass of release_console_sem's bookkeeping under logbuf_lock: assumption, 0.3 us. */
  public static final long CONSOLE_CLAIM_NS = 300;
  /** One 80-column line on VGA text (160 bytes to video memory over PCI): assumption, 5 us. */
  public static final long VGA_LINE_NS = 5_000;
  /** VGA text scroll by moving the origin (scrup): assumption, 10 us. */
  public static final long VGA_SCROLL_NS = 10_000;
  /** Columns of a 1024-pixel-wide framebuffer console with 8-pixel glyphs. */
  public static final int FB_COLUMNS = 128;
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
  /** Columns of the VGA text console, 80x25. */
  public static final int VGA_COLUMNS = 80;
  /**
   * opost_block and opost's "\r\n" for one line: 80 bytes copied from user space and tested
   * one by one (~5 instructions a byte), the driver's write_room: assumption, 0.5 us.
   */
  public static final long OPOST_LINE_NS = 500;

  /** {@code console_sem} of kernel/printk.c: one per kernel. */
  public final Semaphore consoleSem = new Semaphore("console_sem", 1);
  /** printk of a message that reaches the console. */
  public final KernelPath printk;
  /** write(2) to the console tty ({@link TtyWrite}: the bytes; without one, {@link #TTY_LINES} lines). */
  public final KernelPath ttyWrite;

  private final long drawNs; // one line, scroll included
  private final int columns;

  /** Builds the paths for one kernel, drawing on VGA text or a framebuffer. */
  public Console(Locks l, PathParams params) {
    boolean fb = params.framebufferConsole();
    drawNs = fb ? FB_LINE_NS + FB_SCROLL_NS : VGA_LINE_NS + VGA_SCROLL_NS;
    columns = fb ? FB_COLUMNS : VGA_COLUMNS;
    KernelPath claim =
        KernelPath.path("kernel/printk.c", "release_console_sem: claim")
            .spinLockIrqSave(l.logbufLock)
            .compute(CONSOLE_CLAIM_NS)
            .spinUnlockIrqRestore(l.logbufLock)
            .build();
    KernelPath releaseConsoleSem =
        KernelPath.path("kernel/printk.c", "release_console_sem")
            .call(claim)
            .call(KernelPath.path("drivers/char/console.c", "vt_console_print")
                .loop(CALL_CONSOLE_DRIVERS, PRINTK_LINES, line -> line.compute(drawNs))
                .build())
            .call(claim) // con_start == log_end: nothing left
            .up(consoleSem)
            .build();
    // The trylock is taken here just after the unlock instead of just before it: atomic either
    // way, and nothing else happens between the two.
    printk =
        KernelPath.path("kernel/printk.c", "printk")
            .spinLockIrqSave(l.logbufLock)
            .compute(PRINTK_FORMAT_NS)
            .spinUnlockIrqRestore(l.logbufLock)
            .callIfDownTrylock(consoleSem, releaseConsoleSem)
            .build();
    KernelPath.Builder line = KernelPath.path("drivers/char/console.c", "do_con_write: line");
    if (fb) {
      line.call(KernelPath.path("drivers/video/fbcon-cfb16.c", "fbcon_cfb16_putcs")
              .loop(PUTCS, FB_COLUMNS, ch -> ch.compute(FB_LINE_NS / FB_COLUMNS))
              .build())
          .compute(FB_SCROLL_NS);
    } else {
      line.compute(VGA_LINE_NS + VGA_SCROLL_NS);
    }
    KernelPath lineOfText = line.build();
    KernelPath conWrite =
        KernelPath.path("drivers/char/console.c", "do_con_write")
            .down(consoleSem) // acquire_console_sem()
            .call(lineOfText)
            .condResched() // console_conditional_schedule(), kernel/printk.c 2.4.17
            .up(consoleSem) // release_console_sem()
            .build();
    KernelPath writeChan =
        KernelPath.path("drivers/char/n_tty.c", "write_chan")
            .loop(LINES, this::lines, each -> each.compute(OPOST_LINE_NS).call(conWrite))
            .build();
    // One chunk: a write of up to 16 KiB (the loads' are lines), so do_tty_write's test of
    // need_resched after it is the return to user mode's.
    ttyWrite =
        KernelPath.path("drivers/char/tty_io.c", "tty_write")
            .cause(new TtyWriteBkl())
            .lockKernel(l.kernelFlag)
            .call(writeChan)
            .unlockKernel(l.kernelFlag)
            .build();
  }

  /** Lines of the write: its bytes over the console's width, or a draw without a TtyWrite. */
  private long lines(KernelCpu c) {
    TtyWrite w = c.syscallArgs(TtyWrite.class);
    return w == null ? c.sample(TTY_LINES) : (w.bytes() + columns - 1) / columns;
  }

  /** The arguments of a write(2) to the console: how many bytes. One per task, reused. */
  public static final class TtyWrite {
    private long bytes;

    /** Points these arguments at a write of {@code bytes} bytes. */
    public TtyWrite of(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
      }
      this.bytes = bytes;
      return this;
    }

    /** Bytes written. */
    public long bytes() {
      return bytes;
    }
  }

  /**
   * What the analysis names while a write to the console runs under do_tty_write's BKL: the
   * lines drawn, each an opost_block and a do_con_write.
   */
  public record TtyWriteBkl() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      long lines = h.iterationsAt(LINES);
      String what = lines > 0
          ? String.format(Locale.ROOT, "%,d lines drawn on the console", lines)
          : h.path().file() + " " + h.path().function();
      return String.format(Locale.ROOT, "BKL held by %s in tty_write (%s, %.1f us)", h.task(), what, h.ns() / 1000.0);
    }
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    String src = "VGA 5+10 us/line, fbcon 0.22+10.5 ms/line (assumptions: ~150 MB/s to VRAM)";
    return List.of(
        new CatalogEntry(
            "printk (console)", printk, List.of("irqs off", "logbuf_lock", "console_sem"),
            PRINTK_FORMAT_NS + 2 * CONSOLE_CLAIM_NS + Quantiles.typical(PRINTK_LINES) * drawNs,
            PRINTK_FORMAT_NS + 2 * CONSOLE_CLAIM_NS + Quantiles.tail(PRINTK_LINES) * drawNs,
            "an oops or a dump of 25 lines (1 message in 100), drawn with irqs on under console_sem",
            src + "; irqs off only to format and claim the text"),
        new CatalogEntry(
            "tty write (console)", ttyWrite, List.of("kernel_flag", "console_sem"),
            Quantiles.typical(TTY_LINES) * (OPOST_LINE_NS + drawNs), Quantiles.tail(TTY_LINES) * (OPOST_LINE_NS + drawNs),
            "a long listing scrolled on the console under do_tty_write's BKL; console_conditional_schedule"
                + " after each line drops it",
            src + "; opost_block 0.5 us/line (assumption); cf. tty_io.c BKL 54 us, Love, LKML 13 Jan 2002"));
  }
}
