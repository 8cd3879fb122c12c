/**
 * The catalog of Linux 2.4.17 code paths that the loads of the 2001-2002 latency debate
 * exercise: {@code Kernel24Paths} gathers the sub-catalogs of the {@code mm}, {@code fs},
 * {@code drivers}, {@code net} and {@code kernel} subpackages, each path a {@code KernelPath}
 * with its locks, named loop sites and calibrated lengths. {@code Locks} holds the global
 * spinlocks of 2.4.17 (declared in mm/filemap.c, mm/swapfile.c, fs/buffer.c, fs/dcache.c,
 * fs/inode.c, kernel/printk.c, drivers/char/rtc.c and drivers/block/ll_rw_blk.c), one set per
 * kernel. {@code Calibration} holds the per-operation costs of an 800 MHz Pentium III, each with
 * its source (docs/hardware-and-costs.md, lmbench costs), and {@code PathParams} the counts that
 * depend on the load, whose defaults are stated assumptions. {@code CatalogTable} prints the
 * paths and sites, and {@code CatalogPatch} is a patch, such as the low-latency patch, that must
 * be bound to one kernel's catalog.
 */
package dev.kernellab.paths;
