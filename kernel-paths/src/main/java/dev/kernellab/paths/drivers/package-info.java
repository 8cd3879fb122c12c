/**
 * Timing models of the Linux 2.4.17 drivers the loads drive: {@code Rtc} (drivers/char/rtc.c
 * {@code rtc_interrupt()} on IRQ 8 and the blocking {@code rtc_read()} that realfeel sleeps in),
 * {@code Block} (drivers/block/ll_rw_blk.c {@code submit_bh()} and {@code __make_request()},
 * drivers/block/elevator.c {@code elevator_linus_merge()}, under {@code io_request_lock} with
 * interrupts off) and {@code Console} (kernel/printk.c {@code printk()}, drivers/char/console.c
 * {@code con_write()} and drivers/video/fbcon-cfb16.c {@code fbcon_cfb16_putcs()}). The IDE
 * interrupt handler (drivers/ide/ide.c {@code ide_intr()}) belongs to kernel-core; {@code Block}
 * only lists it in the catalog.
 */
package dev.kernellab.paths.drivers;
