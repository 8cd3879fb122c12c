/**
 * Timing models of the drivers the loads drive: {@code Rtc} (the RTC interrupt on IRQ 8 and the
 * blocking read that realfeel sleeps in), {@code Block} (request submission and the elevator,
 * under {@code io_request_lock} with interrupts off) and {@code Console} (printk and tty writes to
 * the frame-buffer console). The IDE interrupt handler (drivers/ide/ide.c {@code ide_intr()})
 * belongs to kernel-core; {@code Block} only lists it in the catalog.
 *
 * <p>Models Linux 2.4.17: drivers/char/rtc.c, drivers/block/ll_rw_blk.c and elevator.c,
 * kernel/printk.c, drivers/char/console.c, tty_io.c and n_tty.c, and
 * drivers/video/fbcon-cfb16.c (each function in docs/xref.md).
 *
 * <p>Start reading with {@code Rtc}, where every realfeel sample begins, then {@code Block}.
 */
package dev.kernellab.paths.drivers;
